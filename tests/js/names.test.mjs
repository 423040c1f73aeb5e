// Names and numbers kept as the source spells them (src/decode/names.h, the
// API's keepNames): the names swapped into Tatoeba's development sentences
// appear in no training file; on those sentences the shipped attention
// models write the name as typed far more often with keepNames than without,
// and the figures are models/README.md's ("Names and numbers"); through the
// package, copiedWords names the words copied and keepNames: false leaves the
// model's words as written. Native CLI, beam 4: seconds per model.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { NAMES, namesCost, writesName } from '../../scripts/names-table.mjs';
import { distIndex, nativeCli, root } from './helpers/models.mjs';

const shared = join(root, '..', 'shared', 'data');
let work;
before(() => {
  work = mkdtempSync(join(tmpdir(), 's2s-names-'));
  // The development splits of scripts/train.sh and scripts/compare-models.sh.
  for (const [file, fraction, out] of [['fra-eng.txt', '0.04', 'en-fr-dev.tsv'], ['cmn-eng.txt', '0.05', 'en-zh-dev.tsv']]) {
    const r = spawnSync(nativeCli, ['split', '--data', join(shared, file), '--dev-fraction', fraction, '--split-seed', '1',
      '--dev-output', join(work, out)], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
});
after(() => rmSync(work, { recursive: true, force: true }));

test('the swapped-in names are in no training file (Tatoeba, the corpus, the glossary, the long corpus)', () => {
  const files = [join(shared, 'fra-eng.txt'), join(shared, 'cmn-eng.txt')];
  for (const folder of ['corpus', 'glossary', 'long']) {
    for (const f of readdirSync(join(root, 'data', folder))) if (f.endsWith('.tsv')) files.push(join(root, 'data', folder, f));
  }
  const parts = [...new Set(NAMES.flatMap((name) => name.split(' ')))];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const part of parts) assert.ok(!writesName(text, part), `${part} is in ${file}`);
  }
});

const readme = readFileSync(join(root, 'models', 'README.md'), 'utf8');
for (const [model, floor] of [['en-fr', 0.75], ['en-zh', 0.75]]) {
  test(`${model}: names kept in at least ${floor * 100}% of the named sentences with keepNames, none without; the README's row`, () => {
    const dev = join(work, `${model}-dev.tsv`);
    const r = namesCost(join(root, 'models', `${model}.s2s`), dev);
    assert.equal(r.off.kept, 0, 'the model alone writes names lowercased, never as typed');
    assert.ok(r.on.kept >= floor, `${model}: ${r.on.kept}`);
    assert.ok(r.on.chrf > r.off.chrf && r.on.bleu > r.off.bleu, JSON.stringify(r));
    const pct = (x) => `${(100 * x).toFixed(1)}%`;
    const line = `| ${model}.s2s | ${r.sentences} | ${pct(r.off.kept)} → **${pct(r.on.kept)}** | ${r.off.chrf.toFixed(2)} → ${r.on.chrf.toFixed(2)} | ${r.off.bleu.toFixed(2)} → ${r.on.bleu.toFixed(2)} |`;
    assert.ok(readme.includes(line), `models/README.md should hold the measured row\n${line}`);
  });
}

test('the package: copiedWords names the words copied; keepNames: false leaves the model\'s words', async () => {
  const { loadModel } = await import(pathToFileURL(distIndex).href);
  const model = await loadModel(join(root, 'models', 'en-fr.s2s'));
  try {
    const text = 'Barack Obama visited Paris in 2015.';
    const kept = model.translate(text);
    assert.match(kept.text, /^Barack Obama /);
    assert.match(kept.text, /\bParis\b/);
    assert.ok(kept.copiedWords.length > 0);
    assert.deepEqual(kept.copiedWords.map((w) => kept.targetWords[w].text), ['Barack Obama']);
    for (const w of kept.copiedWords) assert.ok(!kept.unsureWords.includes(w), 'a copied word is not a guess');
    assert.deepEqual(JSON.parse(JSON.stringify(kept)).copiedWords, kept.copiedWords);
    const raw = model.translate(text, { keepNames: false });
    assert.deepEqual(raw.copiedWords, []);
    assert.doesNotMatch(raw.text, /Barack|Paris/);
    assert.deepEqual(raw.targetTokens, kept.targetTokens, 'the same tokens: only the words\' text changes');
    assert.throws(() => model.translate(text, { keepNames: 'yes' }), /keepNames/);
  } finally {
    model.dispose?.();
  }
});
