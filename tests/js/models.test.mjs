// The shipped models (models/*.s2s) as users get them: each loads, is small
// enough for the browser, records its provenance, translates d2l's examples,
// and keeps its development BLEU above a floor on the committed sample of
// its split (tests/fixtures/*-dev.tsv), so that a regression fails CI.
// Floors sit a little under the measured scores (README, "Models").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = process.env.S2S_CLI ?? join(root, 'build', 'native', 'seq2seq');
const fixtures = join(root, 'tests', 'fixtures');

// storage: how scripts/train.sh stores it (int8 levels: 63 is 7 bits).
// floor: beam-4 BLEU (sacreBLEU-compatible, the model's penalties: every front end's default decoding) on the
// committed sample; measured is what the model scored there when the scorer or the model last changed.
const shipped = {
  'en-fr': {
    attention: 'additive', storage: { dtype: 'i8', levels: 63 }, sample: 'en-fr-dev.tsv', floor: 45, measured: 47.38,
    domain: { floor: 47, measured: 49.79, termsFloor: 87, termsMeasured: 90.9 },
    examples: { 'Go.': 'Va !', 'I lost.': "J'ai perdu.", "He's calm.": 'Il est calme.', "I'm home.": 'Je suis chez moi.',
      'The weather is nice today.': "Il fait beau aujourd'hui.", 'I love deep learning.': "J'adore l'apprentissage profond." },
  },
  'en-fr-fixed': {
    attention: 'none', storage: { dtype: 'i8', levels: 127 }, sample: 'en-fr-dev.tsv', floor: 38, measured: 40.55,
    domain: { floor: 21, measured: 23.85, termsFloor: 58, termsMeasured: 62.1 },
    examples: { 'Go.': 'Va !', 'I lost.': "J'ai perdu.", "He's calm.": 'Il est calme.', "I'm home.": 'Je suis chez moi.' },
  },
  'en-zh': {
    attention: 'additive', storage: { dtype: 'i8', levels: 127 }, sample: 'en-zh-dev.tsv', floor: 40, measured: 41.67,
    domain: { floor: 39, measured: 41.79, termsFloor: 84, termsMeasured: 88.5 },
    examples: { "I'm home.": '我在家里。', 'I love deep learning.': '我爱深度学习。' },
  },
  'en-zh-fixed': {
    attention: 'none', storage: { dtype: 'i8', levels: 127 }, sample: 'en-zh-dev.tsv', floor: 34, measured: 37.45,
    domain: { floor: 21, measured: 24.16, termsFloor: 60, termsMeasured: 66.0 },
    examples: { "I'm home.": '我在家里。' },
  },
};

function run(args, input = '') {
  const r = spawnSync(cli, args, { input, encoding: 'utf8', timeout: 600_000 });
  assert.equal(r.status, 0, `seq2seq ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}


for (const [name, expected] of Object.entries(shipped)) {
  const path = join(root, 'models', `${name}.s2s`);
  const present = existsSync(path);
  const skip = present ? false : `models/${name}.s2s is not trained yet (see models/README.md)`;

  test(`${name}: loads, at most 10 MB, stored as recorded in train.sh, with its provenance`, { skip }, () => {
    assert.ok(statSync(path).size <= 10 * 1024 * 1024, `${statSync(path).size} bytes`);
    const info = JSON.parse(run(['info', '--model', path, '--json']));
    assert.equal(info.config.attention, expected.attention);
    assert.equal(info.stored_dtype, expected.storage.dtype);
    assert.equal(info.int8_levels, expected.storage.levels);
    const p = info.provenance;
    assert.equal(p.name, name);
    assert.match(p.data.fnv1a64, /^[0-9a-f]{16}$/);
    assert.equal(p.data.license, 'CC-BY 2.0 France');
    // The training-only files: the project's corpus and glossary, and for Chinese CC-CEDICT.
    const extra = Object.fromEntries((p.extra_data ?? []).map((d) => [d.file.replace(/\.en-(fr|zh)\.tsv$/, ''), d]));
    assert.equal(extra.domain?.license, 'CC BY 4.0');
    assert.equal(extra.glossary?.license, 'CC BY 4.0');
    if (name.startsWith('en-zh')) assert.equal(extra.cedict?.license, 'CC BY-SA 4.0');
    else assert.equal(extra.cedict, undefined);
    if (name.startsWith('en-zh')) {
      // Six cycles on both domains (scripts/train.sh, models/README.md): the
      // sixth starts from every weight of the fifth, the textbook cycle (8,000
      // steps, with the long textbook-register corpus three times an epoch and
      // 12,000 misspelt pairs), and trains 6,000 steps on its data twice, with
      // and without BPE-dropout on the English pieces; the shipped file is
      // the mean of the two runs' weights (each the mean of its last 10
      // checkpoints).
      assert.equal(p.training.init_model?.steps, 8000, 'a sixth cycle after the fifth');
      assert.equal(p.training.init_model?.name, name);
      assert.equal(p.training.init_model?.file, `${name}-textbook.s2s`);
      assert.equal(p.training.steps, 6000);
      assert.ok(Math.abs(p.training.piece_dropout - 0.1) < 1e-6, `piece_dropout ${p.training.piece_dropout}`);
      assert.equal(p.interpolation?.file, `${name}-nodrop.s2s`, 'the mean with the run without dropout');
      assert.equal(p.interpolation?.name, name);
      assert.equal(p.interpolation?.weight, 0.5);
      assert.equal(p.training.averaged_checkpoints?.count, 10);
      assert.equal(extra.long?.license, 'CC BY 4.0', 'the long corpus, the project\'s own');
      assert.match(extra.noisy?.source ?? '', /misspelt copies/);
      assert.match(extra.concat16?.license ?? '', /CC-BY 2\.0 FR.*CC BY 4\.0/);
      assert.equal(extra['en-zh-train.tsv']?.license, 'CC-BY 2.0 France', "Tatoeba's training split, credited");
      for (const d of p.extra_data ?? []) assert.doesNotMatch(d.source, /^unknown/, `${d.file}: its source is recorded`);
    } else {
      // Three stages (scripts/train.sh): the third, the textbook stage,
      // starts from every weight of the second (6,000 steps, itself from the
      // 48,000-step Tatoeba base) and trains 8,000 steps with the long
      // textbook-register corpus and misspelt pairs added.
      assert.equal(p.training.init_model?.steps, 6000, 'a third stage after the domain stage');
      assert.equal(p.training.init_model?.file, `${name}-domain.s2s`);
      assert.equal(p.training.steps, 8000);
      assert.equal(p.training.averaged_checkpoints?.count, 10);
      assert.equal(extra.long?.license, 'CC BY 4.0', 'the long corpus, the project\'s own');
      assert.match(extra.noisy?.source ?? '', /misspelt copies/);
    }
    assert.ok(p.training.finished && p.training.steps > 0 && p.training.wall_seconds > 0);
    assert.deepEqual(p.dev_bleu.by_length.map((b) => b.bucket), ['1-4', '5-7', '8-11', '12+']);
    for (const key of ['dev-greedy', 'dev-beam4']) assert.ok(p.evaluations?.[key]?.overall?.bleu > 0, `evaluations/${key}`);
  });

  test(`${name}: development BLEU on the committed sample stays above ${expected.floor}`, { skip }, () => {
    const report = JSON.parse(run(['eval', '--model', path, '--data', join(fixtures, expected.sample), '--beam', '4', '--json']));
    assert.ok(report.overall.bleu >= expected.floor,
      `BLEU ${report.overall.bleu.toFixed(2)} < floor ${expected.floor} (it measured ${expected.measured} when committed)`);
  });

  test(`${name}: on the in-domain development split (data/corpus/dev.tsv), beam-4 BLEU and term accuracy stay above their floors`, { skip }, () => {
    const column = expected.sample.startsWith('en-zh') ? 2 : 1;
    const folder = mkdtempSync(join(tmpdir(), 's2s-domain-dev-'));
    const dev = join(folder, 'dev.tsv');
    writeFileSync(dev, readFileSync(join(root, 'data', 'corpus', 'dev.tsv'), 'utf8').split('\n').filter(Boolean)
      .map((line) => { const cols = line.split('\t'); return `${cols[0]}\t${cols[column]}\n`; }).join(''));
    let report;
    try {
      report = JSON.parse(run(['eval', '--model', path, '--data', dev, '--beam', '4', '--terms', join(root, 'data', 'glossary', 'glossary.tsv'), '--json']));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    const { floor, measured, termsFloor, termsMeasured } = expected.domain;
    assert.ok(report.overall.bleu >= floor, `in-domain BLEU ${report.overall.bleu.toFixed(2)} < floor ${floor} (it measured ${measured} when committed)`);
    assert.ok(report.terms.accuracy >= termsFloor, `terms ${report.terms.accuracy.toFixed(1)}% < floor ${termsFloor}% (it measured ${termsMeasured}%)`);
  });

  if (Object.keys(expected.examples).length > 0) {
    test(`${name}: example translations (d2l's four for en-fr)`, { skip }, () => {
      const sources = Object.keys(expected.examples);
      const results = run(['translate', '--model', path, '--json'], sources.join('\n') + '\n')
        .trim().split('\n').map((line) => JSON.parse(line));
      sources.forEach((source, k) => assert.equal(results[k].text, expected.examples[source], source));
    });
  }
}

// The point of attention, as recorded by `npm run compare` in each pair of
// models: the attention model beats its fixed-context twin in every
// source-length bucket, and by a margin on sentences of 12+ words (en-fr:
// +16.9 measured, 136 sentences; en-zh: +9.6, only 34 sentences).
for (const [attention, fixed, margin] of [['en-fr', 'en-fr-fixed', 10], ['en-zh', 'en-zh-fixed', 8]]) {
  test(`${attention} beats ${fixed} in every length bucket, by ${margin}+ BLEU on 12+ words (recorded evaluations)`, {
    skip: [attention, fixed].every((n) => existsSync(join(root, 'models', `${n}.s2s`))) ? false : 'a model is missing',
  }, () => {
    const buckets = (name) => {
      const info = JSON.parse(run(['info', '--model', join(root, 'models', `${name}.s2s`), '--json']));
      return Object.fromEntries(info.provenance.evaluations['dev-beam4'].by_length.map((b) => [b.bucket, b.bleu]));
    };
    const a = buckets(attention);
    const f = buckets(fixed);
    assert.deepEqual(Object.keys(a), ['1-4', '5-7', '8-11', '12+']);
    for (const bucket of Object.keys(a)) assert.ok(a[bucket] > f[bucket], `${bucket} words: attention ${a[bucket]}, fixed ${f[bucket]}`);
    assert.ok(a['12+'] - f['12+'] >= margin, `12+ words: attention ${a['12+']}, fixed ${f['12+']}`);
  });
}
