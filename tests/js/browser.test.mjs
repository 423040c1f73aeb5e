// The package in a browser (Debian's Chromium via playwright-core):
//   1. the plain ES module from <script type="module">, with no bundler:
//      loads a shipped model by name relative to the module's URL, from bytes
//      and from a relative URL, throws Errors and keeps working, and runs
//      in a module worker too;
//   2. a five-line app bundled with esbuild.
// Both must give exactly the result Node gives (the same WASM, the same model).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { cleanUpModels, copyDist, distDir, distIndex, modelForTests, requireDist, root } from './helpers/models.mjs';
import { serveFolder } from './helpers/static-server.mjs';
import { launchChromium } from './helpers/chromium.mjs';
import { readmeExample } from './helpers/readme.mjs';

requireDist();
const SENTENCE = 'I see the cat.';
const OPTIONS = { beamSize: 2 };
let work;
let site;       // the served folder: dist/, models/, plain/, app/
let server;
let chromium;
let expected;   // the result in Node

before(async () => {
  const { path } = modelForTests();
  const { loadModel } = await import(pathToFileURL(distIndex).href);
  const model = await loadModel(path);
  expected = JSON.parse(JSON.stringify(model.translate(SENTENCE, OPTIONS)));  // as the pages below hand it back
  model.dispose();

  // The package's layout: dist/ next to models/ (the test model as en-fr).
  work = mkdtempSync(join(tmpdir(), 's2s-browser-'));
  site = join(work, 'site');
  for (const folder of ['models', 'plain', 'app']) mkdirSync(join(site, folder), { recursive: true });
  copyDist(site);
  copyFileSync(path, join(site, 'models', 'en-fr.s2s'));

  server = await serveFolder(site);
  chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
  cleanUpModels();
});

// Opens `url` and waits for the page to set window.__result.
async function resultOf(url) {
  const page = await chromium.browser.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
  try {
    await page.goto(url);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
    const result = await page.evaluate(() => window.__result);
    assert.equal(result.error, undefined, result.error);
    return { result, problems };
  } finally {
    await page.close();
  }
}

test('the plain ES module works from <script type="module"> and in a module worker', async () => {
  writeFileSync(join(site, 'plain', 'worker.js'), `
import { loadModel, translationBuffer } from '../dist/index.js';
const model = await loadModel('en-fr');
const result = model.translate(${JSON.stringify(SENTENCE)}, ${JSON.stringify(OPTIONS)});
postMessage(result, [translationBuffer(result)]);  // the matrices move, not copied
model.dispose();
`);
  writeFileSync(join(site, 'plain', 'index.html'), `<!doctype html>
<meta charset="utf-8">
<script type="module">
import { loadModel, reviveTranslation } from '../dist/index.js';
try {
  const model = await loadModel('en-fr');  // ../models/en-fr.s2s relative to dist/index.js
  const byName = model.translate(${JSON.stringify(SENTENCE)}, ${JSON.stringify(OPTIONS)});
  const errors = [];
  for (const bad of [null, 42, { text: 'x' }]) {
    try { model.translate(bad); errors.push('no error'); } catch (e) { errors.push(e instanceof Error ? e.message : 'not an Error: ' + e); }
  }
  try { model.translate('x', { beamSize: 99 }); } catch (e) { errors.push(e.message); }
  const afterErrors = model.translate(${JSON.stringify(SENTENCE)}, ${JSON.stringify(OPTIONS)});
  model.dispose();
  let disposed = '';
  try { model.translate('x'); } catch (e) { disposed = e.message; }

  const bytes = await (await fetch('../models/en-fr.s2s')).arrayBuffer();
  const fromBytes = await loadModel(bytes);
  const byBytes = fromBytes.translate(${JSON.stringify(SENTENCE)}, ${JSON.stringify(OPTIONS)});
  fromBytes.dispose();
  const fromUrl = await loadModel('../models/en-fr.s2s');  // relative to the page
  const byUrl = fromUrl.translate(${JSON.stringify(SENTENCE)}, ${JSON.stringify(OPTIONS)});
  fromUrl.dispose();
  let missing = '';
  try { await loadModel('en-zh'); } catch (e) { missing = e.message; }

  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  const inWorker = await new Promise((resolve, reject) => {
    worker.onmessage = (event) => resolve(reviveTranslation(event.data));
    worker.onerror = (event) => reject(new Error('worker: ' + event.message));
  });
  window.__result = JSON.parse(JSON.stringify({ byName, errors, afterErrors, disposed, byBytes, byUrl, missing, inWorker, info: model.info }));
} catch (e) {
  window.__result = { error: String(e && e.stack || e) };
}
</script>`);
  const { result, problems } = await resultOf(`${server.url}/plain/`);
  assert.deepEqual(result.byName, expected, 'same result as in Node');
  assert.deepEqual(result.afterErrors, expected, 'still works after errors');
  assert.deepEqual(result.byBytes, expected);
  assert.deepEqual(result.byUrl, expected);
  assert.deepEqual(result.inWorker, expected, 'same result in a module worker');
  assert.match(result.errors[0], /text must be a string, but got null/);
  assert.match(result.errors[1], /text must be a string, but got the number 42/);
  assert.match(result.errors[2], /text must be a string, but got an object/);
  assert.match(result.errors[3], /beamSize must be a whole number from 1 to 16/);
  assert.match(result.disposed, /disposed/);
  assert.match(result.missing, /the model 'en-zh' is not at http:.*\/models\/en-zh\.s2s; .*import url from 'seq2seq-attention\/models\/en-zh'/);
  assert.equal(result.info.name, 'en-fr');
  // fetch() of the missing model logs a 404 in the console; nothing else may go wrong.
  assert.deepEqual(problems.filter((p) => !/404/.test(p)), []);
});

test('a five-line app bundled with esbuild runs in Chromium', async (t) => {
  // The app's own folder, with the package under node_modules as npm would
  // put it (a link to this repository, resolved through its exports map).
  const source = join(work, 'app-source');
  mkdirSync(join(source, 'node_modules'), { recursive: true });
  symlinkSync(root, join(source, 'node_modules', 'seq2seq-attention'), 'dir');
  writeFileSync(join(source, 'app.js'), `import { loadModel } from 'seq2seq-attention';
const model = await loadModel('en-fr');
const result = model.translate(${JSON.stringify(SENTENCE)}, ${JSON.stringify(OPTIONS)});
window.__result = result.toJSON();
model.dispose();
`);
  assert.equal(readFileSync(join(source, 'app.js'), 'utf8').trim().split('\n').length, 5, 'five lines');
  const bundled = await build({
    entryPoints: [join(source, 'app.js')], bundle: true, format: 'esm', platform: 'browser', target: 'es2022',
    outfile: join(site, 'app', 'bundle.js'), logLevel: 'silent', metafile: true,
  });
  assert.deepEqual(bundled.errors, []);
  t.diagnostic(`bundle: ${Object.values(bundled.metafile.outputs)[0].bytes} bytes; esbuild warnings: ${bundled.warnings.length}`);
  // esbuild does not copy the .wasm: it goes next to the bundle, which is
  // where the glue looks for it (relative to import.meta.url).
  copyFileSync(join(distDir, 's2s-core.wasm'), join(site, 'app', 's2s-core.wasm'));
  writeFileSync(join(site, 'app', 'index.html'), '<!doctype html><meta charset="utf-8"><script type="module" src="bundle.js"></script>');
  const { result, problems } = await resultOf(`${server.url}/app/`);
  assert.deepEqual(result, expected, 'same result as in Node');
  assert.deepEqual(problems, []);
});

test("the README's web page example runs as written", async () => {
  // The page sits next to dist/ and models/, as the README says.
  writeFileSync(join(site, 'index.html'), readmeExample('html'));
  const page = await chromium.browser.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  try {
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => document.getElementById('out').textContent !== 'translating…', null, { timeout: 60_000 });
    const text = await page.textContent('#out');
    assert.deepEqual(problems, []);
    assert.ok(text.length > 0);
  } finally {
    await page.close();
  }
});
