// Corpus BLEU-4 (Papineni et al., 2002, "BLEU: a Method for Automatic
// Evaluation of Machine Translation"): modified n-gram precisions for
// n = 1..4 clipped by the maximum count in any reference, geometric mean,
// times the brevity penalty exp(1 - r/c) when c <= r, where r sums, per
// sentence, the reference length closest to the hypothesis length (the
// shorter on a tie). Multi-reference: every translation of an English
// sentence is a reference. Scores are in 0..100.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <string>
#include <vector>

namespace s2s {

using Tokens = std::vector<std::string>;

struct BleuScore {
    double bleu = 0.0;             // 0..100
    double brevity_penalty = 0.0;  // 0..1
    std::array<double, 4> precisions{};  // 0..100 each
    long hypothesis_length = 0;
    long reference_length = 0;
    long sentences = 0;
};

// hypotheses[k] is scored against references[k] (one or more token lists).
// Throws UsageError if the two sizes differ or a sentence has no reference.
// Any n-gram precision of zero gives BLEU 0 (no smoothing), as in Papineni.
BleuScore corpus_bleu(const std::vector<Tokens>& hypotheses, const std::vector<std::vector<Tokens>>& references);

// Source-length buckets for "BLEU by sentence length": by the number of
// words of the English sentence (count_words in src/text/tokenizer.h).
struct LengthBucket {
    std::string label;  // "1-4", "5-7", "8-11", "12+"
    int min_words;      // inclusive
    int max_words;      // inclusive; a large number for the last bucket
};
const std::vector<LengthBucket>& length_buckets();

struct BleuReport {
    BleuScore overall;
    std::vector<std::pair<LengthBucket, BleuScore>> by_length;  // one per bucket, in order, even if empty
};

// source_words[k] is the English word count of sentence k.
BleuReport bleu_report(const std::vector<Tokens>& hypotheses, const std::vector<std::vector<Tokens>>& references,
                       const std::vector<int>& source_words);

nlohmann::json to_json(const BleuScore& score);
nlohmann::json to_json(const BleuReport& report);

}  // namespace s2s
