// Attention word by word, from the attention between subword pieces.
//
// A subword model (src/text/bpe.h) reads and writes pieces: "deep learning"
// may be "▁deep ▁learn ing". Every translation also lists its words, each a
// span of pieces (sourceWords, targetWords: { text, start, end }, tokens
// [start, end)). This turns the piece matrix into a word matrix:
//   - a source word's column is the SUM of its pieces' columns: how much of
//     the step's attention went to any piece of that word;
//   - a target word's row is the MEAN of its pieces' rows: the word's pieces
//     were written one step each, and each step's row sums to 1.
// So every row of the result still sums to 1. For a word-level model every
// token is its own word and the matrix comes back unchanged.
//
// Plain JavaScript with no WebAssembly behind it: index.js re-exports it and
// the demo page (web/demo/app.js) imports this file directly.
import { UsageError, describeValue } from './errors.js';

/**
 * result: { sourceWords, targetWords, attention } (a translation, or a
 * hypothesis with the translation's sourceWords). Returns { sourceWords,
 * targetWords, attention } with attention[i][j] = target word i's weight on
 * source word j. Throws an Error naming the problem for anything else.
 */
export function wordAttention(result) {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) {
    throw new UsageError('wordAttention(result): result must be a translation from model.translate() (or a hypothesis ' +
      `with the translation's sourceWords), but got ${describeValue(result)}`);
  }
  const { sourceWords, targetWords, attention } = result;
  const isRow = (row) => Array.isArray(row) || row instanceof Float32Array || row instanceof Float64Array;
  if (!Array.isArray(attention) || !attention.every(isRow)) {
    throw new UsageError('wordAttention: result.attention must be an array of rows (Float32Array[] as translate gives, or number[][]), ' +
      `but got ${describeValue(attention)}`);
  }
  const sources = copySpans(sourceWords, 'sourceWords');
  const targets = copySpans(targetWords, 'targetWords');
  // The fixed-context baseline has no attention to regroup.
  if (attention.length === 0) return { sourceWords: sources, targetWords: targets, attention: [] };

  const columns = attention[0].length;
  attention.forEach((row, i) => {
    if (row.length !== columns) {
      throw new UsageError(`wordAttention: attention row ${i} has ${row.length} columns but row 0 has ${columns}`);
    }
  });
  checkCover(sources, columns, 'sourceWords', 'source tokens (attention columns)');
  checkCover(targets, attention.length, 'targetWords', 'target tokens (attention rows)');

  const words = targets.map(({ start, end }) => {
    const row = new Array(sources.length).fill(0);
    for (let i = start; i < end; i += 1) {
      const pieces = attention[i];
      sources.forEach((word, j) => {
        for (let k = word.start; k < word.end; k += 1) row[j] += pieces[k];
      });
    }
    const count = end - start;
    return row.map((sum) => sum / count);
  });
  return { sourceWords: sources, targetWords: targets, attention: words };
}

function copySpans(words, name) {
  if (!Array.isArray(words)) {
    throw new UsageError(`wordAttention: result.${name} must be an array of { text, start, end } (translations have it), ` +
      `but got ${describeValue(words)}`);
  }
  return words.map((word, k) => {
    if (word === null || typeof word !== 'object' || typeof word.text !== 'string' ||
        !Number.isInteger(word.start) || !Number.isInteger(word.end)) {
      throw new UsageError(`wordAttention: ${name}[${k}] must be { text, start, end }, but got ${describeValue(word)}`);
    }
    return { text: word.text, start: word.start, end: word.end };
  });
}

// The spans must tile tokens [0, count) in order, each non-empty.
function checkCover(words, count, name, what) {
  let next = 0;
  words.forEach(({ start, end }, k) => {
    if (start !== next || end <= start) {
      throw new UsageError(`wordAttention: ${name}[${k}] spans tokens [${start}, ${end}) but should start at ${next} ` +
        'and hold at least one token: the words must cover the tokens in order, each exactly once');
    }
    next = end;
  });
  if (next !== count) {
    throw new UsageError(`wordAttention: ${name} cover ${next} tokens but there are ${count} ${what}`);
  }
}
