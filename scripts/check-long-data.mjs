// Checks the long, textbook-register corpus (data/long/NN-topic.tsv) and the
// second long set (data/prose/NN-topic.tsv) as they are written: node
// scripts/check-long-data.mjs [FILE...] (default: every data/long/*.tsv and
// data/prose/*.tsv). Each line English<TAB>French<TAB>Chinese; English of 12
// to 40 words; no English sentence twice in data/long/ or data/corpus/; no
// sentence the tests hold out, nor the chapter's example. Prints one line per
// problem (file:line: what, and the fix) and a summary; exits 1 on a problem.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const longDir = join(root, 'data', 'long');
const corpusDir = join(root, 'data', 'corpus');
const proseDir = join(root, 'data', 'prose');

// Never in training data: the chapter's example (any near variant) and the
// sentences that tests and issues use to show what a model learned.
export const FORBIDDEN_PHRASES = ['love deep learning', 'like deep learning', '爱深度学习', '喜欢深度学习'];
export const HELD_OUT_SENTENCES = [
  'I love deep learning.',
  'The encoder reads the whole sentence.',
  'Neural networks learn from data.',
  'The context vector changes at every step.',
  'The context vector is a weighted sum of the hidden states.',
  'Attention lets the decoder look at every word of the input sentence.',
  'The students who studied hard for the exam last week were very happy when the teacher told them that everyone had passed.',
  'I beleive that machine translaton is very usefull.',
  'Barack Obama visited Paris in 2015.',
];
export const sentenceKey = (s) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
export const englishWords = (s) => s.split(/\s+/).filter(Boolean).length;

function filesIn(dir) {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.tsv')).sort().map((f) => join(dir, f)) : [];
}

function main() {
  const targets = process.argv.slice(2).length ? process.argv.slice(2).map((f) => resolve(f)) : [...filesIn(longDir), ...filesIn(proseDir)];
  const problems = [];
  const seen = new Map();  // English key -> where
  for (const file of filesIn(corpusDir)) {
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (line.trim()) seen.set(sentenceKey(line.split('\t')[0]), `${file}:${i + 1}`);
    });
  }
  const heldOut = new Set(HELD_OUT_SENTENCES.map(sentenceKey));
  let count = 0;
  let totalWords = 0;
  const all = [...new Set([...filesIn(longDir), ...filesIn(proseDir), ...targets])];
  for (const file of all) {
    const report = targets.includes(file);
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      const where = `${file}:${i + 1}`;
      const bad = (what) => { if (report) problems.push(`${where}: ${what}`); };
      const cols = line.split('\t');
      if (cols.length !== 3) return bad(`${cols.length} columns; write English<TAB>French<TAB>Chinese`);
      const [en, fr, zh] = cols.map((c) => c.trim());
      if (!en || !fr || !zh) return bad('an empty column');
      const n = englishWords(en);
      if (n < 12 || n > 40) bad(`English has ${n} words; write 12 to 40`);
      const k = sentenceKey(en);
      if (seen.has(k)) bad(`English sentence already at ${seen.get(k)}; write another`);
      seen.set(k, where);
      if (heldOut.has(k)) bad('a held-out test sentence; never train on it');
      const lower = line.toLowerCase();
      for (const p of FORBIDDEN_PHRASES) if (lower.includes(p)) bad(`contains "${p}" (the chapter's example); write another`);
      if (!/[\u4e00-\u9fff]/.test(zh)) bad('the Chinese column has no Chinese characters');
      if (/[,.?!:;]$/.test(zh) || /[\u4e00-\u9fff][,?!;:]/.test(zh)) bad('Chinese uses full-width punctuation (，。？！：；)');
      if (/[\u2019\u2018]/.test(fr)) bad('French uses straight apostrophes (\')');
      if (/[\u4e00-\u9fff]/.test(fr) || /[\u4e00-\u9fff]/.test(en)) bad('Chinese characters in the English or French column');
      if (report) { count++; totalWords += n; }
    });
  }
  for (const p of problems) console.log(p);
  console.log(`${count} sentences in ${targets.length} file(s), mean ${(totalWords / Math.max(count, 1)).toFixed(1)} English words; ${problems.length} problem(s)`);
  process.exit(problems.length ? 1 : 0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
