// The npm package where its users put it: one small app, installed from the
// packed tarball as `npm install` would, built by each bundler (Vite build
// and dev server, webpack 5, Rollup with @web/rollup-plugin-import-meta-assets,
// esbuild with the README's one step) and run in Chromium; and a vitest test
// under jsdom. Nothing is copied by hand, except esbuild's documented step
// (helpers/bundled-app.mjs builds; bundlers-trainer.test.mjs: the trainer).
// Each bundle's size is reported (t.diagnostic); Vite's app that loads en-fr
// weighs en-fr.s2s, s2s-core.wasm and at most 150 kB more, so no other model or the trainer rides along.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from './helpers/chromium.mjs';
import { requireDist, root } from './helpers/models.mjs';
import { serveFolder } from './helpers/static-server.mjs';
import { builders, packedApp, run } from './helpers/bundled-app.mjs';

requireDist();
const SENTENCE = 'The cat is sleeping.';
let work;
let app;        // the app's folder: package.json, index.html, src/, node_modules/seq2seq-attention from the tarball
let chromium;

// What the app does: the README's "In a bundler" lines, and the result on the page.
const MAIN = `import { createTranslator, loadModel } from 'seq2seq-attention';
import enFr from 'seq2seq-attention/models/en-fr';

async function main() {
  const out = document.getElementById('out');
  try {
    const model = await loadModel(enFr);
    const result = model.translate(${JSON.stringify(SENTENCE)}, { beamSize: 4 });
    model.dispose();
    // And off the main thread: the package's worker, bundled too.
    const translator = await createTranslator(enFr);
    const inWorker = await translator.translate(${JSON.stringify(SENTENCE)}, { beamSize: 4 });
    await translator.dispose();
    if (inWorker.text !== result.text) throw new Error('the worker wrote ' + inWorker.text + ', the main thread ' + result.text);
    out.dataset.backend = translator.backend;
    out.textContent = result.text;
    out.dataset.tokens = String(result.targetTokens.length);
    out.dataset.state = 'done';
  } catch (error) {
    out.textContent = error.message;
    out.dataset.state = 'error';
  }
}
main();
`;
const page = (script) => `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>app</title></head>
<body><p id="out" data-state="translating">translating…</p><script type="module" src="${script}"></script></body></html>
`;

before(() => {
  work = mkdtempSync(join(tmpdir(), 's2s-bundlers-'));
  app = packedApp(work, { 'src/main.js': MAIN, 'index.html': page('/src/main.js') });
});

after(async () => {
  await chromium?.close();
  rmSync(work, { recursive: true, force: true });
});

function folderBytes(folder) {
  let total = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath ?? entry.path, entry.name)).size;
  }
  return total;
}

function filesIn(folder) {
  return readdirSync(folder, { recursive: true }).map(String).sort();
}

// Opens `url` in Chromium; resolves to the app's result: { state, text, tokens, problems }.
async function translateIn(url) {
  chromium ??= await launchChromium();
  const tab = await chromium.browser.newPage();
  const problems = [];
  tab.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  tab.on('console', (message) => { if (['error', 'warning'].includes(message.type())) problems.push(`console: ${message.text()}`); });
  try {
    await tab.goto(url);
    await tab.waitForFunction(() => document.getElementById('out')?.dataset.state !== 'translating', null, { timeout: 90_000 });
    const out = tab.locator('#out');
    return {
      state: await out.getAttribute('data-state'), text: await out.textContent(), tokens: Number(await out.getAttribute('data-tokens')),
      backend: await out.getAttribute('data-backend'), problems,
    };
  } finally {
    await tab.close();
  }
}

function assertTranslated(result) {
  assert.equal(result.state, 'done', result.text);
  assert.ok(result.tokens > 1, `a translation: ${result.text}`);
  assert.match(result.text, /chat/i, 'the cat is a chat');
  assert.deepEqual(result.problems, []);
}

async function served(folder, t, what) {
  const bytes = folderBytes(folder);
  t.diagnostic(`${what}: ${(bytes / 1e6).toFixed(2)} MB in ${filesIn(folder).length} files (${filesIn(folder).join(', ')})`);
  const server = await serveFolder(folder);
  try {
    return { result: await translateIn(`${server.url}/`), bytes };
  } finally {
    await server.close();
  }
}

// What a Vite app that translates with en-fr may weigh: the model and the
// translation runtime as they are, the worker's one-file bundle (copied
// as an asset: the fallback worker, which a Vite app never fetches), and
// 150 kB of JavaScript and HTML (about 100 kB today). Another model (3 MB)
// or the trainer's runtime (0.7 MB) would not fit.
const viteLimit = () => statSync(join(root, 'models', 'en-fr.s2s')).size + statSync(join(root, 'dist', 's2s-core.wasm')).size +
  statSync(join(root, 'dist', 'model-worker.bundle.js')).size + 150e3;

test('Vite build: the app translates in Chromium; only en-fr and the translation runtime are in the output (and 150 kB of code)', async (t) => {
  const outDir = join(work, 'out-vite');
  await builders.vite(app, outDir);
  const { result, bytes } = await served(outDir, t, 'vite build');
  assertTranslated(result);
  assert.equal(result.backend, 'worker', 'createTranslator runs in the worker Vite bundled');
  const files = filesIn(outDir);
  assert.equal(files.filter((f) => f.endsWith('.s2s')).length, 1, `one model file: ${files}`);
  assert.equal(files.filter((f) => f.endsWith('.wasm')).length, 1, `one wasm (not the trainer's): ${files}`);
  assert.ok(bytes <= viteLimit(), `${bytes} bytes, over en-fr.s2s + s2s-core.wasm + model-worker.bundle.js + 150 kB (${viteLimit()})`);
});

test('Vite dev server: the app translates in Chromium, with no configuration', async (t) => {
  const { createServer } = await import('vite');
  const server = await createServer({ root: app, logLevel: 'silent', configFile: false, server: { port: 0, host: '127.0.0.1' } });
  try {
    await server.listen();
    const url = server.resolvedUrls.local[0];
    t.diagnostic(`vite dev at ${url}`);
    const result = await translateIn(url);
    assertTranslated(result);
    assert.equal(result.backend, 'worker', 'createTranslator runs in the package\'s worker, served by the dev server');
  } finally {
    await server.close();
  }
});

test('webpack 5: the app translates in Chromium', async (t) => {
  const outDir = join(work, 'out-webpack');
  const warnings = await builders.webpack(app, outDir, page('main.js'));
  assert.deepEqual(warnings, [], 'webpack warns about the package');
  const { result } = await served(outDir, t, 'webpack');
  assertTranslated(result);
  assert.equal(result.backend, 'worker', 'createTranslator runs in the worker webpack bundled');
});

test('Rollup with @web/rollup-plugin-import-meta-assets: the app translates in Chromium, off the main thread', async (t) => {
  const outDir = join(work, 'out-rollup');
  const warnings = await builders.rollup(app, outDir, page('main.js'));
  t.diagnostic(`rollup warnings: ${warnings.length ? warnings.join(' | ') : 'none'}`);
  const { result } = await served(outDir, t, 'rollup');
  assertTranslated(result);
  // The plugin copies the one-file worker, model-worker.bundle.js, whole.
  assert.equal(result.backend, 'worker', 'createTranslator runs in the one-file worker Rollup copied');
});

test("esbuild with the README's one step (copy the .wasm, the worker bundle and the model next to the bundle): the app translates in Chromium, off the main thread", async (t) => {
  // The build, then the README's step, run as written (from the app's folder, the bundle in out-esbuild/).
  const outDir = join(work, 'out-esbuild');
  await builders.esbuild(app, outDir, page('main.js'));
  const { result } = await served(outDir, t, 'esbuild');
  assertTranslated(result);
  assert.equal(result.backend, 'worker', 'createTranslator runs in the one-file worker the README\'s step copied');
});

test('vitest under jsdom: loadModel by name, by the model module and by bytes', async (t) => {
  mkdirSync(join(app, 'test'), { recursive: true });
  writeFileSync(join(app, 'test', 'translate.test.js'), `// @vitest-environment jsdom
import { expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { loadModel } from 'seq2seq-attention';
import enFr from 'seq2seq-attention/models/en-fr';

test('translates under jsdom', async () => {
  expect(typeof window).toBe('object');
  const byName = await loadModel('en-fr');
  const byUrl = await loadModel(enFr);
  const byBytes = await loadModel(await readFile(enFr));
  const texts = [byName, byUrl, byBytes].map((m) => m.translate(${JSON.stringify(SENTENCE)}).text);
  expect(texts[0]).toMatch(/chat/i);
  expect(texts[1]).toBe(texts[0]);
  expect(texts[2]).toBe(texts[0]);
  for (const m of [byName, byUrl, byBytes]) m.dispose();
}, 60000);
`);
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  // Vite's build() above set NODE_ENV=production in this process; vitest
  // runs as a user's would, with its own (test).
  const { NODE_ENV, ...env } = process.env;
  const r = run(process.execPath, [vitest, 'run', '--root', app, '--environment', 'jsdom', '--reporter', 'verbose'], { cwd: app, env: { ...env, CI: '1', NO_COLOR: '1' } });
  t.diagnostic(r.out.split('\n').filter((line) => /✓|×|Tests|FAIL/.test(line)).join(' | '));
  assert.equal(r.code, 0, `${r.out}\n${r.err}`);
  assert.match(r.out, /1 passed/);
});

test('the package exports its assets: models, the .wasm files and web/ resolve by name', () => {
  const check = `
    import { createRequire } from 'node:module';
    const require = createRequire(import.meta.url);
    const paths = ['seq2seq-attention/models/en-fr.s2s', 'seq2seq-attention/dist/s2s-core.wasm', 'seq2seq-attention/web/embed.js'];
    const url = (await import('seq2seq-attention/models/en-fr')).default;
    console.log(JSON.stringify({ resolved: paths.map((p) => import.meta.resolve(p)), url: url.href }));`;
  const r = run(process.execPath, ['--input-type=module', '-e', check], { cwd: app });
  assert.equal(r.code, 0, r.err);
  const { resolved, url } = JSON.parse(r.out);
  for (const file of resolved) assert.ok(existsSync(new URL(file)), `${file} exists`);
  assert.match(url, /node_modules\/seq2seq-attention\/models\/en-fr\.s2s$/);
});
