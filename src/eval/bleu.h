// Corpus BLEU-4 as sacreBLEU computes it (Post, 2018, "A Call for Clarity in
// Reporting BLEU Scores"), on the BLEU of Papineni et al. (2002, "BLEU: a
// Method for Automatic Evaluation of Machine Translation"):
//   - detokenized hypotheses against raw references, both lowercased and
//     tokenized by 13a or zh (sacrebleu_text.h);
//   - modified n-gram precisions for n = 1..4, each hypothesis n-gram count
//     clipped by its largest count in any one reference of the sentence;
//   - counts summed over the corpus before dividing (a corpus score, not an
//     average of sentence scores);
//   - brevity penalty exp(1 - r/c) when c < r, where c sums the hypothesis
//     lengths and r, per sentence, the reference length closest to the
//     hypothesis length (the shorter on a tie);
//   - "exp" smoothing, as in mteval-v13a.pl (Chen & Cherry, 2014, "A
//     Systematic Comparison of Smoothing Techniques for Sentence-Level BLEU",
//     method 3): the k-th order with no match counts as 1 / (2^k * total);
//   - effective order off: an order with no n-gram at all gives BLEU 0.
// sacreBLEU's signature for this: nrefs:N|case:lc|eff:no|tok:13a|smooth:exp.
#pragma once

#include "eval/sacrebleu_text.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace s2s {

constexpr int kBleuMaxOrder = 4;

// Sufficient statistics of one sentence, or of a corpus (their sum).
struct BleuStats {
    std::array<long, kBleuMaxOrder> counts{};  // matching n-grams, clipped, for n = 1..4
    std::array<long, kBleuMaxOrder> totals{};  // hypothesis n-grams, for n = 1..4
    long hypothesis_length = 0;                // tokens (sacreBLEU's sys_len)
    long reference_length = 0;                 // closest reference, in tokens (ref_len)

    BleuStats& operator+=(const BleuStats& other);
};

struct BleuScore {
    double bleu = 0.0;                   // 0..100
    double brevity_penalty = 0.0;        // 0..1
    std::array<double, kBleuMaxOrder> precisions{};  // 0..100 each, smoothed as sacreBLEU reports them
    std::array<long, kBleuMaxOrder> counts{};
    std::array<long, kBleuMaxOrder> totals{};
    long hypothesis_length = 0;
    long reference_length = 0;
};

// One sentence: `references` are already usable (usable_references).
BleuStats bleu_sentence_stats(std::string_view hypothesis, const std::vector<std::string_view>& references,
                              BleuTokenizer tokenizer);

// One entry per sentence: hypotheses[k] against references[k], as
// corpus_bleu scores them (whose sum it is); for resampling (bootstrap.h).
std::vector<BleuStats> bleu_stats_per_sentence(const std::vector<std::string>& hypotheses,
                                               const std::vector<std::vector<std::string>>& references,
                                               BleuTokenizer tokenizer);

// The score of summed statistics.
BleuScore bleu_from_stats(const BleuStats& stats);

// hypotheses[k] is scored against references[k] (one or more strings; empty
// ones are dropped as sacreBLEU drops them). Throws UsageError if the sizes
// differ or a sentence has no non-empty reference.
BleuScore corpus_bleu(const std::vector<std::string>& hypotheses,
                      const std::vector<std::vector<std::string>>& references, BleuTokenizer tokenizer);

}  // namespace s2s
