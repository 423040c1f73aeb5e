// The element's pure parts, in Node: its attribute table
// (web/embed/embed-attributes.js: each value read, or named with what is shown
// instead) and the policy reading of web/embed/load-problem.js (which directive
// decided, what to add). The browser's side is tests/e2e/embed-options.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './helpers/models.mjs';

const web = (file) => import(pathToFileURL(join(root, 'web', file)).href);
const { ATTRIBUTES, readAttribute } = await web('embed/embed-attributes.js');
const { decidingDirective, sourceToAllow } = await web('embed/load-problem.js');
const { loadModelList } = await web('figures/page-models.js');
await loadModelList();

test('each attribute reads its allowed values, and names any other with the default shown instead', () => {
  assert.deepEqual(readAttribute('tau', '0.5'), { value: 0.5, problem: null });
  assert.deepEqual(readAttribute('tau', null), { value: 1, problem: null });
  assert.deepEqual(readAttribute('tau', '0').problem, { attribute: 'tau', value: '0', allowed: '0.05–20', shown: '1' });
  assert.deepEqual(readAttribute('tau', '21').value, 1);
  assert.deepEqual(readAttribute('beam', '99').problem, { attribute: 'beam', value: '99', allowed: '1–8', shown: '4' });
  assert.deepEqual(readAttribute('model', 'en-zh'), { value: 'en-zh', problem: null });
  assert.deepEqual(readAttribute('model', 'en-fr-fixed'), {
    value: 'en-fr', problem: { attribute: 'model', value: 'en-fr-fixed', allowed: 'en-fr, en-zh', shown: 'en-fr' },
  });
  assert.deepEqual(readAttribute('view', 'grid').problem.allowed, 'heatmap, lines, step');
  assert.deepEqual(readAttribute('step', ''), { value: null, problem: null });
  assert.deepEqual(readAttribute('step', 'two').problem.shown, '–');
  assert.deepEqual(readAttribute('lang', 'zh'), { value: 'zh-CN', problem: null });
  assert.equal(readAttribute('lang', 'fr').problem.allowed, 'en, zh-CN');
  // A flag is on whenever present; a value that reads as off is named.
  assert.deepEqual(readAttribute('compare', ''), { value: true, problem: null });
  assert.deepEqual(readAttribute('compare', null), { value: false, problem: null });
  assert.deepEqual(readAttribute('compare', 'false'), { value: true, problem: { attribute: 'compare', value: 'false', flag: true } });
  assert.deepEqual(readAttribute('sentence', 'Hi.'), { value: 'Hi.', problem: null });
  assert.deepEqual(Object.keys(ATTRIBUTES).sort(), ['beam', 'compare', 'lang', 'loading', 'model', 'readonly', 'sentence', 'step', 'tau', 'text',
    'theme', 'unit', 'view']);
});

test('a CSP violation names the directive that decided it (CSP\'s fallbacks) and the source to add', () => {
  assert.equal(decidingDirective('worker-src', "default-src 'none'; script-src https://h 'wasm-unsafe-eval'"), 'script-src');
  assert.equal(decidingDirective('worker-src', "script-src 'self'; worker-src 'self'"), 'worker-src');
  assert.equal(decidingDirective('worker-src', "child-src 'none'; script-src 'self'"), 'child-src');
  assert.equal(decidingDirective('connect-src', "default-src 'self'"), 'default-src');
  assert.equal(decidingDirective('connect-src', "default-src 'none'; connect-src 'self'"), 'connect-src');
  assert.equal(sourceToAllow('blob'), 'blob:');
  assert.equal(sourceToAllow('wasm-eval'), "'wasm-unsafe-eval'");
  assert.equal(sourceToAllow('http://localhost:8080/models/en-fr.s2s'), 'http://localhost:8080');
});
