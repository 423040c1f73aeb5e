// The demo page's start script, web/demo/page-boot.js, is built from
// web/demo/boot.src.js by scripts/write-page-boot.mjs with two lists taken from
// their owners: the models the page offers (web/figures/page-model-list.js over the
// package's data)
// and its start-up modules (the import graph of web/demo/app.js and of the
// package modules its start-up modules load). Checked here: the built file
// is the source with the current lists (a stale build would preload the
// wrong modules), and the graph walker finds nested imports. That the page
// really fetches nothing at start that the list lacks is checked in Chromium
// (tests/e2e/cold-start.test.mjs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { importGraph, startUpModules } from '../../scripts/write-page-boot.mjs';
import { distDir, requireDist, root } from './helpers/models.mjs';

requireDist();
const web = join(root, 'web');
const data = await import(pathToFileURL(join(distDir, 'data.js')).href);
const { defaultModel, modelCatalog, shippedModels } = data;
const pageModels = (await import(pathToFileURL(join(web, 'figures', 'page-model-list.js')).href)).pageModels(data);

// The list that follows `marker` in `text` (a JS array literal of strings).
function listAfter(text, pattern) {
  const match = text.match(pattern);
  assert.ok(match, `web/demo/page-boot.js: ${pattern} not found`);
  return [...match[1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
}

test('web/demo/page-boot.js is web/demo/boot.src.js with the current lists (else: npm run build:wasm)', () => {
  const built = readFileSync(join(web, 'demo', 'page-boot.js'), 'utf8');
  const source = readFileSync(join(web, 'demo', 'boot.src.js'), 'utf8');
  assert.deepEqual(listAfter(built, /var PAGE_MODELS = (\[[^\]]*\]);/), [...pageModels]);
  const preload = listAfter(built, /(\[[^\]]*\])\.forEach\(function \(href\)/);
  assert.deepEqual(preload, startUpModules(distDir));
  assert.equal(new Set(preload).size, preload.length, 'a module is listed twice');
  // Everything else is the source as it is.
  const unfilled = built.replace(/^\/\/ Built by .*\n/, '')
    .replace(/var PAGE_MODELS = \[[^\]]*\];/, 'var PAGE_MODELS = /*@PAGE_MODELS*/[];')
    .replace(/\[[^\]]*\]\.forEach\(function \(href\)/, '/*@PRELOAD*/[].forEach(function (href)');
  assert.equal(unfilled, source);
});

test('the page offers the models with attention, the default first', () => {
  assert.equal(pageModels[0], defaultModel);
  assert.deepEqual([...pageModels].sort(), shippedModels.filter((name) => !modelCatalog[name].baselineOf).sort());
});

test('the start-up modules include the page, its translator and the package modules it loads at once', () => {
  const modules = startUpModules(distDir);
  for (const file of ['demo/page-state.js', 'figures/dom.js', 'figures/translator.js', 'figures/i18n/zh-CN.js', '../dist/translator.js', '../dist/data.js', '../dist/models.js', '../dist/platform.js']) {
    assert.ok(modules.includes(file), `${file} in ${modules}`);
  }
  // Not the runtimes or their glue: the model runs in the worker.
  for (const file of ['../dist/s2s-core.js', '../dist/runtime.js', '../dist/wasm-common.js', '../dist/load-model.js']) assert.ok(!modules.includes(file), file);
});

test('the import graph walker finds nested imports (it can fail)', () => {
  // heatmap.js imports dom.js and i18n/index.js, which imports its tables.
  const graph = [...importGraph(join(web, 'figures', 'heatmap.js'))].map((file) => relative(web, file));
  assert.ok(graph.includes(join('figures', 'dom.js')));
  assert.ok(graph.includes(join('figures', 'i18n', 'en.js')));
});
