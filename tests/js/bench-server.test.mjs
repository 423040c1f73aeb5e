// The benchmark page (bench/browser.html, bench/run.mjs in Chromium) gets
// every file it names from the bench's server (bench/server.mjs): its
// scripts, the modules they import, TF.js's UMD bundles and the .wasm files
// of TF.js's wasm backend (issue 47: the page server stopped serving
// node_modules/, and TF.js in Chromium failed with "Cannot read properties of
// undefined (reading 'wasm')"). No browser: the URLs are read from the page
// and its script, and fetched. node_modules/ itself stays unserved.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireDist, root } from './helpers/models.mjs';
import { startBenchServer } from '../../bench/server.mjs';

requireDist();
const skip = existsSync(join(root, 'node_modules', '@tensorflow', 'tfjs')) ? false : 'node_modules/@tensorflow/tfjs is missing (npm ci)';
let server;

before(async () => { server = await startBenchServer(); });
after(async () => { await server?.close(); });

const read = (file) => readFileSync(join(root, 'bench', file), 'utf8');

test('every script bench/browser.html loads, and every file bench/browser.mjs names, is served', { skip }, async () => {
  const html = read('browser.html');
  const script = read('browser.mjs');
  const urls = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map(([, src]) => new URL(src, `${server.origin}/bench/browser.html`).href);
  assert.ok(urls.some((u) => u.endsWith('/tf.min.js')) && urls.some((u) => u.endsWith('/tf-backend-wasm.min.js')), `the page loads TF.js and its wasm backend: ${urls}`);
  for (const [, path] of script.matchAll(/(?:from |import\()'(\.?\/[^']+)'/g)) urls.push(new URL(path, `${server.origin}/bench/browser.mjs`).href);
  const wasmPaths = /setWasmPaths\('([^']+)'\)/.exec(script)?.[1];
  assert.ok(wasmPaths, 'browser.mjs tells TF.js where its .wasm files are');
  for (const file of ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm']) urls.push(`${server.origin}${wasmPaths}${file}`);
  const missing = [];
  for (const url of urls) {
    const response = await fetch(url, { method: 'HEAD' });
    if (response.status !== 200) missing.push(`${response.status} ${url}`);
  }
  assert.deepEqual(missing, []);
});

test('node_modules/ is not served, under the bench server either', async () => {
  const response = await fetch(`${server.origin}/node_modules/@tensorflow/tfjs/package.json`, { method: 'HEAD' });
  assert.equal(response.status, 404);
});
