// The project's own training data (data/): the in-domain corpus and the
// glossary are what data/README.md says they are, their development split
// stays apart, and no training file holds the chapter's example sentence
// (or a near variant) or a sentence that a test or the page uses to show
// what the models learned. Also the files scripts/domain-data.mjs builds
// from them for `seq2seq train --extra-data`, with their sources.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusTrainingFiles, isLongDevelopment, readCorpus, readGlossary } from '../../scripts/domain-data.mjs';
import { FORBIDDEN_PHRASES, HELD_OUT_SENTENCES, englishWords as words, sentenceKey as key } from '../../scripts/check-long-data.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpusDir = join(root, 'data', 'corpus');
const longDir = join(root, 'data', 'long');
const proseDir = join(root, 'data', 'prose');

// The chapter's example and its near variants, in any training file, in any
// case: the models must get it right by composition, never by memory. And
// the sentences that tests, the page and the issues that set the models'
// targets use to show what the models learned: never trained on. (One list,
// scripts/check-long-data.mjs, which the writers of data/long/ ran too.)
const FORBIDDEN = FORBIDDEN_PHRASES;
const HELD_OUT = HELD_OUT_SENTENCES;

const run = (command, args) => {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  assert.equal(r.status, 0, `${command} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

let built;
const builtDir = () => built;
before(() => {
  built = mkdtempSync(join(tmpdir(), 's2s-domain-data-'));
  run(process.execPath, [join(root, 'scripts', 'domain-data.mjs'), '--out', built]);
  // The Chinese models' other training files, made as scripts/train.sh
  // makes them: Tatoeba's training split (read once more in the third
  // cycle), and the long pairs of the second and third cycles, from it and
  // the corpus's training file.
  const cli = join(root, 'build', 'native', 'seq2seq');
  const tatoeba = join(built, 'tatoeba-train.en-zh.tsv');
  run(cli, ['split', '--data', join(root, '..', 'shared', 'data', 'cmn-eng.txt'), '--dev-fraction', '0.05', '--split-seed', '1',
    '--dev-output', join(built, 'tatoeba-dev.en-zh.txt'), '--train-output', tatoeba]);
  run(process.execPath, [join(root, 'scripts', 'concat-pairs.mjs'), '--out', join(built, 'concat.en-zh.tsv'), '--count', '8000',
    '--seed', '1', tatoeba, join(built, 'domain.en-zh.tsv')]);
  run(process.execPath, [join(root, 'scripts', 'concat-pairs.mjs'), '--out', join(built, 'concat16.en-zh.tsv'), '--count', '16000',
    '--seed', '2', '--max-words', '40', tatoeba, join(built, 'domain.en-zh.tsv')]);
});
after(() => rmSync(built, { recursive: true, force: true }));

function trainingFiles() {
  const own = [...corpusTrainingFiles(), join(root, 'data', 'glossary', 'glossary.tsv')];
  const generated = readdirSync(built).filter((f) => f.endsWith('.tsv') && !/^(domain|long|prose)-dev/.test(f))
    .map((f) => join(built, f));
  return [...own, ...generated];
}

test('no training file holds the chapter\'s example, a near variant, or a held-out sentence', () => {
  const heldOut = new Set(HELD_OUT.map(key));
  const files = trainingFiles();
  assert.ok(files.length >= 10, `expected the corpus, the glossary and the built files, found ${files.length}`);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const lower = text.toLowerCase();
    for (const phrase of FORBIDDEN) assert.ok(!lower.includes(phrase), `${file} contains "${phrase}"`);
    for (const line of text.split('\n')) {
      assert.ok(!heldOut.has(key(line.split('\t')[0] ?? '')), `${file} trains on the held-out sentence "${line.split('\t')[0]}"`);
    }
  }
});

test('the in-domain corpus: 3,000+ sentences of 3 to 30 words, each English once, its development split apart', () => {
  const train = corpusTrainingFiles().flatMap(readCorpus);
  const dev = readCorpus(join(corpusDir, 'dev.tsv'));
  assert.ok(train.length + dev.length >= 3000, `${train.length + dev.length} sentences`);
  assert.ok(dev.length >= 200, `development split of ${dev.length} sentences`);
  const seen = new Map();
  for (const p of [...train, ...dev]) {
    const n = words(p.en);
    assert.ok(n >= 3 && n <= 30, `"${p.en}" has ${n} words`);
    assert.ok(p.fr.trim() && p.zh.trim(), `"${p.en}" lacks a translation`);
    assert.ok(!/[\u4e00-\u9fff]/.test(p.fr) && /[\u4e00-\u9fff]/.test(p.zh), `"${p.en}": French and Chinese columns swapped or wrong`);
    assert.ok(!seen.has(key(p.en)), `"${p.en}" appears twice`);
    seen.set(key(p.en), p);
  }
  const trainKeys = new Set(train.map((p) => key(p.en)));
  for (const p of dev) assert.ok(!trainKeys.has(key(p.en)), `development sentence "${p.en}" is also a training sentence`);
});

// A long set (data/long/ or data/prose/, built as PREFIX.en-XX.tsv and
// PREFIX-dev.en-XX.tsv): 12 to 40 English words (mean 18 or more), each
// translated, each English once in data/ (besides the files of `before`),
// and its two parts built apart as the hash splits them. Returns the parts.
function checkLongSet(dir, prefix, before) {
  const all = corpusTrainingFiles(dir).flatMap(readCorpus);
  const train = all.filter((p) => !isLongDevelopment(p.en));
  const dev = all.filter((p) => isLongDevelopment(p.en));
  const lengths = all.map((p) => words(p.en));
  assert.ok(lengths.every((n) => n >= 12 && n <= 40), 'every English sentence has 12 to 40 words');
  const mean = lengths.reduce((a, b) => a + b, 0) / lengths.length;
  assert.ok(mean >= 18, `mean ${mean.toFixed(1)} words`);
  const seen = new Set(before.flatMap(readCorpus).map((p) => key(p.en)));
  for (const p of all) {
    assert.ok(p.fr.trim() && p.zh.trim(), `"${p.en}" lacks a translation`);
    assert.ok(!/[\u4e00-\u9fff]/.test(p.fr) && /[\u4e00-\u9fff]/.test(p.zh), `"${p.en}": French and Chinese columns swapped or wrong`);
    assert.ok(!/[,.?!;:]$/.test(p.zh), `"${p.en}": the Chinese ends with half-width punctuation`);
    assert.ok(!seen.has(key(p.en)), `"${p.en}" appears twice in data/`);
    seen.add(key(p.en));
  }
  const built = (file) => readFileSync(join(builtDir(), file), 'utf8').trim().split('\n').map((l) => l.split('\t')[0]);
  for (const language of ['fr', 'zh']) {
    assert.deepEqual(built(`${prefix}.en-${language}.tsv`), train.map((p) => p.en));
    assert.deepEqual(built(`${prefix}-dev.en-${language}.tsv`), dev.map((p) => p.en));
  }
  return { train, dev };
}

const corpusFiles = () => [...corpusTrainingFiles(), join(corpusDir, 'dev.tsv')];

test('the long corpus: 8,000+ sentences of 12 to 40 words (mean 18 or more), each English once in data/, its development split apart', () => {
  const { train, dev } = checkLongSet(longDir, 'long', corpusFiles());
  assert.ok(train.length + dev.length >= 8000, `${train.length + dev.length} sentences`);
  assert.ok(dev.length >= 500, `development split of ${dev.length} sentences`);
});

test('the second long set (data/prose/): 12 to 40 words (mean 18 or more), each English once in data/, its development split apart', {
  skip: existsSync(proseDir) ? false : 'no data/prose/ yet',
}, () => {
  checkLongSet(proseDir, 'prose', [...corpusFiles(), ...corpusTrainingFiles(longDir)]);
});

test('the glossary: 500+ entries, French with a gender for every noun, Chinese for every entry', () => {
  const glossary = readGlossary();
  assert.ok(glossary.length >= 500, `${glossary.length} entries`);
  const english = new Set();
  for (const e of glossary) {
    assert.ok(!english.has(e.english), `"${e.english}" twice`);
    english.add(e.english);
    assert.ok(e.french && e.chinese, `"${e.english}" lacks a translation`);
    assert.ok(['m', 'f', 'm.pl', 'f.pl', '-'].includes(e.gender), `"${e.english}": gender "${e.gender}"`);
    assert.equal(e.kind === 'noun', e.gender !== '-', `"${e.english}": a noun has a gender, nothing else does`);
  }
  for (const term of ['deep learning', 'encoder', 'decoder', 'attention mechanism', 'context vector', 'hidden state', 'softmax']) {
    assert.ok(english.has(term), `the chapter's term "${term}" is missing`);
  }
});

test('the built training files say where they come from, and CC-CEDICT keeps its licence', () => {
  for (const file of readdirSync(built).filter((f) => f.endsWith('.tsv'))) {
    const source = JSON.parse(readFileSync(join(built, `${file}.source.json`), 'utf8'));
    assert.ok(source.source && source.license && source.attribution, `${file}: ${JSON.stringify(source)}`);
  }
  assert.equal(JSON.parse(readFileSync(join(built, 'cedict.en-zh.tsv.source.json'), 'utf8')).license, 'CC BY-SA 4.0');
  const cedict = readFileSync(join(built, 'cedict.en-zh.tsv'), 'utf8').trim().split('\n');
  assert.ok(cedict.length > 100, `${cedict.length} CC-CEDICT pairs`);
  for (const line of cedict) assert.match(line, /^[a-z][a-z' -]*\t[\u4e00-\u9fff]+$/);
});

test('the long pairs are two training pairs joined, 12 to 30 (40) words, never a development sentence, the same every run', () => {
  const parts = new Map(); // English -> its translations (Tatoeba has several for some)
  for (const file of ['tatoeba-train.en-zh.tsv', 'domain.en-zh.tsv']) {
    for (const line of readFileSync(join(built, file), 'utf8').trim().split('\n')) {
      const [en, zh] = line.split('\t').map((x) => x.trim());
      parts.set(en, (parts.get(en) ?? new Set()).add(zh));
    }
  }
  const joins = (a, b, zh) => parts.has(a) && parts.has(b) && [...parts.get(a)].some((x) => zh.startsWith(x) && parts.get(b).has(zh.slice(x.length)));
  const devSources = new Set([
    ...readFileSync(join(built, 'tatoeba-dev.en-zh.txt'), 'utf8').trim().split('\n').map((l) => l.split('\t')[0].trim()),
    ...readCorpus(join(corpusDir, 'dev.tsv')).map((p) => p.en.trim()),
  ]);
  for (const [file, count, maxWords] of [['concat.en-zh.tsv', 8000, 30], ['concat16.en-zh.tsv', 16000, 40]]) {
    const lines = readFileSync(join(built, file), 'utf8').trim().split('\n');
    assert.equal(lines.length, count, file);
    for (const line of lines.slice(0, 2000)) {
      const [en, zh] = line.split('\t');
      const n = words(en);
      assert.ok(n >= 12 && n <= maxWords, `${file}: "${en}": ${n} words`);
      // Split after the first sentence's end mark: both halves are training pairs.
      const cut = [...en.matchAll(/[.!?]["')]? /g)].map((m) => m.index + m[0].length - 1)
        .find((at) => joins(en.slice(0, at), en.slice(at + 1), zh));
      assert.ok(cut !== undefined, `${file}: "${en}" is not two training pairs joined`);
      assert.ok(!devSources.has(en.slice(0, cut)) && !devSources.has(en.slice(cut + 1)), `${file}: "${en}" holds a development sentence`);
    }
  }
  const again = join(built, 'concat-again.tsv');
  run(process.execPath, [join(root, 'scripts', 'concat-pairs.mjs'), '--out', again, '--count', '8000', '--seed', '1',
    join(built, 'tatoeba-train.en-zh.tsv'), join(built, 'domain.en-zh.tsv')]);
  assert.equal(readFileSync(again, 'utf8'), readFileSync(join(built, 'concat.en-zh.tsv'), 'utf8'));
});
