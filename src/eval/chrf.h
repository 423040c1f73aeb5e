// Corpus chrF2 as sacreBLEU computes it (Popović, 2015, "chrF: character
// n-gram F-score for automatic MT evaluation", WMT; Popović, 2016, "chrF
// deconstructed: beta parameters and n-gram weights", WMT, for beta = 2):
//   - character n-grams of order 1..6 over each sentence with all whitespace
//     removed (Python's notion of whitespace, as in sacreBLEU), no word
//     n-grams (chrF, not chrF++);
//   - case-sensitive: sacreBLEU's chrF does not lowercase by default, and
//     the reference values (data/sacrebleu-reference/cases.json) are
//     case-sensitive, unlike its BLEU there;
//   - several references: per sentence, the statistics of the reference
//     whose sentence-level chrF2 is highest (the first one on a tie);
//   - statistics summed over the corpus, then, per order with both
//     hypothesis and reference n-grams, precision and recall averaged over
//     those orders (sacreBLEU 2's default "effective order", not eps
//     smoothing), and F-beta = (1 + b^2) P R / (b^2 P + R) with b = 2.
// sacreBLEU's signature: nrefs:N|case:mixed|eff:yes|nc:6|nw:0|space:no.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace s2s {

constexpr int kChrfMaxOrder = 6;
constexpr int kChrfBeta = 2;

// Sufficient statistics of one sentence, or of a corpus (their sum).
struct ChrfStats {
    std::array<long, kChrfMaxOrder> hypothesis_ngrams{};  // per order 1..6; 0 where the reference has none of that order
    std::array<long, kChrfMaxOrder> reference_ngrams{};
    std::array<long, kChrfMaxOrder> matching_ngrams{};    // clipped by the reference count

    ChrfStats& operator+=(const ChrfStats& other);
};

// One sentence: `references` are already usable (usable_references).
ChrfStats chrf_sentence_stats(std::string_view hypothesis, const std::vector<std::string_view>& references);

// chrF2, 0..100, of (summed) statistics.
double chrf_from_stats(const ChrfStats& stats);

// hypotheses[k] against references[k]; empty references are dropped as
// sacreBLEU drops them. Throws UsageError if the sizes differ or a sentence
// has no non-empty reference.
double corpus_chrf(const std::vector<std::string>& hypotheses,
                   const std::vector<std::vector<std::string>>& references);

// Each sentence's own chrF2, 0..100 (sacreBLEU's sentence_score): the
// statistics of hypotheses[k] against its best reference, not summed with
// any other sentence's. Same checks as corpus_chrf.
std::vector<double> sentence_chrf(const std::vector<std::string>& hypotheses,
                                  const std::vector<std::vector<std::string>>& references);

}  // namespace s2s
