// Translate a development set and score it: corpus BLEU-4, overall and by
// source length, as the design defines it (lowercased, the model's own
// target tokenization applied to hypotheses and references alike, so
// Chinese is scored by character).
#pragma once

#include "decode/search.h"
#include "eval/bleu.h"
#include "model/model.h"
#include "text/parallel_corpus.h"

#include <string>
#include <vector>

namespace s2s {

struct Evaluation {
    BleuReport report;
    std::vector<std::string> hypotheses;  // one per source, detokenized
    double seconds = 0.0;
};

// Scores hypotheses (already translated, e.g. by the translation memory)
// against the references with the target tokenizer of `target_tokenizer`.
BleuReport score_translations(const std::vector<SourceWithReferences>& data, const std::vector<std::string>& hypotheses,
                              const TokenizerSettings& source_tokenizer, const TokenizerSettings& target_tokenizer);

// threads > 1 translates sentences in parallel (native builds only).
Evaluation evaluate_model(const Model& model, const std::vector<SourceWithReferences>& data, const DecodeOptions& options,
                          int threads = 1);

// The translation-memory baseline (translation_memory.h) on `data`: the
// memory holds the training split of the pairs in `memory_path` (split as
// `train` splits it), minus any pair whose English tokenizes like a sentence
// of `data`, so it never answers with a reference.
Evaluation evaluate_translation_memory(const std::string& memory_path, double dev_fraction, uint64_t split_seed,
                                       const std::vector<SourceWithReferences>& data,
                                       const TokenizerSettings& target_tokenizer);

}  // namespace s2s
