// What the demo page's result figure and chips show (figure-view.js): the
// selected hypothesis, and its rows and columns as units, pieces or words
// (the unit switch, state.unit), with the words the reader typed for the
// source's unknown tokens. Data only: nothing here touches the page.
import { WORD_MARKER, continuesWord, pieceLabel } from '../figures/dom.js';
import { page, state } from './page-state.js';

/** The hypothesis the reader picked (state.hyp), or the best one. */
export function selectedHypothesis() {
  const { result } = state;
  return result.hypotheses[state.hyp] ?? result.hypotheses[0] ?? result;
}

// Every token its own word: results without word spans (none today).
export const tokensAsWords = (tokens) => tokens.map((text, k) => ({ text, start: k, end: k + 1 }));

// A row or column of the figure (and its chip). Pieces view: one token, with
// `token` the piece as the model wrote it. Words view: one word, with
// `token` its text. Either way [start, end) are its tokens, and `label` is
// what the page shows: a piece without its marker, "·ing" inside a word.
//   { token, label, start, end, continuation }
// A special token (<unk>, <eos>) is never shown as a continuation, even when
// it sits inside a word (an unknown character after a lone word marker).
export function pieceUnits(tokens, words) {
  const continues = continuesWord(tokens, words);
  return tokens.map((token, k) => ({ token, label: pieceLabel(token, continues[k]), start: k, end: k + 1, continuation: continues[k] }));
}

function wordUnits(words) {
  return words.map(({ text, start, end }) => ({ token: text, label: text, start, end, continuation: false }));
}

// What the figure and the chips show, in the current unit (state.unit).
export function figureData() {
  const { result } = state;
  const hypothesis = selectedHypothesis();
  const sourceWords = result.sourceWords ?? tokensAsWords(result.sourceTokens);
  const targetWords = hypothesis.targetWords ?? tokensAsWords(hypothesis.targetTokens);
  const attention = hypothesis.attention ?? [];
  if (state.unit === 'words') {
    const words = page.wordAttention({ sourceWords, targetWords, attention });
    return { source: wordUnits(words.sourceWords), target: wordUnits(words.targetWords), attention: words.attention };
  }
  return { source: pieceUnits(result.sourceTokens, sourceWords), target: pieceUnits(hypothesis.targetTokens, targetWords), attention };
}

/**
 * The part of the hypothesis's text written by its first `tokens` tokens
 * ("write it step by step" shows only that much, never the translation to
 * come): each word found in the text in turn, a word cut short after the
 * pieces written so far. The whole text once every word is written.
 */
export function writtenText(hypothesis, tokens) {
  const text = hypothesis.text ?? '';
  const words = hypothesis.targetWords ?? tokensAsWords(hypothesis.targetTokens);
  if (words.every((word) => word.end <= tokens)) return text;
  const lower = text.toLowerCase();
  let cursor = 0;
  let end = 0;
  for (const word of words) {
    if (word.start >= tokens) break;
    const at = lower.indexOf(word.text.toLowerCase(), cursor);
    if (at < 0) break;  // a word the text writes otherwise (a name kept as typed): stop before it
    if (word.end <= tokens) {
      end = at + word.text.length;
      cursor = end;
      continue;
    }
    const written = hypothesis.targetTokens.slice(word.start, tokens).join('').replaceAll(WORD_MARKER, '').length;
    end = at + Math.min(written, word.text.length);
    break;
  }
  return text.slice(0, end);
}

// The words of `hypothesis` the model was unsure of (the core's unsureWords:
// word probability under the package's unsureWordProbability), each with its
// probability.
export function unsureWordsOf(hypothesis) {
  const words = hypothesis.targetWords ?? [];
  return (hypothesis.unsureWords ?? []).map((w) => ({ ...words[w], probability: hypothesis.wordProbabilities?.[w] ?? null }))
    .filter((w) => w.text !== undefined);
}

// The words of `hypothesis` copied from the source (the core's copiedWords:
// a name or number the model had no translation for, written as typed where
// its attention pointed; the API's keepNames).
export function copiedWordsOf(hypothesis) {
  const words = hypothesis.targetWords ?? [];
  return (hypothesis.copiedWords ?? []).map((w) => words[w]).filter((w) => w !== undefined);
}
