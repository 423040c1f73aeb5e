// Text in, translation out: tokenization, decoding and detokenization around
// a Model, with the result in the shape every client uses (CLI --json, the
// WASM bindings, the page).
#pragma once

#include "decode/limits.h"
#include "decode/search.h"
#include "model/model.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace s2s {

struct TranslationHypothesis {
    std::string text;                          // detokenized, without <eos>
    std::vector<std::string> target_tokens;    // as the model wrote them, with "<eos>" last when finished
    std::vector<WordSpan> target_words;        // the words of target_tokens (spans of pieces)
    std::vector<std::vector<float>> attention; // rows = target tokens, columns = source tokens, rows sum to 1;
                                               // empty for the fixed-context baseline
    std::vector<std::vector<std::pair<std::string, float>>> alternatives;  // per target token, when asked
    double score = 0.0;                        // length-normalized log probability
    double log_prob = 0.0;
    bool finished = true;
};

struct Translation {
    std::vector<std::string> source_tokens;    // as the model read them: unknown pieces are "<unk>", "<eos>" last
    std::vector<WordSpan> source_words;        // the words of source_tokens (spans of pieces)
    std::vector<TranslationHypothesis> hypotheses;  // best first; empty for empty input
    bool truncated = false;                    // the input was cut to kMaxSourceTokens (limits.h)
    const TranslationHypothesis* best() const { return hypotheses.empty() ? nullptr : &hypotheses.front(); }
};

// Any text is accepted: invalid UTF-8 is repaired, empty input gives an
// empty translation, and an input longer than kMaxSourceTokens is cut.
// forced_prefix in options is in target token ids; see translate_with_prefix
// for words.
Translation translate(const Model& model, const std::string& text, const DecodeOptions& options);

// The page's "what if": force the first target tokens (as words) and decode
// the rest. Unknown words are an InputError naming them.
Translation translate_with_prefix(const Model& model, const std::string& text, const std::vector<std::string>& prefix,
                                  DecodeOptions options);

// {"text", "sourceTokens", "sourceWords", "targetTokens", "targetWords",
//  "attention", "score", "truncated",
//  "hypotheses": [{"text", "targetTokens", "targetWords", "attention", "score", ...}...]}
// A word is {"text", "start", "end"}: tokens [start, end) of its side.
nlohmann::json to_json(const Translation& translation);

}  // namespace s2s
