// Writes long training pairs made of two shorter ones, the "sentence
// concatenation" augmentation (Kondo et al., 2021; Nguyen et al., 2021):
// Tatoeba's pairs are mostly short, so a model sees few sources of 12 words
// or more; two training pairs joined end to end give it long sources whose
// attention has to move over the whole sentence, with real translations.
//   node scripts/concat-pairs.mjs --out FILE.tsv --count N [--seed S]
//        [--min-words 12] [--max-words 30] [--join ''|' '] TRAIN.tsv...
// TRAIN files are training pairs only ("English<TAB>translation"): a
// model's training split (`seq2seq split --train-output`) and the domain
// corpus's training file, never a development file. The output depends on
// the inputs and the seed alone, so a resumed run reads the same file.
// With --development the inputs are a development split instead and the
// output is a development set of long sentences, for measuring only
// (models/README.md, "Long joined sentences"); never pass it to training.
// A PATH.source.json sidecar names the sources (Tatoeba, CC-BY 2.0 FR, and
// the project's own data), as the model's provenance copies it.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { readPairs, writePairs } from './domain-data.mjs';

/** A small seeded generator (mulberry32): the same seed, the same pairs. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const words = (s) => s.trim().split(/\s+/).length;
// A source that ends a sentence can be followed by another one.
const ends = (s) => /[.!?]["')]?$/.test(s.trim());

/**
 * `count` pairs, each two distinct input pairs joined (English with a space,
 * the translation with `join`), whose English has minWords to maxWords words.
 */
export function concatPairs(pairs, { count, seed = 1, minWords = 12, maxWords = 30, join = '' }) {
  const usable = pairs.filter(([en, t]) => en && t && ends(en));
  if (usable.length < 2) throw new Error('concat-pairs: fewer than two usable training pairs; pass training files of "English<TAB>translation" lines');
  const next = random(seed);
  const out = [];
  const seen = new Set();
  for (let tries = 0; out.length < count && tries < count * 50; tries++) {
    const a = usable[Math.floor(next() * usable.length)];
    const b = usable[Math.floor(next() * usable.length)];
    if (a === b || a[0] === b[0]) continue;
    const en = `${a[0].trim()} ${b[0].trim()}`;
    const n = words(en);
    if (n < minWords || n > maxWords || seen.has(en)) continue;
    seen.add(en);
    out.push([en, `${a[1].trim()}${join}${b[1].trim()}`]);
  }
  if (out.length < count) throw new Error(`concat-pairs: only ${out.length} of ${count} pairs of ${minWords}-${maxWords} words; lower --count or widen the range`);
  return out;
}

function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      out: { type: 'string' }, count: { type: 'string', default: '8000' }, seed: { type: 'string', default: '1' },
      'min-words': { type: 'string', default: '12' }, 'max-words': { type: 'string', default: '30' },
      join: { type: 'string', default: '' }, development: { type: 'boolean', default: false },
    },
  });
  if (!values.out || positionals.length === 0) {
    console.error('usage: node scripts/concat-pairs.mjs --out FILE.tsv --count N [--seed S] [--join ""] [--development] TRAIN.tsv...');
    process.exit(2);
  }
  const pairs = positionals.flatMap(readPairs);
  const out = concatPairs(pairs, {
    count: Number(values.count), seed: Number(values.seed), minWords: Number(values['min-words']),
    maxWords: Number(values['max-words']), join: values.join,
  });
  const kind = values.development ? 'development' : 'training';
  writePairs(values.out, out, {
    source: `two ${kind} pairs joined end to end (scripts/concat-pairs.mjs): Tatoeba (tatoeba.org, via manythings.org/anki) and the seq2seq-attention project's data/`,
    license: 'CC-BY 2.0 FR (Tatoeba); CC BY 4.0 (the project\'s data)',
    attribution: 'Tatoeba contributors; the seq2seq-attention authors',
  });
  console.log(`wrote ${values.out}: ${out.length} pairs of ${values['min-words']}-${values['max-words']} English words from ${pairs.length} ${kind} pairs`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) main();
