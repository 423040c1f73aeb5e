// Text in, translation out: tokenization, decoding and detokenization around
// a Model, with the result in the shape every client uses (CLI --json, the
// WASM bindings, the page).
#pragma once

#include "common/limits.h"
#include "decode/dropped.h"
#include "decode/search.h"
#include "decode/translation_trace.h"
#include "model/model.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace s2s {

// kPossiblyDroppedCoverage and the words never flagged: decode/dropped.h.

// A target word whose probability (the product of its pieces' probabilities
// as the search chose them) is under this was a guess: the page marks it
// as a word the model was unsure of. Chosen on the development splits by how
// well it separates wrong words from right ones (models/README.md, "The
// model's doubt"). JavaScript reads it from dist/options.js
// (unsureWordProbability).
inline constexpr float kUnsureWordProbability = 0.2f;

struct TranslationHypothesis {
    std::string text;                          // detokenized, without <eos>
    std::vector<std::string> target_tokens;    // as the model wrote them, with "<eos>" last when finished
    std::vector<WordSpan> target_words;        // the words of target_tokens (spans of pieces)
    AttentionMatrix attention;                 // rows = target tokens, columns = source tokens, rows sum to 1;
                                               // empty for the fixed-context baseline (moved from the search's Hypothesis)
    std::vector<std::vector<std::pair<std::string, float>>> alternatives;  // per target token, when asked
    // Coverage: the attention each source token received over the whole
    // output, sum_t a_ti (S; empty for the fixed-context baseline), and the
    // source tokens (the final <eos> left out) the translation may have
    // dropped: coverage under kPossiblyDroppedCoverage (not the words the
    // target language leaves untranslated), or a number it does not write
    // (possibly_dropped, dropped.h).
    std::vector<float> coverage;
    std::vector<int> possibly_dropped;
    // The model's doubt: each target token's probability as the search chose
    // it (T, <eos> included), each target word's (the product of its pieces'),
    // and the words (indices into target_words) under kUnsureWordProbability,
    // words of a forced prefix left out (the reader chose those).
    std::vector<float> token_probabilities;
    std::vector<float> word_probabilities;
    std::vector<int> unsure_words;
    // Words (indices into target_words) whose text is a name or number of
    // the source copied through in place of the words the model wrote for it
    // (DecodeOptions::keep_names, names.h); never in unsure_words.
    std::vector<int> copied_words;
    double score = 0.0;                        // length-normalized log probability
    double log_prob = 0.0;
    bool finished = true;
};

struct Translation {
    std::vector<std::string> source_tokens;    // as the model read them: unknown pieces are "<unk>", "<eos>" last
    std::vector<WordSpan> source_words;        // the words of source_tokens (spans of pieces)
    // Where each source token is in the text translated: UTF-16 code units
    // [begin, end) (token_ranges, text/tokenizer.h); {-1, -1} for <eos>.
    std::vector<TextRange> source_offsets;
    std::vector<TranslationHypothesis> hypotheses;  // best first; empty for empty input
    bool truncated = false;                    // the input was cut to kMaxSourceTokens (limits.h)
    // With DecodeOptions::trace, the best hypothesis's decoder trace (none
    // for an empty input); with DecodeOptions::beam_tree, the search tree
    // (translation_trace.h). Absent when not asked for.
    std::optional<TranslationTrace> trace;
    std::optional<BeamTree> beam_tree;
    const TranslationHypothesis* best() const { return hypotheses.empty() ? nullptr : &hypotheses.front(); }
};

// Sets h.unsure_words: the words whose probability is under
// kUnsureWordProbability, but for the words of a forced prefix (its first
// `forced` tokens: the reader chose those) and the copied words (not the
// model's guesses: names.h). translate() calls it last.
void mark_unsure(TranslationHypothesis& h, size_t forced);

// DecodeOptions' defaults with the model's own beam search penalties, when
// its file records them (Model::length_penalty, coverage_penalty): what
// translate's entry points (the CLI, the WebAssembly modules) start from
// before the caller's options. translate() itself uses the options as given.
DecodeOptions decode_defaults(const Model& model);

// Any text is accepted: invalid UTF-8 is repaired, empty input gives an
// empty translation, and an input longer than kMaxSourceTokens is cut.
// forced_prefix in options is in target token ids; see translate_with_prefix
// for words.
Translation translate(const Model& model, const std::string& text, const DecodeOptions& options);

// The page's "what if": force the first target tokens (as words) and decode
// the rest. Unknown words are an InputError naming them.
Translation translate_with_prefix(const Model& model, const std::string& text, const std::vector<std::string>& prefix,
                                  DecodeOptions options);

// The target token ids of `prefix` (words), for DecodeOptions::forced_prefix;
// a word the model never writes is an InputError naming it (what
// translate_with_prefix checks).
std::vector<int> forced_prefix_ids(const Model& model, const std::vector<std::string>& prefix);

// A text of several sentences (split_sentences, text/sentences.h),
// translated one sentence at a time, each as translate() translates it on
// its own (its source offsets are of the sentence's own text): each
// sentence's byte range in the text, the same range in UTF-16 code units
// (as JavaScript indexes the text), and its translation.
struct SentenceTranslation {
    size_t begin = 0;
    size_t end = 0;
    TextRange utf16;
    Translation translation;
    // The floats to_json packs when it lays the translation out for the
    // WebAssembly modules (TranslationLayout::kHypothesesOnly), which fill
    // it; translate_sentences leaves it empty.
    std::vector<float> packed_numbers;
};
std::vector<SentenceTranslation> translate_sentences(const Model& model, const std::string& text, const DecodeOptions& options);
// The sentences' best translations joined as the target language writes
// them (a space between sentences; none for Chinese).
std::string join_translations(const Model& model, const std::vector<SentenceTranslation>& sentences);

// How to_json lays a translation out.
enum class TranslationLayout {
    // The CLI's --json (the documented contract): the best hypothesis's
    // fields at the top level too ("text", "targetTokens", "targetWords",
    // "attention", "coverage", "possiblyDropped", "tokenProbabilities",
    // "wordProbabilities", "unsureWords", "copiedWords", "score"), every attention
    // matrix as rows of numbers.
    kDocument,
    // The WebAssembly modules' (src/wasm/translation.js reads it): each
    // field once, in "hypotheses"; each attention matrix as [rows, cols],
    // its floats read by the caller straight from the hypothesis
    // (AttentionMatrix::values), not copied into the JSON; every other
    // float packed into to_json's `packed` array, the JSON holding its place
    // (NumberWriter, translation_trace.h): each hypothesis's "coverage",
    // "tokenProbabilities" and "wordProbabilities" ([offset, length]), its
    // alternatives' "logProb" (an offset), and the trace's and the beam
    // tree's numbers. "score" and "logProb", doubles, stay JSON numbers
    // (exact as text; a float32 slot would round them).
    kHypothesesOnly,
};

// {"text", "sourceTokens", "sourceWords", "sourceOffsets", "targetTokens", "targetWords",
//  "attention", "coverage", "possiblyDropped", "tokenProbabilities", "wordProbabilities",
//  "unsureWords", "copiedWords", "score", "truncated",
//  "trace" (with DecodeOptions::trace), "beamTree" (with beam_tree),
//  "hypotheses": [{"text", "targetTokens", "targetWords", "attention", "score", ...}...]}
// A word is {"text", "start", "end"}: tokens [start, end) of its side.
// "sourceOffsets" has one [begin, end] per source token (UTF-16 code units
// of the text, as JavaScript indexes it), null for <eos>. "trace" and
// "beamTree": trace_json and beam_tree_json (translation_trace.h).
// packed: where kHypothesesOnly appends its floats (cleared first);
// required with it, unused by kDocument.
nlohmann::json to_json(const Translation& translation, TranslationLayout layout = TranslationLayout::kDocument,
                       std::vector<float>* packed = nullptr);

}  // namespace s2s
