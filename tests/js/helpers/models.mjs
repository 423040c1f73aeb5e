// Models for the JavaScript tests: the shipped ones when they exist, else
// tiny ones trained here with the native CLI in well under a second.
//
//   const { path, shipped } = await modelForTests();            // attention, en-fr
//   const { path } = await modelForTests({ attention: false }); // fixed-context baseline
//
// So the same tests run today on a tiny model and, once models/en-fr.s2s and
// models/en-fr-fixed.s2s are committed, on the models users get.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// S2S_CLI runs the tests against another native build (e.g. build/sanitize/seq2seq).
export const nativeCli = process.env.S2S_CLI ?? join(root, 'build', 'native', 'seq2seq');
export const distDir = join(root, 'dist');
export const distIndex = join(distDir, 'index.js');

const tinyData = join(root, 'tests', 'fixtures', 'tiny-en-fr.tsv');
const tinyFlags = [
  '--data', tinyData, '--min-frequency', '1', '--dropout', '0', '--embedding', '16', '--hidden', '32',
  '--decoder-hidden', '32', '--attention-size', '32', '--output-hidden', '32', '--batch-size', '8',
  '--learning-rate', '0.01', '--steps', '300', '--eval-every', '0', '--threads', '1',
];

let workDir;
const trained = new Map();

export const distDiagnostics = join(distDir, 'diagnostics.js');

// What dist/ holds: the emscripten output and a copy of every wrapper file of
// src/wasm/ (scripts/build-wasm.sh copies them all), so the list is read
// from src/wasm/ rather than written here.
function distFiles() {
  const wrapper = readdirSync(join(root, 'src', 'wasm')).filter((file) => /\.(js|d\.ts)$/.test(file));
  return [...wrapper, 's2s-core.js', 's2s-core.wasm'];
}

/** Throws a message naming the fix when the WASM build is missing or its wrapper differs from src/wasm/. */
export function requireDist() {
  for (const file of distFiles()) {
    if (!existsSync(join(distDir, file))) {
      throw new Error(`dist/${file} is missing; build the WebAssembly module first: npm run build:wasm`);
    }
    const source = join(root, 'src', 'wasm', file);
    if (existsSync(source) && !readFileSync(source).equals(readFileSync(join(distDir, file)))) {
      throw new Error(`dist/${file} differs from src/wasm/${file}; copy it there with npm run build:wasm`);
    }
  }
}

/** Copies dist/ (the whole translation package's code) into `folder`/dist, as a package's layout has it. */
export function copyDist(folder) {
  cpSync(distDir, join(folder, 'dist'), { recursive: true });
}

function trainTiny(attention) {
  if (!existsSync(nativeCli)) throw new Error(`${nativeCli} is missing; build it first: npm run build:native`);
  workDir ??= mkdtempSync(join(tmpdir(), 's2s-js-models-'));
  const output = join(workDir, `tiny-${attention}.s2s`);
  const r = spawnSync(nativeCli, ['train', ...tinyFlags, '--attention', attention, '--name', `tiny-${attention}`,
    '--checkpoint-dir', join(workDir, `checkpoints-${attention}`), '--output', output], { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`training the tiny test model failed: ${r.stderr}`);
  return output;
}

/**
 * The en-fr model the tests use: models/en-fr.s2s (or models/en-fr-fixed.s2s
 * with attention: false) when shipped, else a tiny model trained once per
 * process; S2S_TEST_MODEL overrides the attention model. Returns
 * { path, shipped, name }.
 */
export function modelForTests({ attention = true } = {}) {
  const name = attention ? 'en-fr' : 'en-fr-fixed';
  // S2S_TEST_MODEL runs the attention tests on any en-fr model file.
  if (attention && process.env.S2S_TEST_MODEL) return { path: process.env.S2S_TEST_MODEL, shipped: false, name };
  const shippedPath = join(root, 'models', `${name}.s2s`);
  if (existsSync(shippedPath)) return { path: shippedPath, shipped: true, name };
  const kind = attention ? 'additive' : 'none';
  if (!trained.has(kind)) trained.set(kind, trainTiny(kind));
  return { path: trained.get(kind), shipped: false, name };
}

/**
 * A tiny WORD-LEVEL model (every token a word; unknown words are <unk>),
 * trained once per process: the shipped models read subword pieces, and the
 * tests of word-level behaviour (files from before the subword models still
 * load and translate) need one. Returns its path.
 */
export function wordModelForTests({ attention = true } = {}) {
  const kind = attention ? 'additive' : 'none';
  if (!trained.has(kind)) trained.set(kind, trainTiny(kind));
  return trained.get(kind);
}

// A tiny SUBWORD model (BPE pieces, src/text/bpe.h): with 60 English and 80
// French entries, most of the fixture's words are several pieces ("learning"
// is ▁l e a r n i n g). Trained in well under a second; its translations are
// nonsense, which is all the tests of word spans need. The browser tests use
// the same command (tests/e2e/helpers.mjs).
export const SUBWORD_FIXTURE_FLAGS = [
  '--data', tinyData, '--dev-fraction', '0.1', '--source-pieces', '60', '--target-pieces', '80',
  '--embedding', '8', '--hidden', '8', '--decoder-hidden', '8', '--attention-size', '8', '--output-hidden', '8',
  '--steps', '30', '--eval-every', '0', '--threads', '1',
];

/** Trains the subword fixture into `output` (checkpoints in `checkpointDir`); throws with the CLI's message. */
export function trainSubwordFixture(output, checkpointDir) {
  if (!existsSync(nativeCli)) throw new Error(`${nativeCli} is missing; build it first: npm run build:native`);
  const r = spawnSync(nativeCli, ['train', ...SUBWORD_FIXTURE_FLAGS, '--name', 'tiny-subword', '--checkpoint-dir', checkpointDir,
    '--output', output], { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`training the subword test model failed: ${r.stderr}`);
  return output;
}

/** The subword fixture model's path, trained once per process. */
export function subwordModelForTests() {
  workDir ??= mkdtempSync(join(tmpdir(), 's2s-js-models-'));
  if (!trained.has('subword')) {
    trained.set('subword', trainSubwordFixture(join(workDir, 'tiny-subword.s2s'), join(workDir, 'checkpoints-subword')));
  }
  return trained.get('subword');
}

/** Removes the tiny models (call from an `after` hook). */
export function cleanUpModels() {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  workDir = undefined;
  trained.clear();
}

/** The distinct English sentences of a dev TSV (first column), in file order. */
export function devSentences(tsvText) {
  const seen = new Set();
  for (const line of tsvText.split('\n')) {
    const english = line.split('\t')[0].trim();
    if (english) seen.add(english);
  }
  return [...seen];
}

/** Largest |row sum - 1| of an attention matrix. */
export function worstRowSumError(attention) {
  let worst = 0;
  for (const row of attention) worst = Math.max(worst, Math.abs(row.reduce((a, b) => a + b, 0) - 1));
  return worst;
}
