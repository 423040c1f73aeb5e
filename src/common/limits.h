// The limits of a translation request, each defined here and nowhere else:
// how many source tokens are read, how wide a beam, how long an output, how
// many alternatives, how strong a penalty. The translator (translator.cpp),
// the option table (option_ranges.h: the ranges that decode() checks and
// that the JavaScript side receives, generated into dist/options.js) and the
// CLI's flags read them from here.
#pragma once

namespace s2s {

// Source tokens read, <eos> included. Longer inputs are cut (and flagged:
// Translation::truncated), so no input can make a translation take unbounded
// time or memory.
inline constexpr int kMaxSourceTokens = 200;
// DecodeOptions::beam_size, from 1 (greedy). A beam wider than this only
// costs time at this model size.
inline constexpr int kMaxBeamSize = 16;
// DecodeOptions::max_length, output tokens with <eos> (0 = automatic: 2 x
// the source length + 10, capped here too). A hard cap: no input can make
// decoding run away; outputs with a forced prefix are cut here too.
inline constexpr int kMaxOutputLength = 512;
// Without a max_length, a translation may have 2 x the source's tokens + 10
// (translations here are rarely more than twice as long as their source;
// the constant leaves room for short sources with long outputs).
inline constexpr int kDefaultMaxLengthPerSourceToken = 2;
inline constexpr int kDefaultMaxLengthExtra = 10;
// DecodeOptions::alternatives: the most likely tokens listed per position.
inline constexpr int kMaxAlternatives = 50;
// DecodeOptions::length_penalty (alpha) and coverage_penalty (beta), from 0
// (off): beyond this either one decides the ranking alone.
inline constexpr float kMaxPenalty = 5.0f;
// DecodeOptions::temperature (tau in a_t = softmax(e_t / tau)): at 0.05 the
// weights are nearly one-hot (hard alignment), at 20 nearly uniform (close
// to averaging all states, like the fixed context). 1 is the trained model.
inline constexpr double kMinTemperature = 0.05;  // double: exported as written, 0.05
inline constexpr double kMaxTemperature = 20.0;

}  // namespace s2s
