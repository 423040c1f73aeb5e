// The ranges and defaults of model.translate's options, written once for the
// wrapper (index.js, which checks them and re-exports this table), the bin
// (bin/seq2seq-attention.js) and the demo page (web/app.js, which imports
// this file directly: it is plain data, with no WebAssembly behind it).
//
// They mirror the C++ decoder's DecodeOptions (src/decode/search.h), which
// checks every value again: the wrapper checks first so that a bad option
// gets a message in this API's own terms.
const range = (min, max, fallback, integer) => Object.freeze({ min, max, default: fallback, integer });

/** Each option of model.translate: { min, max, default, integer }. */
export const optionRanges = Object.freeze({
  // 1 = greedy decoding
  beamSize: range(1, 16, 1, true),
  // output tokens, <eos> included; null: 2 x source length + 10
  maxLength: range(1, 512, null, true),
  // top-k tokens reported at each output position
  alternatives: range(0, 50, 0, true),
  // GNMT length normalization alpha (Wu et al. 2016, eq. 14); beam search only
  lengthPenalty: range(0, 5, 1.0, false),
  // GNMT coverage penalty beta (same equation); beam search only
  coveragePenalty: range(0, 5, 0.2, false),
});
