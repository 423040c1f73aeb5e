// Translate a development set and score it as the project reports quality,
// the way model cards do: sacreBLEU-compatible corpus BLEU of
// the detokenized translations against the raw references (13a, or zh for
// Chinese, lowercased), with chrF2 beside it, overall and by the length of
// the English sentence in words.
#pragma once

#include "decode/search.h"
#include "eval/bleu_report.h"
#include "eval/bootstrap.h"
#include "model/model.h"
#include "corpus/parallel_corpus.h"

#include <string>
#include <vector>

namespace s2s {

struct Evaluation {
    BleuReport report;
    std::vector<std::string> hypotheses;  // one per source, detokenized
    double seconds = 0.0;
};

// Scores detokenized hypotheses (hypotheses[k] translates data[k].source)
// against the raw references, with the sacreBLEU tokenizer of
// `target_language` (bleu_tokenizer_for_language: "zh" -> zh, else 13a).
// The length buckets count the English words of each source with the word
// tokenizer, whatever tokens a model reads.
BleuReport score_translations(const std::vector<SourceWithReferences>& data, const std::vector<std::string>& hypotheses,
                              const std::string& target_language);

// Bootstrap resampling (bootstrap.h) of `hypotheses` (hypotheses[k]
// translates data[k].source), each sentence scored as score_translations
// scores it; with `baseline`, another system's translations of the same
// sentences, paired on the same draws.
BootstrapReport bootstrap_translations(const std::vector<SourceWithReferences>& data,
                                       const std::vector<std::string>& hypotheses,
                                       const std::vector<std::string>* baseline, const std::string& target_language,
                                       int resamples, uint64_t seed);

// Scored for model.target_tokenizer.language. threads > 1 translates
// sentences in parallel (native builds only).
Evaluation evaluate_model(const Model& model, const std::vector<SourceWithReferences>& data, const DecodeOptions& options,
                          int threads = 1);

// The translation-memory baseline (translation_memory.h) on `data`: the
// memory holds the training split of the pairs in `memory_path` (split as
// `train` splits it), minus any pair whose English tokenizes like a sentence
// of `data`, so it never answers with a reference. Scored for
// `target_language` ("fr", "zh", ...).
Evaluation evaluate_translation_memory(const std::string& memory_path, double dev_fraction, uint64_t split_seed,
                                       const std::vector<SourceWithReferences>& data,
                                       const std::string& target_language);

}  // namespace s2s
