// Corpus BLEU-4 as sacreBLEU computes it (bleu.h): n-gram counts, the
// closest reference length, exponential smoothing.
#include "eval/bleu.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

namespace s2s {
namespace {

using Tokens = std::vector<std::string>;
using NgramCounts = std::unordered_map<std::string, long>;

// Every n-gram of order 1..4, keyed by its tokens joined with spaces: tokens
// never hold whitespace (the tokenizers split on it), so keys cannot collide.
NgramCounts count_ngrams(const Tokens& tokens) {
    NgramCounts counts;
    for (size_t start = 0; start < tokens.size(); ++start) {
        std::string key;
        for (size_t n = 1; n <= kBleuMaxOrder && start + n <= tokens.size(); ++n) {
            if (n > 1) key += ' ';
            key += tokens[start + n - 1];
            ++counts[key];
        }
    }
    return counts;
}

size_t order_of(const std::string& key) { return static_cast<size_t>(std::count(key.begin(), key.end(), ' ')) + 1; }

long closest_reference_length(long hypothesis_length, const std::vector<long>& reference_lengths) {
    long best = reference_lengths.front();
    for (long length : reference_lengths) {
        const long distance = std::labs(length - hypothesis_length);
        const long best_distance = std::labs(best - hypothesis_length);
        if (distance < best_distance || (distance == best_distance && length < best)) best = length;
    }
    return best;
}

}  // namespace

BleuStats& BleuStats::operator+=(const BleuStats& other) {
    for (int i = 0; i < kBleuMaxOrder; ++i) {
        counts[i] += other.counts[i];
        totals[i] += other.totals[i];
    }
    hypothesis_length += other.hypothesis_length;
    reference_length += other.reference_length;
    return *this;
}

BleuStats bleu_sentence_stats(std::string_view hypothesis, const std::vector<std::string_view>& references,
                              BleuTokenizer tokenizer) {
    const Tokens hypothesis_tokens = bleu_tokens(hypothesis, tokenizer);
    NgramCounts max_reference_counts;
    std::vector<long> reference_lengths;
    for (std::string_view reference : references) {
        const Tokens reference_tokens = bleu_tokens(reference, tokenizer);
        reference_lengths.push_back(static_cast<long>(reference_tokens.size()));
        for (const auto& [key, count] : count_ngrams(reference_tokens)) {
            long& best = max_reference_counts[key];
            best = std::max(best, count);
        }
    }

    BleuStats stats;
    stats.hypothesis_length = static_cast<long>(hypothesis_tokens.size());
    stats.reference_length = closest_reference_length(stats.hypothesis_length, reference_lengths);
    for (const auto& [key, count] : count_ngrams(hypothesis_tokens)) {
        const size_t order = order_of(key);
        stats.totals[order - 1] += count;
        const auto it = max_reference_counts.find(key);
        if (it != max_reference_counts.end()) stats.counts[order - 1] += std::min(count, it->second);
    }
    return stats;
}

BleuScore bleu_from_stats(const BleuStats& stats) {
    BleuScore score;
    score.counts = stats.counts;
    score.totals = stats.totals;
    score.hypothesis_length = stats.hypothesis_length;
    score.reference_length = stats.reference_length;

    const double c = static_cast<double>(stats.hypothesis_length);
    const double r = static_cast<double>(stats.reference_length);
    // With no output at all exp(1 - r/c) tends to 0, which sacreBLEU writes
    // out; a corpus with neither output nor references has no penalty.
    if (stats.hypothesis_length < stats.reference_length) {
        score.brevity_penalty = stats.hypothesis_length > 0 ? std::exp(1.0 - r / c) : 0.0;
    } else {
        score.brevity_penalty = 1.0;
    }
    // No match of any order: 0, and every precision reported as 0.
    if (std::all_of(stats.counts.begin(), stats.counts.end(), [](long count) { return count == 0; })) return score;

    // "exp" smoothing: the k-th order without a match (counting only such
    // orders) gets precision 1 / (2^k * total). An order with no n-gram at
    // all (sentences too short) ends the loop: its precision and those above
    // stay 0, and so does BLEU.
    double smoothing = 1.0;
    for (int i = 0; i < kBleuMaxOrder; ++i) {
        if (stats.totals[i] == 0) break;
        const double total = static_cast<double>(stats.totals[i]);
        if (stats.counts[i] == 0) {
            smoothing *= 2.0;
            score.precisions[i] = 100.0 / (smoothing * total);
        } else {
            score.precisions[i] = 100.0 * static_cast<double>(stats.counts[i]) / total;
        }
    }
    double log_sum = 0.0;
    for (double precision : score.precisions) {
        if (precision == 0.0) return score;  // the geometric mean is 0
        log_sum += std::log(precision);
    }
    // The precisions are percentages, so this is already on the 0..100 scale.
    score.bleu = score.brevity_penalty * std::exp(log_sum / kBleuMaxOrder);
    return score;
}

std::vector<BleuStats> bleu_stats_per_sentence(const std::vector<std::string>& hypotheses,
                                               const std::vector<std::vector<std::string>>& references,
                                               BleuTokenizer tokenizer) {
    const std::vector<std::vector<std::string_view>> usable = usable_references(references, hypotheses.size());
    std::vector<BleuStats> stats;
    stats.reserve(hypotheses.size());
    for (size_t k = 0; k < hypotheses.size(); ++k) stats.push_back(bleu_sentence_stats(hypotheses[k], usable[k], tokenizer));
    return stats;
}

BleuScore corpus_bleu(const std::vector<std::string>& hypotheses,
                      const std::vector<std::vector<std::string>>& references, BleuTokenizer tokenizer) {
    BleuStats sum;
    for (const BleuStats& sentence : bleu_stats_per_sentence(hypotheses, references, tokenizer)) sum += sentence;
    return bleu_from_stats(sum);
}

}  // namespace s2s
