// Misspelt copies of English sources, so that a model learns to read what
// people type: one word per sentence with two neighbouring letters swapped,
// one letter dropped or one doubled (the typing errors of Damerau, 1964),
// the translation unchanged. Noise in the source is the training-side
// remedy of Belinkov and Bisk (2018) and Karpukhin et al. (2019) for
// models that turn a typo into nonsense.
//
//   node scripts/noise-pairs.mjs --out FILE.tsv --count N [--seed S] TRAIN.tsv...
//       N training pairs drawn from TRAIN files, each with one word misspelt:
//       a training file for `seq2seq train --extra-data` (with its sidecar).
//   node scripts/noise-pairs.mjs --development --out FILE.tsv [--seed S] DEV.tsv
//       every English sentence of a development split with one word misspelt
//       (the same for all its references), for measuring only
//       (models/README.md, "Misspellings"); never train on it.
// The output depends on the inputs and the seed alone.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { random } from './concat-pairs.mjs';
import { OWN_DATA, readPairs, writePairs } from './domain-data.mjs';

// A word worth misspelling: four letters or more (a typo in "a" or "is"
// changes the word, not its spelling).
const SPELLABLE = /^\p{L}{4,}$/u;

/**
 * `sentence` with one word misspelt (`next` a generator of [0, 1)): two
 * neighbouring letters swapped, one dropped or one doubled. A sentence
 * without a word of four letters comes back unchanged.
 */
export function misspell(sentence, next) {
  const tokens = sentence.split(/(\s+)/);
  const candidates = tokens.map((t, i) => [t.replace(/[^\p{L}]+$/u, ''), i]).filter(([w]) => SPELLABLE.test(w));
  if (candidates.length === 0) return sentence;
  const [word, at] = candidates[Math.floor(next() * candidates.length)];
  const letters = [...word];
  const kind = Math.floor(next() * 3);
  // Never the first letter: people rarely mistype it, and it keeps a capital.
  const k = 1 + Math.floor(next() * (letters.length - 1));
  let typed;
  if (kind === 0 && k + 1 < letters.length && letters[k] !== letters[k + 1]) {
    typed = [...letters.slice(0, k), letters[k + 1], letters[k], ...letters.slice(k + 2)];
  } else if (kind === 1 || kind === 0) {
    typed = [...letters.slice(0, k), ...letters.slice(k + 1)];
  } else {
    typed = [...letters.slice(0, k + 1), letters[k], ...letters.slice(k + 1)];
  }
  tokens[at] = typed.join('') + tokens[at].slice(word.length);
  return tokens.join('');
}

/**
 * A development split's pairs with one word of each distinct English
 * sentence misspelt, the same misspelling for all its references (the
 * measurement's input: scripts/misspelling-table.mjs).
 */
export function misspeltDevelopment(pairs, next) {
  const typed = new Map();
  return pairs.map(([en, t]) => {
    if (!typed.has(en)) typed.set(en, misspell(en, next));
    return [typed.get(en), t];
  });
}

async function main() {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: {
    out: { type: 'string' }, count: { type: 'string' }, seed: { type: 'string', default: '1' },
    development: { type: 'boolean', default: false },
  } });
  if (!values.out || positionals.length === 0 || (!values.development && !values.count)) {
    console.error('usage: node scripts/noise-pairs.mjs --out FILE.tsv --count N [--seed S] TRAIN.tsv...\n' +
      '       node scripts/noise-pairs.mjs --development --out FILE.tsv [--seed S] DEV.tsv');
    process.exit(2);
  }
  const next = random(Number(values.seed));
  const pairs = positionals.flatMap(readPairs);
  let out;
  if (values.development) {
    out = misspeltDevelopment(pairs, next);
  } else {
    const count = Number(values.count);
    out = [];
    for (let tries = 0; out.length < count && tries < count * 20; tries++) {
      const [en, t] = pairs[Math.floor(next() * pairs.length)];
      const noisy = misspell(en, next);
      if (noisy !== en) out.push([noisy, t]);
    }
  }
  const what = values.development ? 'development' : 'training';
  // The pairs copied are Tatoeba's and the project's own (scripts/train.sh
  // passes nothing else), credited as scripts/concat-pairs.mjs credits them.
  writePairs(values.out, out, {
    source: `misspelt copies (scripts/noise-pairs.mjs, seed ${values.seed}) of ${what} pairs from: ${positionals.join(', ')}`,
    license: 'CC-BY 2.0 FR (Tatoeba); CC BY 4.0 (the project\'s data)',
    attribution: `Tatoeba contributors; ${OWN_DATA.attribution}`,
  });
  console.log(`wrote ${values.out}: ${out.length} pairs, one word misspelt in each`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
