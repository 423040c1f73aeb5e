// createTrainerWorker where the package's users put it: a small app that
// imports it from 'seq2seq-attention/trainer-worker', installed from the
// packed tarball and built by each bundler the README names (Vite build,
// webpack 5, Rollup with @web/rollup-plugin-import-meta-assets, esbuild
// with the README's `cp` step; helpers/bundled-app.mjs), then run in
// Debian's Chromium. Each app must train in a Web Worker (trainer.backend
// 'worker', never the page's thread), stop exactly at the step it asked
// for, and answer its probe and a translation; the worker Chromium started
// must be a file of the bundler's output, served with 200, and no request
// of the page or its worker may fail. And the app carries the trainer only:
// no translation runtime (s2s-core.wasm, under any name) in its output, and
// no mention of s2s-core in its worker or any of its scripts (the Vite dev
// server: in the worker it serves). Each output's files and sizes are
// reported (t.diagnostic). tests/js/bundlers.test.mjs does the same for the
// translator (createTranslator).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from './helpers/chromium.mjs';
import { requireDist } from './helpers/models.mjs';
import { serveFolder } from './helpers/static-server.mjs';
import { builders, packedApp } from './helpers/bundled-app.mjs';

requireDist();
const UNTIL = 20;          // the step the app trains to (of a 40-step schedule)
const PROBE = 'a b c d';   // probed at creation and every 10 steps
const TEXT = 'a b c d e';  // translated once the run stops
let work;
let app;
let chromium;

// The app: the README's createTrainerWorker lines on the reversal task; what
// it saw, on the page as JSON.
const MAIN = `import { createTrainerWorker } from 'seq2seq-attention/trainer-worker';

const summary = (r) => ({ sourceTokens: r.sourceTokens, targetTokens: r.targetTokens, rowSums: r.attention.map((row) => row.reduce((a, b) => a + b, 0)) });

async function main() {
  const out = document.getElementById('out');
  try {
    const probes = [];
    const progress = [];
    const trainer = await createTrainerWorker({ task: 'reversal', steps: 40 }, {
      probe: ${JSON.stringify(PROBE)}, probeEvery: 10, onProgress: (p) => progress.push(p.steps),
      onProbe: (p) => probes.push({ steps: p.steps, text: p.text, error: p.error?.message, ...(p.result ? summary(p.result) : {}) }),
    });
    const state = await trainer.run({ until: ${UNTIL} });
    const answer = summary(await trainer.translate(${JSON.stringify(TEXT)}));
    const backend = trainer.backend;
    await trainer.dispose();
    out.textContent = JSON.stringify({ backend, state, progress, probes, answer });
    out.dataset.state = 'done';
  } catch (error) {
    out.textContent = String(error?.stack ?? error);
    out.dataset.state = 'error';
  }
}
main();
`;
const page = (script) => `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>app</title></head>
<body><p id="out" data-state="training">training…</p><script type="module" src="${script}"></script></body></html>
`;

before(() => {
  work = mkdtempSync(join(tmpdir(), 's2s-bundlers-trainer-'));
  app = packedApp(work, { 'src/main.js': MAIN, 'index.html': page('/src/main.js') });
});

after(async () => {
  await chromium?.close();
  rmSync(work, { recursive: true, force: true });
});

// Opens the app at `url` in Chromium; resolves to what the app reported,
// the workers the page started (their URLs, and the status and text a
// second fetch of each gets), and the problems seen (page errors, console errors and
// warnings, responses of 400 and over).
async function trainIn(url) {
  chromium ??= await launchChromium();
  const context = await chromium.browser.newContext();
  const tab = await context.newPage();
  const problems = [];
  const workers = [];
  tab.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  tab.on('console', (message) => { if (['error', 'warning'].includes(message.type())) problems.push(`console: ${message.text()}`); });
  tab.on('worker', (worker) => workers.push(worker.url()));
  // Requests of the page and (in Chromium) of its dedicated workers.
  context.on('response', (response) => { if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`); });
  try {
    await tab.goto(url);
    await tab.waitForFunction(() => document.getElementById('out')?.dataset.state !== 'training', null, { timeout: 120_000 });
    const out = tab.locator('#out');
    const state = await out.getAttribute('data-state');
    const text = await out.textContent();
    const served = [];
    for (const worker of workers) {
      const response = await fetch(worker);
      served.push({ url: worker, path: new URL(worker).pathname, status: response.status, source: await response.text() });
    }
    return { state, text, report: state === 'done' ? JSON.parse(text) : null, workers: served, problems };
  } finally {
    await context.close();
  }
}

// (a) in a worker, (b) trained to the step asked for, with its probe and a
// translation answered, (c) the one worker started is served (200).
function assertTrainedInWorker({ state, text, report, workers, problems }, bundler) {
  assert.equal(state, 'done', text);
  assert.deepEqual(problems, [], `${bundler}: no failed request, page error or console warning (a fallback warns)`);
  assert.equal(report.backend, 'worker', `${bundler}: createTrainerWorker trains in a Web Worker, not on the page's thread`);
  assert.deepEqual(report.state, { running: false, finished: false, steps: UNTIL }, `${bundler}: run({ until: ${UNTIL} }) stops exactly there`);
  assert.deepEqual(report.progress, [5, 10, 15, 20], 'progress after every chunk of 5 steps');
  assert.deepEqual(report.probes.map((p) => p.steps), [0, 10, 20], 'the probe at creation and every 10 steps');
  for (const probe of report.probes) {
    assert.equal(probe.error, undefined, `the probe at step ${probe.steps} was answered`);
    assert.equal(probe.text, PROBE);
    assert.deepEqual(probe.sourceTokens, [...PROBE.split(' '), '<eos>']);
    assert.ok(probe.targetTokens.length > 0, `the probe at step ${probe.steps} has an output`);
    assert.equal(probe.rowSums.length, probe.targetTokens.length, 'one attention row per output token');
  }
  const { answer } = report;
  assert.deepEqual(answer.sourceTokens, [...TEXT.split(' '), '<eos>']);
  assert.ok(answer.targetTokens.length > 0, 'the translation has an output');
  assert.equal(answer.rowSums.length, answer.targetTokens.length);
  assert.ok(answer.rowSums.every((sum) => Math.abs(sum - 1) < 1e-4), `each attention row sums to 1: ${answer.rowSums}`);
  assert.equal(workers.length, 1, `${bundler}: one worker started: ${workers.map((w) => w.url)}`);
  assert.equal(workers[0].status, 200, `${bundler}: the worker ${workers[0].url} is served`);
  assert.ok(!workers[0].source.includes('s2s-core'),
    `${bundler}: the training worker ${workers[0].path} mentions s2s-core (the translation runtime's glue or .wasm): trainer.js imports it`);
}

// The package's file `name` (dist/), as the app installed it.
const packageFile = (name) => readFileSync(join(app, 'node_modules', 'seq2seq-attention', 'dist', name));

// A trainer-only app's output holds no translation runtime: no file named
// s2s-core, none with s2s-core.wasm's bytes (webpack names assets by hash),
// no script that mentions it (its glue, or its URL in the chunk of the
// { worker: false } fallback), and its only WebAssembly is s2s-train.wasm.
function assertNoTranslationRuntime(outDir, bundler) {
  const files = filesIn(outDir).filter((f) => statSync(join(outDir, f)).isFile());
  const core = packageFile('s2s-core.wasm');
  const train = packageFile('s2s-train.wasm');
  const sameBytes = (f, bytes) => statSync(join(outDir, f)).size === bytes.length && readFileSync(join(outDir, f)).equals(bytes);
  assert.deepEqual(files.filter((f) => f.includes('s2s-core') || sameBytes(f, core)), [], `${bundler}: s2s-core.wasm in a trainer-only app's output`);
  const mentions = files.filter((f) => /\.(js|html)$/.test(f) && readFileSync(join(outDir, f), 'utf8').includes('s2s-core'));
  assert.deepEqual(mentions, [], `${bundler}: scripts of a trainer-only app that mention s2s-core`);
  const wasm = files.filter((f) => f.endsWith('.wasm'));
  assert.ok(wasm.length >= 1 && wasm.every((f) => sameBytes(f, train)), `${bundler}: the output's only WebAssembly is s2s-train.wasm: ${wasm}`);
}

// Builds the app with `bundler` (or runs `build`), serves the output and
// trains in it; the worker must be a file of the output.
async function buildAndTrain(t, bundler, build = (outDir) => builders[bundler](app, outDir, page('main.js'))) {
  const outDir = join(work, `out-${bundler}`);
  const warnings = await build(outDir);
  t.diagnostic(`${bundler} warnings: ${warnings.length ? warnings.join(' | ') : 'none'}`);
  t.diagnostic(`${bundler} output: ${sizes(outDir)}`);
  const server = await serveFolder(outDir);
  let result;
  try {
    result = await trainIn(`${server.url}/`);
  } finally {
    await server.close();
  }
  t.diagnostic(`${bundler}: backend ${result.report?.backend}, steps ${result.report?.state.steps}, worker ${result.workers.map((w) => `${w.path} (${w.status})`)}`);
  assertTrainedInWorker(result, bundler);
  const [worker] = result.workers;
  assert.ok(existsSync(join(outDir, decodeURIComponent(worker.path))), `${bundler}: the worker ${worker.path} is a file of the output (${filesIn(outDir)})`);
  assertNoTranslationRuntime(outDir, bundler);
  return { result, warnings };
}

function filesIn(folder) {
  return readdirSync(folder, { recursive: true }).map(String).sort();
}

// The output's total size and each file's: "N bytes in K files: a (n), ...".
function sizes(folder) {
  const files = filesIn(folder).map((f) => [f, statSync(join(folder, f))]).filter(([, stat]) => stat.isFile());
  const total = files.reduce((sum, [, stat]) => sum + stat.size, 0);
  return `${total} bytes in ${files.length} files: ${files.map(([f, stat]) => `${f} (${stat.size})`).join(', ')}`;
}

test('Vite build: the app trains in the worker Vite bundled', async (t) => {
  await buildAndTrain(t, 'vite');
});

test('webpack 5: the app trains in the worker webpack bundled, with no warning', async (t) => {
  const { warnings } = await buildAndTrain(t, 'webpack');
  assert.deepEqual(warnings, [], 'webpack warns about nothing of the package');
});

test('Rollup with @web/rollup-plugin-import-meta-assets: the app trains in the one-file worker Rollup copied', async (t) => {
  const { result } = await buildAndTrain(t, 'rollup');
  assert.match(result.workers[0].path, /training-worker\.bundle.*\.js$/);
});

test("esbuild with the README's step for the trainer: the app trains in the one-file worker the step copied", async (t) => {
  const { result } = await buildAndTrain(t, 'esbuild', (outDir) => builders.esbuild(app, outDir, page('main.js'), 'trains with `createTrainerWorker`'));
  assert.equal(result.workers[0].path, '/training-worker.bundle.js');
});

test('Vite dev server: the app trains in a worker, with no configuration', async (t) => {
  const { createServer } = await import('vite');
  const server = await createServer({ root: app, logLevel: 'silent', configFile: false, server: { port: 0, host: '127.0.0.1' } });
  try {
    await server.listen();
    const result = await trainIn(server.resolvedUrls.local[0]);
    t.diagnostic(`vite dev: backend ${result.report?.backend}, worker ${result.workers.map((w) => `${w.path} (${w.status})`)}`);
    assertTrainedInWorker(result, 'vite dev');
    assert.match(result.workers[0].path, /\/seq2seq-attention\/dist\/training-worker\.bundle\.js$/, 'the package\'s worker, served from node_modules');
  } finally {
    await server.close();
  }
});
