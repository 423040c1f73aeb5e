// The list of shipped models has one owner, src/wasm/models.js: the folder
// models/ holds exactly those files, every one has its training recipe, and
// no other JavaScript file writes the list (the page's start script, which
// runs before any module can load, is built with it: page-preload.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { distDir, requireDist, root } from './helpers/models.mjs';

requireDist();
// dist/ (a copy of src/wasm/): modelUrl is relative to the module's folder.
const { defaultModel, modelCatalog, modelUrl, shippedModels } = await import(pathToFileURL(join(distDir, 'models.js')).href);

test('models/ holds exactly the shipped models, and each has its training recipe', () => {
  const files = readdirSync(join(root, 'models')).filter((file) => file.endsWith('.s2s')).map((file) => file.slice(0, -'.s2s'.length));
  assert.deepEqual(files.sort(), [...shippedModels].sort());
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  for (const name of shippedModels) assert.ok(scripts[`train:${name}`], `npm run train:${name} exists`);
  assert.ok(shippedModels.includes(defaultModel));
  for (const [name, entry] of Object.entries(modelCatalog)) {
    if (entry.baselineOf) assert.ok(shippedModels.includes(entry.baselineOf), `${name}'s baselineOf is a shipped model`);
  }
});

test('a named model is models/NAME.s2s beside dist/', () => {
  assert.equal(fileURLToPath(modelUrl('en-fr')), join(root, 'models', 'en-fr.s2s'));
});

test('no other file of the package, page, scripts or benchmarks writes the list of models', () => {
  // Tests name the models they use one by one; they are not searched.
  const folders = ['src/wasm', 'web', 'web/demo', 'web/train', 'web/embed', 'web/figures', 'web/figures/i18n', 'bin', 'scripts', 'bench'];
  // web/demo/page-boot.js is built: its list is filled in from the owner.
  const owners = new Set(['src/wasm/models.js', 'web/demo/page-boot.js']);
  const offenders = [];
  for (const folder of folders) {
    for (const file of readdirSync(join(root, folder))) {
      if (!/\.(m?js|html|sh)$/.test(file) || owners.has(`${folder}/${file}`)) continue;
      const text = readFileSync(join(root, folder, file), 'utf8');
      // A list names two models one after the other: ['en-fr', 'en-fr-fixed', ...].
      const names = shippedModels.map((name) => name.replace(/[-]/g, '\\-')).join('|');
      if (new RegExp(`['"](${names})['"]\\s*,\\s*['"](${names})['"]`).test(text)) offenders.push(`${folder}/${file}`);
    }
  }
  assert.deepEqual(offenders, [], 'these files write a list of model names; import shippedModels or modelCatalog instead');
});

test('each shipped model has its URL module, models/NAME.js, one literal URL a bundler follows, and no other model has one', async () => {
  const modules = readdirSync(join(root, 'models')).filter((file) => file.endsWith('.js')).map((file) => file.slice(0, -'.js'.length));
  assert.deepEqual(modules.sort(), [...shippedModels].sort());
  for (const name of shippedModels) {
    const text = readFileSync(join(root, 'models', `${name}.js`), 'utf8');
    assert.match(text, new RegExp(`^export default new URL\\('\\./${name}\\.s2s', import\\.meta\\.url\\);$`, 'm'));
    const { default: url } = await import(pathToFileURL(join(root, 'models', `${name}.js`)).href);
    assert.equal(fileURLToPath(url), join(root, 'models', `${name}.s2s`));
  }
});
