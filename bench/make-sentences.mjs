// Writes bench/sentences.json: the benchmark's English sentences, in four
// buckets of about 5, 10, 20 and 40 words, all from the en-fr development
// split (held out from training, as tests/fixtures/en-fr-dev.tsv):
//
//   node bench/make-sentences.mjs   (needs ../shared/data/fra-eng.txt and build/native/seq2seq)
//
// The split has few long sentences (3,775 sentences: ten of 18 to 25 words,
// one of 43), so the "20" bucket takes sentences of 18 to 25 words and the
// "40" bucket is the one real 43-word sentence plus pairs of the 18-to-25-word
// sentences joined into one input (36 to 50 words). The en-fr model was
// trained on sources of at most 40 words, so the "40" bucket measures speed,
// not translation quality. Words are counted as whitespace-separated words of
// the English text; the benchmark's words/s counts the model's source tokens
// (punctuation included, <eos> excluded), as `seq2seq bench` does.
//
// The sentences come from the Tatoeba Project (tatoeba.org, via
// manythings.org/anki), licensed CC-BY 2.0 France.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const data = process.env.S2S_DATA_DIR ? join(process.env.S2S_DATA_DIR, 'fra-eng.txt') : join(root, '..', 'shared', 'data', 'fra-eng.txt');
const work = mkdtempSync(join(tmpdir(), 's2s-bench-split-'));
const devPath = join(work, 'dev.tsv');
const r = spawnSync(join(root, 'build', 'native', 'seq2seq'),
  ['split', '--data', data, '--dev-fraction', '0.04', '--split-seed', '1', '--dev-output', devPath], { encoding: 'utf8' });
if (r.status !== 0) throw new Error(`seq2seq split failed: ${r.stderr}`);
const english = [...new Set(readFileSync(devPath, 'utf8').split('\n').map((line) => line.split('\t')[0].trim()).filter(Boolean))];
rmSync(work, { recursive: true, force: true });

const words = (s) => s.split(/\s+/).filter(Boolean).length;
// n sentences spread evenly over a list (deterministic).
const spread = (list, n) => (list.length <= n ? list : Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]));

const PER_BUCKET = 8;
const long = english.filter((s) => words(s) >= 18 && words(s) <= 25);
const veryLong = english.filter((s) => words(s) >= 36);
const joined = [];
for (let i = 0; i + 1 < long.length && joined.length + veryLong.length < PER_BUCKET; i += 2) joined.push(`${long[i]} ${long[i + 1]}`);
const buckets = [
  { name: '5', note: 'dev sentences of exactly 5 words', sentences: spread(english.filter((s) => words(s) === 5), PER_BUCKET) },
  { name: '10', note: 'dev sentences of exactly 10 words', sentences: spread(english.filter((s) => words(s) === 10), PER_BUCKET) },
  { name: '20', note: `dev sentences of 18 to 25 words (all ${long.length} the split has, up to ${PER_BUCKET})`, sentences: spread(long, PER_BUCKET) },
  { name: '40', note: `the split's ${veryLong.length} real sentence(s) of 36+ words, plus ${joined.length} inputs that join two 18-to-25-word dev sentences`, sentences: [...veryLong, ...joined] },
];
for (const b of buckets) b.words = b.sentences.map(words);
const out = {
  description: 'English sentences of the en-fr development split (fra-eng.txt, --dev-fraction 0.04 --split-seed 1), by length; written by bench/make-sentences.mjs',
  attribution: 'Tatoeba.org and manythings.org/anki, CC-BY 2.0 France',
  buckets,
};
writeFileSync(join(root, 'bench', 'sentences.json'), `${JSON.stringify(out, null, 2)}\n`);
for (const b of buckets) console.log(`${b.name}: ${b.sentences.length} sentences, words ${b.words.join(' ')}`);
