// How well a model's own doubt separates its wrong output words from its
// right ones, on a development split: the table that chose the threshold
// under which the page marks a word as unsure (kUnsureWordProbability,
// src/decode/translator.h; models/README.md, "The model's doubt").
//
//   node scripts/doubt-table.mjs --model models/en-fr.s2s --data DEV.tsv [--data DEV2.tsv]
//        [--beam 4] [--thresholds 0.1,0.2,...] [--json]
//
// Each English sentence of DEV.tsv (English<TAB>reference, one line per
// reference) is translated once by the native CLI (`seq2seq translate
// --json`, the model's recorded penalties). An output word is *right* when
// every run of letters or digits in it occurs in one of the sentence's
// references (lowercased; for Chinese, every character), else *wrong*: a
// word-level reading of BLEU's unigram matches. Punctuation-only words and
// <eos> are left out. For each threshold: the share of words marked (word
// probability under it), how often a marked word is wrong, how often an
// unmarked one is, and the ratio of the two.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = process.env.S2S_CLI ?? join(root, 'build', 'native', 'seq2seq');

const runs = (text) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
// Chinese has no spaces: every Han character is its own unit.
const units = (text) => runs(text).flatMap((run) => (/\p{Script=Han}/u.test(run) ? [...run] : [run]));

/** English -> its references, in the order of the file. */
export function readDev(path) {
  const refs = new Map();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const [en, ref] = line.split('\t');
    if (ref === undefined) throw new Error(`${path}: a line without a tab; write English<TAB>reference`);
    if (!refs.has(en)) refs.set(en, []);
    refs.get(en).push(ref);
  }
  return refs;
}

/** The translations of `sources` by the native CLI, as its --json objects. */
export function translateAll(model, sources, beam) {
  const r = spawnSync(cli, ['translate', '--model', model, '--beam', String(beam), '--json'],
    { input: `${sources.join('\n')}\n`, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`seq2seq translate failed (${r.status}): ${r.stderr}`);
  return r.stdout.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

/** Every output word of `translations` as { probability, right }. */
export function judgedWords(translations, references) {
  const out = [];
  translations.forEach((t, k) => {
    const bag = new Set(references[k].flatMap(units));
    t.targetWords.forEach((word, w) => {
      const parts = units(word.text);
      if (parts.length === 0) return;  // punctuation, <eos>
      out.push({ probability: t.wordProbabilities[w], right: parts.every((p) => bag.has(p)) });
    });
  });
  return out;
}

/** The doubt table of `model` on `refs` (English -> references) at `thresholds`. */
export function measureDoubt(model, refs, thresholds, beam = 4) {
  const sources = [...refs.keys()];
  const translations = translateAll(model, sources, beam);
  return doubtTable(judgedWords(translations, sources.map((s) => refs.get(s))), thresholds);
}

/** The separation at each threshold. */
export function doubtTable(words, thresholds) {
  return thresholds.map((threshold) => {
    const marked = words.filter((w) => w.probability < threshold);
    const unmarked = words.filter((w) => !(w.probability < threshold));
    const wrong = (list) => (list.length ? list.filter((w) => !w.right).length / list.length : 0);
    const markedWrong = wrong(marked);
    const unmarkedWrong = wrong(unmarked);
    return {
      threshold, words: words.length, marked: marked.length / Math.max(words.length, 1),
      markedWrong, unmarkedWrong, ratio: unmarkedWrong > 0 ? markedWrong / unmarkedWrong : null,
      // Of the wrong words, the share marked (how many errors the marks catch).
      wrongCaught: words.filter((w) => !w.right).length ? marked.filter((w) => !w.right).length / words.filter((w) => !w.right).length : 0,
    };
  });
}

async function main() {
  const { values } = parseArgs({ options: {
    model: { type: 'string' }, data: { type: 'string', multiple: true }, beam: { type: 'string', default: '4' },
    thresholds: { type: 'string', default: '0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8' }, json: { type: 'boolean', default: false },
  } });
  if (!values.model || !values.data?.length) {
    console.error('usage: node scripts/doubt-table.mjs --model models/NAME.s2s --data DEV.tsv [--data ...] [--beam 4] [--json]');
    process.exit(2);
  }
  const thresholds = values.thresholds.split(',').map(Number);
  const report = {};
  for (const path of values.data) {
    report[path] = measureDoubt(values.model, readDev(path), thresholds, Number(values.beam));
  }
  if (values.json) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  for (const [path, rows] of Object.entries(report)) {
    console.log(`\n${values.model} on ${path} (beam ${values.beam}, ${rows[0].words} output words)`);
    console.log('| threshold | words marked | marked wrong | unmarked wrong | ratio | wrong words marked |');
    console.log('|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      console.log(`| ${r.threshold} | ${pct(r.marked)} | ${pct(r.markedWrong)} | ${pct(r.unmarkedWrong)} | ${r.ratio === null ? '–' : r.ratio.toFixed(2)} | ${pct(r.wrongCaught)} |`);
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
