// Shared set-up of the browser tests: which model files to serve, the static
// server (scripts/serve.mjs on port 0) and Debian's Chromium driven by
// playwright-core, started and closed for each test file by useBrowser().
//
// Models: the shipped models in models/ when all three are there; otherwise
// (or with S2S_E2E_MODELS=tiny) three small models trained here from
// tests/fixtures in a few seconds, kept in build/e2e-models/ and served at
// /models/ in place of the repository's folder. The page itself has no test
// switch: it loads models by name, from /models/, either way.
//
// Two small fixture models are trained here too, always, and served under
// /e2e-models/, which the page opens with its ?model-url= parameter: a
// SUBWORD one (BPE pieces, "learning" split into letters) at
// SUBWORD_MODEL_URL, and a WORD-LEVEL one (every token a word, as model
// files from before the subword models) at WORD_MODEL_URL. With the shipped
// models, tightShortlistModel() puts a copy of en-fr with a tiny lexical
// shortlist there too (TIGHT_SHORTLIST_URL).
import { spawnSync } from 'node:child_process';
import { after, afterEach, before } from 'node:test';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { chromiumLaunchOptions } from '../js/helpers/chromium.mjs';
import { trainSubwordFixture } from '../js/helpers/models.mjs';
import { shippedModels } from '../../src/wasm/models.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const artifacts = join(root, 'tests', 'e2e', 'artifacts');
const MODEL_NAMES = shippedModels;
const trainedFolder = join(root, 'build', 'e2e-models');
const cli = join(root, 'build', 'native', 'seq2seq');
/** Where the page finds the subword fixture model (a same-origin path for ?model-url=). */
export const SUBWORD_MODEL_URL = '/e2e-models/tiny-subword.s2s';
/** Where the page finds the word-level fixture model. */
export const WORD_MODEL_URL = '/e2e-models/tiny-words.s2s';
/** Where the page finds the shipped en-fr with a tiny shortlist (tightShortlistModel()). */
export const TIGHT_SHORTLIST_URL = '/e2e-models/en-fr-tight-shortlist.s2s';

// Small and quick: the tests check the page's wiring, not translation quality.
const TINY_SIZES = ['--embedding', '16', '--hidden', '16', '--decoder-hidden', '32', '--attention-size', '16',
  '--output-hidden', '16', '--steps', '400', '--threads', '1', '--eval-every', '0', '--min-frequency', '1', '--dropout', '0'];
const TINY_MODELS = {
  'en-fr': ['--data', 'tests/fixtures/tiny-en-fr.tsv', '--target-language', 'fr', '--dev-fraction', '0.1'],
  'en-fr-fixed': ['--data', 'tests/fixtures/tiny-en-fr.tsv', '--target-language', 'fr', '--dev-fraction', '0.1', '--attention', 'none'],
  // The en-zh fixture is itself a development split (fraction 0.05, seed 1);
  // another seed splits it again so that something is left to train on.
  'en-zh': ['--data', 'tests/fixtures/en-zh-dev.tsv', '--target-language', 'zh', '--dev-fraction', '0.1', '--split-seed', '7'],
  'en-zh-fixed': ['--data', 'tests/fixtures/en-zh-dev.tsv', '--target-language', 'zh', '--dev-fraction', '0.1', '--split-seed', '7', '--attention', 'none'],
};

/** 'shipped' or 'tiny': which models the tests run on. */
export function modelKind() {
  if (process.env.S2S_E2E_MODELS === 'tiny') return 'tiny';
  if (process.env.S2S_E2E_MODELS === 'shipped') return 'shipped';
  return MODEL_NAMES.every((name) => existsSync(join(root, 'models', `${name}.s2s`))) ? 'shipped' : 'tiny';
}

/** The folder to serve at /models/, or null for the repository's models/. */
export function modelsFolder() {
  if (modelKind() === 'shipped') return null;
  for (const name of MODEL_NAMES) {
    if (!TINY_MODELS[name]) throw new Error(`tests/e2e/helpers.mjs has no small stand-in for the shipped model ${name}: add it to TINY_MODELS`);
    trainOnce(`${name}.s2s`, (output, scratch) => {
      const result = spawnSync(cli, ['train', ...TINY_MODELS[name], ...TINY_SIZES, '--name', name,
        '--checkpoint-dir', scratch, '--output', output], { cwd: root, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`training the test model ${name} failed:\n${result.stderr}`);
    });
  }
  return trainedFolder;
}

/** The folder holding the subword and word-level fixture models (trained if needed), served at /e2e-models/. */
export function fixtureFolder() {
  trainOnce('tiny-subword.s2s', (output, scratch) => trainSubwordFixture(output, scratch));
  trainOnce('tiny-words.s2s', (output, scratch) => {
    const result = spawnSync(cli, ['train', ...TINY_MODELS['en-fr'], ...TINY_SIZES, '--name', 'tiny-words',
      '--checkpoint-dir', scratch, '--output', output], { cwd: root, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`training the word-level fixture model failed:\n${result.stderr}`);
  });
  return trainedFolder;
}

/**
 * The shipped en-fr model with a shortlist of the smallest kind (always 4,
 * one trigger per target piece, from the 40 pairs of tests/fixtures): a
 * short sentence then has fewer candidate pieces than the page lists, so
 * pieces at probability 0 (log probability −∞) reach the "what if" and the
 * beam tree. Written to build/e2e-models/ (served at /e2e-models/) with
 * `seq2seq shortlist`; returns TIGHT_SHORTLIST_URL, or null with the small
 * stand-in models (their float output layers decode without a shortlist).
 */
export function tightShortlistModel() {
  if (modelKind() !== 'shipped') return null;
  const model = join(root, 'models', 'en-fr.s2s');
  trainOnce('en-fr-tight-shortlist.s2s', (output) => {
    const result = spawnSync(cli, ['shortlist', '--model', model, '--data', 'tests/fixtures/tiny-en-fr.tsv', '--output', output,
      '--always', '4', '--per-target', '1'], { cwd: root, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`seq2seq shortlist failed:\n${result.stderr}`);
  }, [model]);
  return TIGHT_SHORTLIST_URL;
}

// Trains build/e2e-models/FILE with train(output, scratchFolder) unless the
// current CLI already did: a rebuilt CLI (perhaps a new file format), or a
// newer file in `dependsOn`, trains it again. Into a scratch folder and
// renamed, so that test files running at the same time never read a
// half-written model.
function trainOnce(file, train, dependsOn = []) {
  if (!existsSync(cli)) throw new Error(`the tests need ${cli} to train their small models; run npm run build:native`);
  const output = join(trainedFolder, file);
  if (existsSync(output) && [cli, ...dependsOn].every((input) => statSync(output).mtimeMs > statSync(input).mtimeMs)) return;
  mkdirSync(trainedFolder, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), `s2s-e2e-${file}-`));
  try {
    train(join(scratch, 'model.s2s'), scratch);
    renameSync(join(scratch, 'model.s2s'), output);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// The server of the tests' pages: the repository, with the tests' models
// mounted (see the top of this file).
async function startTestServer() {
  for (const file of ['dist/index.js', 'dist/s2s-core.wasm']) {
    if (!existsSync(join(root, file))) throw new Error(`${file} is missing; build it with npm run build:wasm`);
  }
  const folder = modelsFolder();
  const mounts = { '/e2e-models/': fixtureFolder(), ...(folder ? { '/models/': folder } : {}) };
  return startServer({ port: 0, mounts });
}

// Records a page's console errors and uncaught exceptions in page.problems.
function watchProblems(page) {
  page.problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') page.problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => page.problems.push(`page error: ${error.message}`));
  return page;
}

const pageUrl = (server, path) => (/^(https?:|about:)/.test(path) ? path : `${server.origin}${path}`);

/**
 * Starts the server and a fresh Chromium. Returns { server, context, close(),
 * newPage(path, { width, height }) }; each page records its console errors
 * and uncaught exceptions in page.problems. Every page shares the one
 * (persistent) context: its HTTP cache, Cache API and localStorage. For
 * tests that must not see each other's state, see startIsolatedBrowser().
 */
export async function startBrowser() {
  const server = await startTestServer();
  const profile = mkdtempSync(join(tmpdir(), 's2s-e2e-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      ...chromiumLaunchOptions(),
      headless: true,
      acceptDownloads: true,
      viewport: { width: 1200, height: 900 },
    });
  } catch (error) {
    await server.close();
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  mkdirSync(artifacts, { recursive: true });
  return {
    server,
    context,
    async newPage(path = '/web/', viewport = { width: 1200, height: 900 }) {
      const page = watchProblems(await context.newPage());
      await page.setViewportSize(viewport);
      await page.goto(pageUrl(server, path));
      return page;
    },
    async close() {
      await context.close();
      await server.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Starts the server and one Chromium for a file whose tests are independent:
 * newPage() opens every page in a browser context of its own (an empty
 * profile in memory: no HTTP cache, Cache API, localStorage or cookies of
 * another test), so each test sees the page as a first visit whatever ran
 * before it, and runs alone (node --test --test-name-pattern=...).
 *
 * Returns { server, browser, close(), closePages(),
 * newPage(path, { width, height }, { beside }) }: newPage(null) opens a blank
 * page (for routes and init scripts before its first goto); { beside: page }
 * opens it in that page's context instead, as a second tab of the same
 * browser (its storage and cache shared, for a test of what a visit leaves
 * to the next); pages record their console errors and uncaught exceptions in
 * page.problems; closePages() closes every context opened since its last
 * call (call it in afterEach).
 */
export async function startIsolatedBrowser() {
  const server = await startTestServer();
  let browser;
  try {
    browser = await chromium.launch({ ...chromiumLaunchOptions(), headless: true });
  } catch (error) {
    await server.close();
    throw error;
  }
  mkdirSync(artifacts, { recursive: true });
  let contexts = [];
  const closePages = async () => {
    const open = contexts;
    contexts = [];
    await Promise.all(open.map((context) => context.close()));
  };
  return {
    server,
    browser,
    async newPage(path = '/web/', viewport = { width: 1200, height: 900 }, { beside = null } = {}) {
      let context = beside?.context();
      if (!context) {
        context = await browser.newContext({ acceptDownloads: true, viewport });
        contexts.push(context);
      }
      const page = watchProblems(await context.newPage());
      if (beside) await page.setViewportSize(viewport);
      if (path !== null) await page.goto(pageUrl(server, path));
      return page;
    },
    closePages,
    async close() {
      await closePages();
      await browser.close();
      await server.close();
    },
  };
}

/**
 * The browser of a test file, with its lifecycle: registers the file's
 * node:test hooks (call it at the top level of the file) and returns an
 * object that before() fills with what startBrowser() returns, or with
 * `isolated`, startIsolatedBrowser() (a context of its own for every page):
 * newPage(), server, context or browser, close(). With `isolated`,
 * afterEach() closes the pages each test opened; after() closes the browser
 * and the server. A file's own set-up goes in hooks of its own, registered
 * after this call (its before() then finds the browser started).
 */
export function useBrowser({ isolated = false } = {}) {
  const browser = {};
  let started = null;
  before(async () => {
    started = await (isolated ? startIsolatedBrowser() : startBrowser());
    Object.assign(browser, started);
  });
  if (isolated) afterEach(async () => { await started?.closePages(); });
  after(async () => { await started?.close(); });
  return browser;
}

/**
 * Waits until the page shows the translation of `text` (with optional
 * model/beam/prefix, and shortlist: 'on', 'off' or 'none' for a model without
 * one). On a timeout the error says what the page showed instead, and the
 * page's console errors.
 */
export async function waitForTranslation(page, text, { model, beam, prefix, shortlist } = {}) {
  const wanted = { text, model, beam, prefix, shortlist };
  try {
    await page.waitForFunction(({ text, model, beam, prefix, shortlist }) => {
      const output = document.querySelector('[data-testid="translation-output"]');
      const result = document.getElementById('result');
      return output && result?.dataset.state === 'ready' && output.dataset.text === text &&
        (model === undefined || output.dataset.model === model) &&
        (beam === undefined || output.dataset.beam === String(beam)) &&
        (prefix === undefined || output.dataset.prefix === prefix) &&
        (shortlist === undefined || output.dataset.shortlist === shortlist);
    }, wanted, { timeout: 30_000 });
  } catch (error) {
    const shown = await page.evaluate(() => {
      const output = document.querySelector('[data-testid="translation-output"]');
      return { state: document.getElementById('result')?.dataset.state, ...output?.dataset,
        error: document.querySelector('[data-testid="error"]')?.textContent.trim() };
    }).catch((reason) => `(not readable: ${reason.message})`);
    error.message += `\n  waiting for ${JSON.stringify(wanted)}\n  the page shows ${JSON.stringify(shown)}` +
      `\n  its problems: ${JSON.stringify(page.problems ?? [])}`;
    throw error;
  }
}

/** The heatmap's cells as { row, col, weight } and its size, read from the DOM. */
export async function readHeatmap(locator) {
  // A large matrix is drawn over a few frames; data-complete marks the end.
  await locator.and(locator.page().locator('[data-complete="true"]')).waitFor();
  return locator.evaluate((svg) => ({
    rows: Number(svg.dataset.rows),
    cols: Number(svg.dataset.cols),
    cells: [...svg.querySelectorAll('[data-row][data-col]')].map((cell) => ({
      row: Number(cell.dataset.row), col: Number(cell.dataset.col), weight: Number(cell.dataset.weight),
    })),
  }));
}
