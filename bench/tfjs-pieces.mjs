// The TF.js peer's reading of English text into the model's source tokens,
// written as a tutorial author would from the model file's header alone:
// words for word-level models; for subword models (header
// source_tokenizer.kind 'bpe') normalize, cut into pre-tokens, and apply the
// header's merges, lowest rank first. It follows the rules src/text/bpe.h
// documents for English sources (no French elisions, no Chinese runs);
// tests/js/tfjs-peer.test.mjs checks it gives the WASM build's source
// tokens on every sentence it compares.

export const WORD_MARKER = '\u2581';

// Punctuation as src/text/tokenizer.cpp's is_punctuation_code_point counts it.
function isPunctuation(cp) {
  if (cp < 0x80) return (cp >= 0x21 && cp <= 0x2f) || (cp >= 0x3a && cp <= 0x40) || (cp >= 0x5b && cp <= 0x60) || (cp >= 0x7b && cp <= 0x7e);
  if ([0xa1, 0xa7, 0xab, 0xb6, 0xb7, 0xbb, 0xbf, 0x30fb].includes(cp)) return true;
  return (cp >= 0x2010 && cp <= 0x2027) || (cp >= 0x2030 && cp <= 0x205e) || (cp >= 0x3001 && cp <= 0x3003) ||
    (cp >= 0x3008 && cp <= 0x3011) || (cp >= 0x3014 && cp <= 0x301f) || (cp >= 0xff01 && cp <= 0xff0f) ||
    (cp >= 0xff1a && cp <= 0xff20) || (cp >= 0xff3b && cp <= 0xff40) || (cp >= 0xff5b && cp <= 0xff65);
}

function isCjk(cp) {
  return (cp >= 0x2e80 && cp <= 0x2fdf) || (cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0x20000 && cp <= 0x2ffff);
}

const isDigit = (c) => c >= '0' && c <= '9';

/** Lowercase, ’ as ', runs of whitespace as one space, no space at either end. */
export function normalizeText(text) {
  return text.toLowerCase().replaceAll('\u2019', "'").replaceAll(WORD_MARKER, '_').split(/\s+/u).filter(Boolean).join(' ');
}

/** Pre-tokens of normalized English text, each with the marker when a space (or the start) comes before it. */
export function preTokens(normalized) {
  const chars = [...normalized];
  const out = [];
  let word = null;
  let spaceBefore = true;
  const flush = () => { if (word !== null) out.push(word); word = null; };
  const isWordChar = (c) => c !== ' ' && !isPunctuation(c.codePointAt(0)) && !isCjk(c.codePointAt(0));
  for (let i = 0; i < chars.length; ++i) {
    const c = chars[i];
    if (c === ' ') { flush(); spaceBefore = true; continue; }
    const cp = c.codePointAt(0);
    let separate = isPunctuation(cp) || isCjk(cp);
    const prev = i > 0 && chars[i - 1] !== ' ' ? chars[i - 1] : null;
    const next = i + 1 < chars.length ? chars[i + 1] : null;
    if ((c === '.' || c === ',') && prev && next && isDigit(prev) && isDigit(next)) separate = false;  // 3.50
    if (c === "'" && prev && next && isWordChar(prev) && isWordChar(next) && word !== null) separate = false;  // don't
    if (separate) {
      flush();
      out.push((spaceBefore ? WORD_MARKER : '') + c);
      spaceBefore = false;
      continue;
    }
    if (word === null) word = spaceBefore ? WORD_MARKER : '';
    word += c;
    spaceBefore = false;
  }
  flush();
  return out;
}

/** A BPE encoder from the header's merges ("left right", in the order they were learned). */
export function bpeEncoder(merges) {
  const rank = new Map();
  merges.forEach((merge, i) => { if (!rank.has(merge)) rank.set(merge, i); });
  return (preToken) => {
    let symbols = [...preToken];
    while (symbols.length > 1) {
      let best = -1;
      for (let i = 0; i + 1 < symbols.length; ++i) {
        const r = rank.get(`${symbols[i]} ${symbols[i + 1]}`);
        if (r !== undefined && (best < 0 || r < best)) best = r;
      }
      if (best < 0) break;
      const [left, right] = merges[best].split(' ');
      const merged = [];
      for (let i = 0; i < symbols.length; ++i) {
        if (i + 1 < symbols.length && symbols[i] === left && symbols[i + 1] === right) merged.push(symbols[i] + symbols[++i]);
        else merged.push(symbols[i]);
      }
      symbols = merged;
    }
    return symbols;
  };
}
