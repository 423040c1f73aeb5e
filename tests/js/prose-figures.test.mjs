// Numbers the documentation states in prose, checked against what they
// describe (issue 45): each model's beam penalties as the README gives them
// against the penalties the model files record, and the per-model ship
// sizes of models/README.md against the files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { requireDist, root } from './helpers/models.mjs';

requireDist();
const { loadModel, shippedModels } = await import(pathToFileURL(join(root, 'dist', 'index.js')).href);
const text = (file) => readFileSync(join(root, file), 'utf8');

test("README.md's sentence on each model's penalties (α, β) is what each model file records", async () => {
  const readme = text('README.md').replace(/\s+/g, ' ');
  const sentence = readme.match(/GNMT penalties \(([^)]*)\)/);
  assert.ok(sentence, 'README.md names the models\' penalties as "GNMT penalties (...)"');
  // "en-fr α = 0.6, β = 0.2; en-fr-fixed α = 1.0; en-zh and en-zh-fixed α = 2.0, β = 0": β unsaid is 0.
  const stated = {};
  for (const part of sentence[1].split(';')) {
    const names = part.match(/en-[a-z]+(?:-fixed)?/g) ?? [];
    const alpha = Number(part.match(/α = ([\d.]+)/)?.[1]);
    const beta = Number(part.match(/β = ([\d.]+)/)?.[1] ?? 0);
    for (const name of names) stated[name] = { alpha, beta };
  }
  assert.deepEqual(Object.keys(stated).sort(), [...shippedModels].sort(), 'every shipped model is named');
  for (const name of shippedModels) {
    const model = await loadModel(name);
    const { lengthPenalty, coveragePenalty, recorded } = model.info.beamDefaults;
    model.dispose();
    assert.equal(recorded, true, `${name} records its penalties`);
    assert.deepEqual(stated[name], { alpha: lengthPenalty, beta: coveragePenalty }, `${name}: README.md against the file`);
  }
});

test("models/README.md's table of files gives each file's size in bytes", () => {
  const table = text('models/README.md');
  for (const name of shippedModels) {
    const row = table.split('\n').find((line) => line.startsWith(`| \`${name}.s2s\` |`));
    assert.ok(row, `models/README.md has a row for ${name}.s2s`);
    const bytes = Number(row.trim().split('|').at(-2).trim().replace(/,/g, ''));
    assert.equal(bytes, statSync(join(root, 'models', `${name}.s2s`)).size, `${name}.s2s's size in models/README.md`);
  }
});
