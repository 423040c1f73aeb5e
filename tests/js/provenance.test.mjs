// "About this model" shows what a model file's provenance records and
// nothing else (web/demo/provenance.js): a file that lacks its data's source or
// licence says "not recorded" there, and is never credited to the data of
// the shipped models; a complete one reads as its fields say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { nativeCli, root } from './helpers/models.mjs';

const { NOT_RECORDED, dataText, trainingText } = await import(pathToFileURL(join(root, 'web', 'demo', 'provenance.js')).href);

const complete = {
  data: { source: 'Europarl v7', license: 'public domain', attribution: 'the European Parliament', file: 'ep.tsv', fnv1a64: '0123456789abcdef' },
  training: { steps: 48000, batch_size: 64, wall_seconds: 6562 },
  split: { train_pairs: 133848 },
};

test('a complete provenance reads as its fields say', () => {
  assert.equal(dataText(complete), 'Europarl v7; public domain; attribution: the European Parliament (file ep.tsv, FNV-1a 0123456789abcdef)');
  assert.equal(trainingText(complete), '48,000 steps of 64 sentence pairs, 1 h 49 min of training on a CPU, from 133,848 training pairs');
});

test('a continued run, averaged checkpoints and an averaged pair of runs say so, with the earlier run\'s steps', () => {
  const staged = { ...complete, training: { ...complete.training, steps: 20000, init_model: { name: 'en-zh', file: 'checkpoint.s2s', steps: 60000 },
    averaged_checkpoints: { count: 10, steps: [11000, 20000] } } };
  assert.equal(trainingText(staged), '20,000 steps of 64 sentence pairs (continued from 60,000 steps of en-zh), ' +
    'the mean of the last 10 checkpoints, 1 h 49 min of training on a CPU, from 133,848 training pairs');
  const unnamed = { training: { steps: 5, init_model: { file: 'checkpoint.s2s' }, averaged_checkpoints: null } };
  assert.equal(trainingText(unnamed), `5 steps (continued from ${NOT_RECORDED} steps of checkpoint.s2s), training time ${NOT_RECORDED}`);
  // Averaged with another run from the same start, or with the very file
  // it continued from (the same hash).
  const start = { name: 'en-zh', file: 'en-zh.s2s', fnv1a64: '0123456789abcdef', steps: 12000 };
  const pair = { training: { steps: 5, init_model: start }, interpolation: { file: 'en-zh-longer.s2s', fnv1a64: 'fedcba9876543210', weight: 0.5 } };
  assert.match(trainingText(pair), /averaged weight by weight with en-zh-longer, another run from the same start \(its share 0\.50\)/);
  const withStart = { ...pair, interpolation: { ...pair.interpolation, file: 'en-zh-third.s2s', fnv1a64: start.fnv1a64 } };
  assert.match(trainingText(withStart), /averaged weight by weight with en-zh-third, the model it continued from \(its share 0\.50\)/);
  const noHashes = { training: { steps: 5, init_model: { name: 'x' } }, interpolation: { file: 'y.s2s', weight: 0.5 } };
  assert.match(trainingText(noHashes), /another run from the same start/, 'two missing hashes are not the same file');
  // The shipped en-fr: the textbook stage after the domain stage, its last
  // 10 checkpoints averaged; en-zh: the sixth cycle from the fifth, its run
  // with BPE-dropout averaged with the run without.
  const info = (name) => JSON.parse(spawnSync(nativeCli, ['info', '--model', join(root, 'models', `${name}.s2s`), '--json'], { encoding: 'utf8' }).stdout);
  assert.match(trainingText(info('en-fr').provenance), /^8,000 steps of 64 sentence pairs \(continued from 6,000 steps of en-fr\), the mean of the last 10 checkpoints, /);
  assert.match(trainingText(info('en-zh').provenance), new RegExp('^6,000 steps of 64 sentence pairs \\(continued from 8,000 steps of en-zh\\), ' +
    'the English pieces drawn afresh each time with BPE-dropout 0\\.1, the mean of the last 10 checkpoints, ' +
    'then averaged weight by weight with en-zh-nodrop, another run from the same start \\(its share 0\\.50\\), '));
});

test('a distilled model names its teacher and the teacher\'s share', () => {
  const distilled = { ...complete, training: { ...complete.training, teacher: { name: 'en-zh', file: 'en-zh.s2s', weight: 0.5 } } };
  assert.equal(trainingText(distilled), '48,000 steps of 64 sentence pairs, distilled from en-zh (the teacher\'s predictions weighted 0.50), ' +
    '1 h 49 min of training on a CPU, from 133,848 training pairs');
  const unnamed = { training: { steps: 5, teacher: { file: 'teacher.s2s' } } };
  assert.equal(trainingText(unnamed), `5 steps, distilled from teacher.s2s (the teacher's predictions weighted ${NOT_RECORDED}), training time ${NOT_RECORDED}`);
  assert.doesNotMatch(trainingText({ training: { steps: 5, teacher: null } }), /distilled/);
});

test('missing fields are "not recorded", never another model\'s data', () => {
  for (const provenance of [undefined, {}, { data: {} }, { data: { source: '', license: null } }, { training: {} }]) {
    const data = dataText(provenance);
    assert.equal(data, `source ${NOT_RECORDED}; licence ${NOT_RECORDED}; attribution: ${NOT_RECORDED}`);
    assert.doesNotMatch(data, /Tatoeba|CC-BY/);
    assert.equal(trainingText(provenance), `steps ${NOT_RECORDED}, training time ${NOT_RECORDED}`);
  }
  // One field missing: only that one is "not recorded".
  const noLicence = { data: { ...complete.data, license: undefined } };
  assert.equal(dataText(noLicence), `Europarl v7; licence ${NOT_RECORDED}; attribution: the European Parliament (file ep.tsv, FNV-1a 0123456789abcdef)`);
  assert.equal(dataText({ data: { file: 'x.tsv' } }), `source ${NOT_RECORDED}; licence ${NOT_RECORDED}; attribution: ${NOT_RECORDED} (file x.tsv, FNV-1a ${NOT_RECORDED})`);
});

test('training-only files are listed after the main data, each with its pairs; a ShareAlike licence carries to the model', async () => {
  const { licenceText } = await import(pathToFileURL(join(root, 'web', 'demo', 'provenance.js')).href);
  const withExtra = { ...complete, extra_data: [
    { source: 'a glossary', license: 'CC BY 4.0', attribution: 'us', file: 'glossary.tsv', fnv1a64: 'ffff', pairs: 871, pairs_used: 870, repeat: 2 },
    { source: 'CC-CEDICT', license: 'CC BY-SA 4.0', attribution: 'MDBG', file: 'cedict.tsv', fnv1a64: 'eeee', pairs: 745, pairs_used: 745, repeat: 1 },
  ] };
  assert.equal(dataText(withExtra), 'Europarl v7; public domain; attribution: the European Parliament (file ep.tsv, FNV-1a 0123456789abcdef)' +
    ' + a glossary; CC BY 4.0; attribution: us (file glossary.tsv, FNV-1a ffff), 870 pairs, 2× per epoch' +
    ' + CC-CEDICT; CC BY-SA 4.0; attribution: MDBG (file cedict.tsv, FNV-1a eeee), 745 pairs, 1× per epoch');
  assert.match(licenceText(withExtra), /^It learned from data under public domain, CC BY 4.0, CC BY-SA 4.0\. CC BY-SA 4.0 is a ShareAlike licence, so this model file is shared under CC BY-SA 4.0 too/);
  assert.equal(licenceText(complete), 'It learned from data under public domain: share it crediting the sources listed under Data.');
  assert.equal(licenceText({}), `licence ${NOT_RECORDED}`);
});

test('a record measured on another version of the file is stale: the tables refuse it (model_fingerprint)', async () => {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { staleRecords, RECORDS } = await import(pathToFileURL(join(root, 'scripts', 'bleu-tables.mjs')).href);
  const info = (path) => JSON.parse(spawnSync(nativeCli, ['info', '--model', path, '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 }).stdout);
  const shipped = join(root, 'models', 'en-zh-fixed.s2s');
  assert.deepEqual(staleRecords([{ name: 'en-zh-fixed', info: info(shipped) }]), [], 'the shipped records were measured on the shipped file');
  const work = mkdtempSync(join(tmpdir(), 's2s-stale-'));
  try {
    const changed = join(work, 'changed.s2s');
    const r = spawnSync(nativeCli, ['convert', '--model', shipped, '--output', changed, '--length-penalty', '0.9'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const stale = staleRecords([{ name: 'changed', info: info(changed) }]);
    assert.deepEqual(stale.map((s) => s.key), RECORDS, 'every record of the converted file is stale');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
