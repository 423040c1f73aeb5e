// Tiny DOM builders. Every string child becomes a text node and every
// attribute goes through setAttribute, so text from the user (the sentence,
// the model's tokens) is always shown as text and never parsed as markup.
// Nothing in the page uses innerHTML.
import { lang, tIn } from './i18n/index.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

function build(element, attributes, children) {
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

/** Appends children: nodes, strings (as text), numbers, arrays; skips null/false. */
export function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** An HTML element: h('button', { class: 'x', onclick: f }, 'text'). */
export function h(tag, attributes, ...children) {
  return build(document.createElement(tag), attributes, children);
}

/** An SVG element, same signature as h. */
export function svg(tag, attributes, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attributes, children);
}

/** Replaces an element's children. */
export function replaceChildren(element, ...children) {
  element.replaceChildren();
  return append(element, children);
}

/** Special tokens of the model, shown differently from words. */
export const UNKNOWN_TOKEN = '<unk>';
export const END_TOKEN = '<eos>';

/** The class and tooltip (in `language`, default the page's) of a token: 'unk', 'eos' or ''. */
export function tokenKind(token, language = lang()) {
  if (token === UNKNOWN_TOKEN) return { kind: 'unk', title: tIn(language, 'token.unknown') };
  if (token === END_TOKEN) return { kind: 'eos', title: tIn(language, 'token.end') };
  if (token === WORD_MARKER) return { kind: 'space', title: tIn(language, 'token.space') };
  return { kind: '', title: null };
}

/** The marker of a subword piece that starts a word (U+2581, src/text/bpe.h). */
export const WORD_MARKER = '\u2581';
/** How the page shows the marker alone (a space before a piece that does not carry it): U+2423, the visible space. */
export const SPACE_LABEL = '\u2423';
/** What marks, on the page, a piece that continues the word before it. */
export const CONTINUATION_MARK = '\u00b7';

/**
 * How a token is shown: a subword piece without its word marker ("▁learn" as
 * "learn"), and with a leading "·" when it continues a word ("ing" as
 * "·ing"). Words and special tokens are shown as they are.
 */
export function pieceLabel(token, continuation = false) {
  if (token === WORD_MARKER) return SPACE_LABEL;
  const text = token.startsWith(WORD_MARKER) ? token.slice(WORD_MARKER.length) : token;
  return continuation ? `${CONTINUATION_MARK}${text}` : text;
}

/**
 * For each of a side's tokens, whether it continues a word, given the words
 * (spans of tokens, as every translation lists them): a token that is not
 * the first of its word, unless it is a special token (<unk>, <eos>), which
 * is never shown as a piece of a word (an unknown character after a lone
 * word marker). Without words every token is a word. The one rule of the
 * page's figures and chips and of the element.
 */
export function continuesWord(tokens, words) {
  const starts = new Set(words ? words.map((word) => word.start) : tokens.keys());
  return tokens.map((token, k) => !starts.has(k) && tokenKind(token).kind === '');
}

/** The labels of a side's tokens: "·ing" for a piece that continues a word ({@link continuesWord}). */
export function pieceLabels(tokens, words) {
  const continues = continuesWord(tokens, words);
  return tokens.map((token, k) => pieceLabel(token, continues[k]));
}

/** Triggers a download of a Blob under a file name. */
export function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = h('a', { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// Pointing at a token label of a figure (heatmap or lines) lights up its
// row ('row' axis: a target token) or column ('col': a source token), and
// tells the page through onLabel(axis, index | null).
export function hoverLabel(label, axis, index, { highlight, clear, onLabel }) {
  label.addEventListener('pointerenter', () => {
    highlight(axis === 'row' ? { row: index } : { col: index });
    onLabel?.(axis, index);
  });
  label.addEventListener('pointerleave', () => {
    clear();
    onLabel?.(axis, null);
  });
}
