// web/index.html asks for the page's modules at once (modulepreload links
// that its start script adds). That list is written by hand, so this test
// keeps it equal to what the page imports on start: the static import graph
// of web/app.js, and the package modules (dist/) that app.js and
// page-models.js import with loadPackage('NAME') as it starts, with their own
// imports. A module missing from the list is fetched only after the module
// that imports it (a slower first load); one no longer imported is a wasted
// request.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { root } from './helpers/models.mjs';

const web = join(root, 'web');

// Static imports only (`import ... from './x.js'`, `import './x.js'`,
// `export ... from './x.js'`); dynamic import() is loaded when used.
function staticImports(file) {
  const body = readFileSync(file, 'utf8');
  const specifiers = [];
  for (const [, spec] of body.matchAll(/^\s*(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]/gm)) specifiers.push(spec);
  for (const [, spec] of body.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) specifiers.push(spec);
  return specifiers.filter((spec) => spec.startsWith('.')).map((spec) => join(dirname(file), spec));
}

function importGraph(entry) {
  const seen = new Set();
  const pending = [entry];
  while (pending.length) {
    const file = pending.pop();
    for (const dep of staticImports(file)) {
      if (seen.has(dep)) continue;
      seen.add(dep);
      pending.push(dep);
    }
  }
  return seen;
}

function preloadList() {
  const html = readFileSync(join(web, 'index.html'), 'utf8');
  const block = html.match(/\[('dom\.js'[\s\S]*?)\]\.forEach\(function \(href\)/);
  assert.ok(block, "web/index.html: the start script's modulepreload list was not found");
  return [...block[1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
}

// dist/NAME for each loadPackage('NAME', ...) in the page's start-up modules
// (translator.js: the first translation needs createTranslator at once).
function startPackages() {
  const names = new Set();
  for (const file of ['app.js', 'page-models.js', 'translator.js']) {
    const body = readFileSync(join(web, file), 'utf8');
    for (const [, name] of body.matchAll(/loadPackage\(\s*'([^']+)'/g)) names.add(name);
  }
  return [...names].map((name) => join(root, 'dist', name));
}

test("the page's modulepreload list is exactly what it imports on start", () => {
  const listed = preloadList();
  assert.equal(new Set(listed).size, listed.length, 'a module is listed twice');
  const files = new Set(importGraph(join(web, 'app.js')));
  for (const entry of startPackages()) {
    files.add(entry);
    for (const dep of importGraph(entry)) files.add(dep);
  }
  const graph = [...files].map((file) => relative(web, file).replace(/\\/g, '/'));
  assert.deepEqual([...listed].sort(), graph.sort(),
    'update the list in web/index.html (the modulepreload links) to the modules that web/app.js imports');
});

test('the import graph walker finds nested imports (it can fail)', () => {
  // heatmap.js imports dom.js and i18n/index.js, which imports its tables.
  const graph = [...importGraph(join(web, 'heatmap.js'))].map((file) => relative(web, file));
  assert.ok(graph.includes('dom.js'));
  assert.ok(graph.includes(join('i18n', 'en.js')));
});
