// The CLI commands around the data and the shipped models: split, info,
// eval --memory (the translation-memory baseline), eval --record, eval
// --per-sentence, eval --bootstrap and --against, and
// train's --exclude-sources and --init-encoder (how en-zh starts from en-fr).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = process.env.S2S_CLI ?? join(root, 'build', 'native', 'seq2seq');
const fixture = join(root, 'tests', 'fixtures', 'tiny-en-fr.tsv');
let work;
let model;

function run(args, input = '') {
  const r = spawnSync(cli, args, { input, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const tiny = ['--data', fixture, '--dev-fraction', '0.2', '--split-seed', '3', '--min-frequency', '1',
  '--embedding', '16', '--hidden', '16', '--decoder-hidden', '32', '--attention-size', '16', '--output-hidden', '16',
  '--batch-size', '8', '--learning-rate', '0.01', '--warmup', '10', '--eval-every', '0', '--threads', '1'];

const englishOf = (tsv) => new Set(readFileSync(tsv, 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t')[0]));

before(() => {
  work = mkdtempSync(join(tmpdir(), 's2s-cli-data-'));
  model = join(work, 'tiny.s2s');
  const r = run(['train', ...tiny, '--steps', '60', '--checkpoint-dir', join(work, 'ck'), '--export-dev', join(work, 'train-dev.tsv'),
    '--output', model]);
  assert.equal(r.code, 0, r.err);
});

after(() => rmSync(work, { recursive: true, force: true }));

test('split writes exactly the development split that train holds out', () => {
  const out = join(work, 'dev.tsv');
  const r = run(['split', '--data', fixture, '--dev-fraction', '0.2', '--split-seed', '3', '--dev-output', out]);
  assert.equal(r.code, 0, r.err);
  assert.equal(readFileSync(out, 'utf8'), readFileSync(join(work, 'train-dev.tsv'), 'utf8'));
  assert.match(r.err, /wrote .*dev\.tsv: \d+ development sentences/);
  const limited = join(work, 'dev-2.tsv');
  assert.equal(run(['split', '--data', fixture, '--dev-fraction', '0.2', '--split-seed', '3', '--limit', '2', '--dev-output', limited]).code, 0);
  assert.equal(englishOf(limited).size, 2);
  const bad = run(['split', '--data', fixture]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /needs --dev-output/);
});

test('info prints the architecture and provenance; --json has no vocabularies', () => {
  const text = run(['info', '--model', model]);
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /additive attention, \d+ parameters stored as f32/);
  const info = JSON.parse(run(['info', '--model', model, '--json']).out);
  assert.equal(info.file_bytes, statSync(model).size);
  assert.equal(info.config.attention, 'additive');
  assert.equal(info.provenance.name, 'tiny');
  assert.ok(!('source_vocabulary' in info));
  assert.ok(info.source_vocabulary_size > 4);
  const bad = run(['info', '--model', join(work, 'none.s2s')]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /cannot open model file/);
});

test('eval --memory scores the translation-memory baseline on held-out sentences only', () => {
  const dev = join(work, 'train-dev.tsv');
  const r = run(['eval', '--memory', fixture, '--dev-fraction', '0.2', '--split-seed', '3', '--data', dev, '--json']);
  assert.equal(r.code, 0, r.err);
  const report = JSON.parse(r.out);
  assert.equal(report.system, 'translation memory');
  assert.equal(report.overall.sentences, englishOf(dev).size);
  // The memory never holds a development sentence, so it cannot be perfect.
  assert.ok(report.overall.bleu < 100);
  // Evaluated on training sentences instead, it returns their own translations.
  const onTraining = join(work, 'training-part.tsv');
  writeFileSync(onTraining, 'I see the cat.\tJe vois le chat.\n');
  const self = JSON.parse(run(['eval', '--memory', fixture, '--dev-fraction', '0', '--split-seed', '3', '--data', onTraining,
    '--json']).out);
  assert.ok(self.overall.bleu < 100, 'a sentence of --data is removed from the memory, even from its training part');
  const missing = run(['eval', '--memory', fixture, '--data', dev]);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /--memory needs --dev-fraction and --split-seed/);
  const both = run(['eval', '--memory', fixture, '--model', model, '--data', dev]);
  assert.equal(both.code, 2);
  assert.match(both.err, /exactly one of --model/);
});

test('eval --record stores the report in the model file, which still loads', () => {
  const copy = join(work, 'recorded.s2s');
  writeFileSync(copy, readFileSync(model));
  const r = run(['eval', '--model', copy, '--data', fixture, '--beam', '2', '--record', 'fixture-beam2', '--json']);
  assert.equal(r.code, 0, r.err);
  const info = JSON.parse(run(['info', '--model', copy, '--json']).out);
  const recorded = info.provenance.evaluations['fixture-beam2'];
  assert.equal(recorded.beam, 2);
  assert.equal(recorded.overall.bleu, JSON.parse(r.out).overall.bleu);
  assert.equal(recorded.data.file, 'tiny-en-fr.tsv');
  // The buckets keep what the page and the tables read, not their n-gram counts.
  assert.deepEqual(Object.keys(recorded.by_length[0]).sort(), ['bleu', 'bucket', 'chrf2', 'max_words', 'min_words', 'sentences']);
  assert.equal(recorded.by_length[0].bleu, JSON.parse(r.out).by_length[0].bleu);
  assert.equal(typeof recorded.overall.signature, 'string');
  // Same weights: the same translation as before.
  const before = run(['translate', '--model', model], 'I see the cat.\n').out;
  assert.equal(run(['translate', '--model', copy], 'I see the cat.\n').out, before);
});

test('eval --per-sentence: each sentence with its references, its translation and its own chrF2', () => {
  const r = run(['eval', '--model', model, '--data', fixture, '--limit', '6', '--per-sentence', '--json']);
  assert.equal(r.code, 0, r.err);
  const sentences = JSON.parse(r.out).per_sentence;
  assert.equal(sentences.length, 6);
  const lines = readFileSync(fixture, 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t'));
  for (const { source, references } of sentences) {
    assert.deepEqual(references, lines.filter(([en]) => en === source).map(([, ref]) => ref), source);
  }
  // The translations are translate's (the script that reads both relies on it).
  const translated = run(['translate', '--model', model], sentences.map((s) => `${s.source}\n`).join('')).out.trimEnd().split('\n');
  assert.deepEqual(sentences.map((s) => s.hypothesis), translated);
  // With its own translation as the reference a sentence scores 100; with
  // a longer one, what the corpus chrF2 of that pair alone is.
  const written = sentences.filter((s) => s.hypothesis.trim() !== '');
  assert.ok(written.length > 0, 'the tiny model writes something');
  const own = join(work, 'own.tsv');
  const pair = join(work, 'pair.tsv');
  writeFileSync(own, written.map((s) => `${s.source}\t${s.hypothesis}\n`).join(''));
  writeFileSync(pair, `${written[0].source}\t${written[0].hypothesis} le chat noir\n`);
  const ownScores = JSON.parse(run(['eval', '--model', model, '--data', own, '--per-sentence', '--json']).out).per_sentence;
  assert.deepEqual(ownScores.map((s) => s.chrf2), written.map(() => 100));
  const alone = JSON.parse(run(['eval', '--model', model, '--data', pair, '--per-sentence', '--json']).out);
  assert.equal(alone.per_sentence[0].chrf2, alone.overall.chrf2);
  assert.ok(alone.overall.chrf2 > 0 && alone.overall.chrf2 < 100, String(alone.overall.chrf2));
  // JSON only.
  assert.match(run(['eval', '--model', model, '--data', pair, '--per-sentence']).err, /--per-sentence .*--json/);
});

test('eval --bootstrap gives the interval; --against compares two models on the same resamples', () => {
  const r = run(['eval', '--model', model, '--data', fixture, '--bootstrap', '200', '--json']);
  assert.equal(r.code, 0, r.err);
  const report = JSON.parse(r.out);
  const b = report.bootstrap;
  assert.equal(b.resamples, 200);
  assert.equal(b.bleu, report.overall.bleu);
  assert.ok(b.interval95[0] <= b.bleu && b.bleu <= b.interval95[1], JSON.stringify(b));
  assert.ok(b.interval95[1] > b.interval95[0], 'a few dozen sentences give a wide interval');
  // The same seed, the same draws.
  assert.deepEqual(JSON.parse(run(['eval', '--model', model, '--data', fixture, '--bootstrap', '200', '--json']).out).bootstrap, b);
  const text = run(['eval', '--model', model, '--data', fixture, '--bootstrap', '200']).out;
  assert.match(text, /^bootstrap, 200 resamples: BLEU \d+\.\d\d, 95% interval \d+\.\d\d to \d+\.\d\d$/m);

  // A model against a copy of itself: no difference, never higher.
  const copy = join(work, 'same.s2s');
  writeFileSync(copy, readFileSync(model));
  const paired = JSON.parse(run(['eval', '--model', model, '--data', fixture, '--against', copy, '--json']).out).bootstrap;
  assert.equal(paired.resamples, 1000);
  assert.equal(paired.against.file, 'same.s2s');
  assert.equal(paired.against.difference, 0);
  assert.deepEqual(paired.against.difference_interval95, [0, 0]);
  assert.equal(paired.against.better_share, 0);
  assert.match(run(['eval', '--model', model, '--data', fixture, '--against', copy]).out,
    /^against same\.s2s: BLEU [\d.]+, 95% interval [\d.]+ to [\d.]+; difference \+0\.00, 95% interval \+0\.00 to \+0\.00; this model higher in 0\.0% of the resamples$/m);

  // --record keeps the model's figures, not the bootstrap's.
  const recorded = join(work, 'recorded-bootstrap.s2s');
  writeFileSync(recorded, readFileSync(model));
  assert.equal(run(['eval', '--model', recorded, '--data', fixture, '--bootstrap', '50', '--record', 'k']).code, 0);
  assert.equal(JSON.parse(run(['info', '--model', recorded, '--json']).out).provenance.evaluations.k.bootstrap, undefined);

  // Errors name the problem.
  assert.match(run(['eval', '--model', model, '--data', fixture, '--bootstrap', '5']).err, /--bootstrap must be a whole number from 10 to 100000, not '5'/);
  assert.match(run(['eval', '--model', model, '--data', fixture, '--against', join(root, 'models', 'en-zh.s2s')]).err,
    /translates into 'zh' and --model into 'fr': a paired comparison needs two models of one language pair/);
  assert.match(run(['eval', '--memory', fixture, '--dev-fraction', '0.2', '--split-seed', '3', '--data', fixture, '--against', copy]).err,
    /--against compares two model files on the same sentences; use it with --model, not --memory/);
  assert.match(run(['eval', '--model', model, '--data', fixture, '--against', join(work, 'missing.s2s')]).err, /missing\.s2s/);
});

test('train --exclude-sources drops those English sentences from training', () => {
  const excluded = join(work, 'exclude.tsv');
  writeFileSync(excluded, 'I see the cat.\tx\nWe drink water.\tx\n');
  const output = join(work, 'excluded.s2s');
  const r = run(['train', ...tiny, '--steps', '5', '--exclude-sources', excluded, '--checkpoint-dir', join(work, 'ex'),
    '--output', output]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /2 by --exclude-sources/);
  const info = JSON.parse(run(['info', '--model', output, '--json']).out);
  assert.equal(info.provenance.split.excluded_sources.pairs_dropped, 2);
  assert.equal(info.provenance.split.excluded_sources.file, 'exclude.tsv');
});

test('split --exclude-sources leaves out of --train-output the pairs that train --exclude-sources drops', () => {
  const excluded = join(work, 'exclude-split.tsv');
  writeFileSync(excluded, 'I see the cat.\tx\nWe drink water.\tx\n');
  const split = ['split', '--data', fixture, '--dev-fraction', '0.2', '--split-seed', '3', '--dev-output', join(work, 'd.tsv')];
  const all = join(work, 'train-all.tsv');
  const kept = join(work, 'train-kept.tsv');
  assert.equal(run([...split, '--train-output', all]).code, 0);
  const r = run([...split, '--train-output', kept, '--exclude-sources', excluded]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /--exclude-sources: 2 of \d+ training pairs left out/);
  const lines = (tsv) => readFileSync(tsv, 'utf8').split('\n').filter(Boolean);
  assert.ok(englishOf(all).has('I see the cat.') && englishOf(all).has('We drink water.'));
  assert.ok(!englishOf(kept).has('I see the cat.') && !englishOf(kept).has('We drink water.'));
  assert.equal(lines(kept).length, lines(all).length - 2);
  const bad = run([...split, '--exclude-sources', excluded]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--exclude-sources filters the training pairs: give --train-output too/);
});

test('train --init-encoder starts the encoder from another model', () => {
  const output = join(work, 'transfer.s2s');
  const r = run(['train', ...tiny, '--steps', '1', '--learning-rate', '0.000001', '--warmup', '1000', '--init-encoder', model,
    '--checkpoint-dir', join(work, 'tr'), '--output', output]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /encoder initialized from .*tiny\.s2s/);
  const info = JSON.parse(run(['info', '--model', output, '--json']).out);
  assert.equal(info.provenance.training.init_encoder.name, 'tiny');
  assert.ok(info.provenance.training.init_encoder.source_embeddings_copied > 4);
  const wrong = run(['train', ...tiny, '--steps', '1', '--hidden', '8', '--init-encoder', model,
    '--checkpoint-dir', join(work, 'tr2'), '--output', join(work, 'wrong.s2s')]);
  assert.equal(wrong.code, 2);
  assert.match(wrong.err, /--init-encoder .* has --embedding 16 --hidden 16; use the same sizes/);
});

test('split writes each file\'s source beside it; train credits a split read as --extra-data; convert --data-dir fills a source recorded as unknown', () => {
  const dir = join(work, 'sources');
  mkdirSync(dir);
  const dev = join(dir, 'dev.tsv');
  const train = join(dir, 'train.tsv');
  const r = run(['split', '--data', fixture, '--dev-fraction', '0.2', '--split-seed', '3', '--dev-output', dev, '--train-output', train]);
  assert.equal(r.code, 0, r.err);
  const fixtureSource = JSON.parse(readFileSync(`${fixture}.source.json`, 'utf8'));
  const sidecar = JSON.parse(readFileSync(`${train}.source.json`, 'utf8'));
  assert.equal(sidecar.source, `${fixtureSource.source}; the training split of tiny-en-fr.tsv (seq2seq split --dev-fraction 0.2 --split-seed 3)`);
  assert.equal(sidecar.license, fixtureSource.license);
  assert.equal(sidecar.attribution, fixtureSource.attribution);
  assert.match(JSON.parse(readFileSync(`${dev}.source.json`, 'utf8')).source, /; the development split of tiny-en-fr\.tsv/);
  // A data file of unknown source gets no sidecar to pass on.
  const unknown = join(dir, 'unknown.tsv');
  writeFileSync(unknown, readFileSync(fixture, 'utf8'));
  assert.equal(run(['split', '--data', unknown, '--dev-fraction', '0.2', '--dev-output', join(dir, 'u-dev.tsv')]).code, 0);
  assert.ok(!existsSync(join(dir, 'u-dev.tsv.source.json')));

  // Trained with the split as --extra-data: credited from the sidecar.
  const extraOf = (path) => JSON.parse(run(['info', '--model', path, '--json']).out).provenance.extra_data[0];
  const credited = join(work, 'credited.s2s');
  let t = run(['train', ...tiny, '--steps', '2', '--extra-data', `${train}:1`, '--checkpoint-dir', join(work, 'ck-credited'), '--output', credited]);
  assert.equal(t.code, 0, t.err);
  assert.equal(extraOf(credited).source, sidecar.source);
  // Trained without it (no sidecar then): unknown, then filled by convert --data-dir from the sidecar written since.
  const hidden = join(work, 'hidden');
  mkdirSync(hidden);
  writeFileSync(join(hidden, 'train.tsv'), readFileSync(train, 'utf8'));
  const uncredited = join(work, 'uncredited.s2s');
  t = run(['train', ...tiny, '--steps', '2', '--extra-data', `${join(hidden, 'train.tsv')}:1`, '--checkpoint-dir', join(work, 'ck-uncredited'), '--output', uncredited]);
  assert.equal(t.code, 0, t.err);
  assert.match(extraOf(uncredited).source, /^unknown/);
  const filled = join(work, 'filled.s2s');
  t = run(['convert', '--model', uncredited, '--data-dir', dir, '--output', filled]);
  assert.equal(t.code, 0, t.err);
  assert.equal(extraOf(filled).source, sidecar.source);
  assert.equal(extraOf(filled).license, sidecar.license);
  assert.deepEqual(JSON.parse(run(['info', '--model', filled, '--json']).out).provenance.conversions.at(-1).data_sources_filled, ['train.tsv']);
  // An edited file (another hash) is not taken for the one recorded.
  writeFileSync(join(hidden, 'train.tsv'), `${readFileSync(train, 'utf8')}Extra.\tEn plus.\n`);
  writeFileSync(join(hidden, 'train.tsv.source.json'), readFileSync(`${train}.source.json`));
  const notFilled = join(work, 'not-filled.s2s');
  assert.equal(run(['convert', '--model', uncredited, '--data-dir', hidden, '--output', notFilled]).code, 0);
  assert.match(extraOf(notFilled).source, /^unknown/);
  const bad = run(['convert', '--model', uncredited, '--data-dir', join(work, 'no-such-folder'), '--output', join(work, 'refused.s2s')]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--data-dir: .* is not a folder/);
});
