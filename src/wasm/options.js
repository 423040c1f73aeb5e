// The ranges and defaults of model.translate's options: the one place the
// JavaScript side writes them. The wrapper checks options against them
// (translation.js) and index.js re-exports this table; the bin
// (bin/seq2seq-attention.js) and the demo page (web/, which imports this file
// directly: it is plain data, with no WebAssembly behind it) read them here.
//
// Where they meet C++: the decoder's own limits are DecodeOptions in
// src/decode/search.h (kMaxBeamSize, kMaxLength, kMaxPenalty, the default
// penalties; alternatives in search.cpp), which checks every value again.
// Until the C++ side exports them, tests/js/limits.test.mjs checks that the
// raw module accepts each maximum here and refuses one step past it. The
// wrapper checks first so that a bad option gets a message in this API's
// own terms.
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
