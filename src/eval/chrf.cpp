// Corpus and sentence chrF2 as sacreBLEU computes them (chrf.h): character n-gram
// statistics over whitespace-free text, beta = 2.
#include "eval/chrf.h"

#include "eval/sacrebleu_text.h"
#include "text/utf8.h"

#include <algorithm>
#include <unordered_map>

namespace s2s {
namespace {

// Per order 1..6: count of each character n-gram (a run of code points).
using CharNgrams = std::array<std::unordered_map<std::u32string, long>, kChrfMaxOrder>;

CharNgrams char_ngrams(std::string_view text) {
    std::u32string characters;
    for (char32_t cp : decode_utf8(text)) {
        if (!is_python_whitespace(cp)) characters.push_back(cp);
    }
    CharNgrams ngrams;
    for (size_t n = 1; n <= kChrfMaxOrder; ++n) {
        for (size_t start = 0; start + n <= characters.size(); ++start) ++ngrams[n - 1][characters.substr(start, n)];
    }
    return ngrams;
}

ChrfStats match_statistics(const CharNgrams& hypothesis, const CharNgrams& reference) {
    ChrfStats stats;
    for (size_t i = 0; i < kChrfMaxOrder; ++i) {
        long hypothesis_count = 0;
        long matches = 0;
        for (const auto& [ngram, count] : hypothesis[i]) {
            hypothesis_count += count;
            const auto it = reference[i].find(ngram);
            if (it != reference[i].end()) matches += std::min(count, it->second);
        }
        long reference_count = 0;
        for (const auto& entry : reference[i]) reference_count += entry.second;
        // As in sacreBLEU: where the reference has no n-gram of this order,
        // the hypothesis's are not counted either, so a short reference does
        // not turn the order into a zero precision.
        stats.hypothesis_ngrams[i] = reference[i].empty() ? 0 : hypothesis_count;
        stats.reference_ngrams[i] = reference_count;
        stats.matching_ngrams[i] = matches;
    }
    return stats;
}

}  // namespace

ChrfStats& ChrfStats::operator+=(const ChrfStats& other) {
    for (int i = 0; i < kChrfMaxOrder; ++i) {
        hypothesis_ngrams[i] += other.hypothesis_ngrams[i];
        reference_ngrams[i] += other.reference_ngrams[i];
        matching_ngrams[i] += other.matching_ngrams[i];
    }
    return *this;
}

ChrfStats chrf_sentence_stats(std::string_view hypothesis, const std::vector<std::string_view>& references) {
    const CharNgrams hypothesis_ngrams = char_ngrams(hypothesis);
    ChrfStats best;
    double best_score = -1.0;  // below any score, so the first reference is always taken
    for (std::string_view reference : references) {
        const ChrfStats stats = match_statistics(hypothesis_ngrams, char_ngrams(reference));
        const double score = chrf_from_stats(stats);
        if (score > best_score) {
            best_score = score;
            best = stats;
        }
    }
    return best;
}

double chrf_from_stats(const ChrfStats& stats) {
    // The operations and their order are sacreBLEU's, so that two references
    // tie exactly when they tie there (the choice between them changes the
    // corpus sums). No a * b + c here can be fused into a differently rounded
    // FMA: the only product added to is beta^2 * P, exact for beta^2 = 4.
    constexpr double factor = kChrfBeta * kChrfBeta;
    double average_precision = 0.0;
    double average_recall = 0.0;
    int effective_order = 0;
    for (int i = 0; i < kChrfMaxOrder; ++i) {
        const long hypothesis_count = stats.hypothesis_ngrams[i];
        const long reference_count = stats.reference_ngrams[i];
        if (hypothesis_count > 0 && reference_count > 0) {
            const double matches = static_cast<double>(stats.matching_ngrams[i]);
            average_precision += matches / static_cast<double>(hypothesis_count);
            average_recall += matches / static_cast<double>(reference_count);
            ++effective_order;
        }
    }
    if (effective_order == 0) return 0.0;
    average_precision /= effective_order;
    average_recall /= effective_order;
    if (average_precision + average_recall == 0.0) return 0.0;
    double score = (1.0 + factor) * average_precision * average_recall;
    score /= factor * average_precision + average_recall;
    return 100.0 * score;
}

double corpus_chrf(const std::vector<std::string>& hypotheses,
                   const std::vector<std::vector<std::string>>& references) {
    const std::vector<std::vector<std::string_view>> usable = usable_references(references, hypotheses.size());
    ChrfStats sum;
    for (size_t k = 0; k < hypotheses.size(); ++k) sum += chrf_sentence_stats(hypotheses[k], usable[k]);
    return chrf_from_stats(sum);
}

std::vector<double> sentence_chrf(const std::vector<std::string>& hypotheses,
                                  const std::vector<std::vector<std::string>>& references) {
    const std::vector<std::vector<std::string_view>> usable = usable_references(references, hypotheses.size());
    std::vector<double> scores(hypotheses.size());
    for (size_t k = 0; k < hypotheses.size(); ++k) scores[k] = chrf_from_stats(chrf_sentence_stats(hypotheses[k], usable[k]));
    return scores;
}

}  // namespace s2s
