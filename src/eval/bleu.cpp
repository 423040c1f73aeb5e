#include "eval/bleu.h"

#include "common/error.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <unordered_map>

namespace s2s {
namespace {

constexpr int kMaxOrder = 4;

// Sufficient statistics of one sentence. Corpus BLEU sums these over the
// sentences before dividing, which is what makes it a corpus score and not
// an average of sentence scores; keeping them per sentence lets the report
// score every length bucket without copying any tokens.
struct SentenceStats {
    std::array<long, kMaxOrder> matches{};
    std::array<long, kMaxOrder> totals{};
    long hypothesis_length = 0;
    long reference_length = 0;
};

// Each token is prefixed with its length so that no choice of token text can
// make two different n-grams share a key (a plain separator could occur
// inside a token).
std::string ngram_key(const Tokens& tokens, size_t start, int order) {
    std::string key;
    for (int i = 0; i < order; ++i) {
        const std::string& token = tokens[start + static_cast<size_t>(i)];
        key += std::to_string(token.size());
        key += ':';
        key += token;
    }
    return key;
}

using NgramCounts = std::unordered_map<std::string, long>;

NgramCounts count_ngrams(const Tokens& tokens, int order) {
    NgramCounts counts;
    const size_t n = static_cast<size_t>(order);
    if (tokens.size() < n) return counts;
    for (size_t start = 0; start + n <= tokens.size(); ++start) ++counts[ngram_key(tokens, start, order)];
    return counts;
}

long closest_reference_length(long hypothesis_length, const std::vector<Tokens>& references) {
    long best = static_cast<long>(references.front().size());
    for (const Tokens& reference : references) {
        const long length = static_cast<long>(reference.size());
        const long distance = std::labs(length - hypothesis_length);
        const long best_distance = std::labs(best - hypothesis_length);
        if (distance < best_distance || (distance == best_distance && length < best)) best = length;
    }
    return best;
}

SentenceStats sentence_stats(const Tokens& hypothesis, const std::vector<Tokens>& references) {
    SentenceStats stats;
    stats.hypothesis_length = static_cast<long>(hypothesis.size());
    stats.reference_length = closest_reference_length(stats.hypothesis_length, references);
    for (int order = 1; order <= kMaxOrder; ++order) {
        const NgramCounts hypothesis_counts = count_ngrams(hypothesis, order);
        NgramCounts max_reference_counts;
        for (const Tokens& reference : references) {
            for (const auto& [key, count] : count_ngrams(reference, order)) {
                long& best = max_reference_counts[key];
                if (count > best) best = count;
            }
        }
        long matches = 0;
        long total = 0;
        for (const auto& [key, count] : hypothesis_counts) {
            total += count;
            const auto it = max_reference_counts.find(key);
            if (it != max_reference_counts.end()) matches += std::min(count, it->second);
        }
        stats.matches[order - 1] = matches;
        stats.totals[order - 1] = total;
    }
    return stats;
}

void check_inputs(const std::vector<Tokens>& hypotheses, const std::vector<std::vector<Tokens>>& references) {
    if (hypotheses.size() != references.size()) {
        throw UsageError("BLEU needs one set of references per hypothesis, but there are " +
                         std::to_string(hypotheses.size()) + " hypotheses and " + std::to_string(references.size()) +
                         " reference sets");
    }
    for (size_t k = 0; k < references.size(); ++k) {
        if (references[k].empty()) {
            throw UsageError("BLEU needs at least one reference for every sentence, but sentence " +
                             std::to_string(k + 1) + " has none");
        }
    }
}

std::vector<SentenceStats> all_sentence_stats(const std::vector<Tokens>& hypotheses,
                                              const std::vector<std::vector<Tokens>>& references) {
    check_inputs(hypotheses, references);
    std::vector<SentenceStats> stats;
    stats.reserve(hypotheses.size());
    for (size_t k = 0; k < hypotheses.size(); ++k) stats.push_back(sentence_stats(hypotheses[k], references[k]));
    return stats;
}

template <typename Predicate>
BleuScore score_from_stats(const std::vector<SentenceStats>& stats, Predicate include) {
    SentenceStats sum;
    BleuScore score;
    for (size_t k = 0; k < stats.size(); ++k) {
        if (!include(k)) continue;
        ++score.sentences;
        for (int i = 0; i < kMaxOrder; ++i) {
            sum.matches[i] += stats[k].matches[i];
            sum.totals[i] += stats[k].totals[i];
        }
        sum.hypothesis_length += stats[k].hypothesis_length;
        sum.reference_length += stats[k].reference_length;
    }
    score.hypothesis_length = sum.hypothesis_length;
    score.reference_length = sum.reference_length;

    bool any_zero = false;
    double log_sum = 0.0;
    for (int i = 0; i < kMaxOrder; ++i) {
        if (sum.matches[i] == 0 || sum.totals[i] == 0) {
            score.precisions[i] = 0.0;
            any_zero = true;
            continue;
        }
        const double precision = static_cast<double>(sum.matches[i]) / static_cast<double>(sum.totals[i]);
        score.precisions[i] = 100.0 * precision;
        log_sum += std::log(precision);
    }

    const long c = sum.hypothesis_length;
    const long r = sum.reference_length;
    // With no output at all exp(1 - r/c) tends to 0, so 0 is the honest
    // penalty rather than a division by zero.
    if (c == 0) {
        score.brevity_penalty = 0.0;
    } else if (c > r) {
        score.brevity_penalty = 1.0;
    } else {
        score.brevity_penalty = std::exp(1.0 - static_cast<double>(r) / static_cast<double>(c));
    }
    score.bleu = (c == 0 || any_zero) ? 0.0 : 100.0 * score.brevity_penalty * std::exp(log_sum / kMaxOrder);
    return score;
}

int bucket_index(int words) {
    const auto& buckets = length_buckets();
    for (size_t i = 0; i < buckets.size(); ++i) {
        if (words <= buckets[i].max_words) return static_cast<int>(i);
    }
    return static_cast<int>(buckets.size()) - 1;
}

}  // namespace

BleuScore corpus_bleu(const std::vector<Tokens>& hypotheses, const std::vector<std::vector<Tokens>>& references) {
    const std::vector<SentenceStats> stats = all_sentence_stats(hypotheses, references);
    return score_from_stats(stats, [](size_t) { return true; });
}

const std::vector<LengthBucket>& length_buckets() {
    // An empty English sentence has no bucket of its own; it is counted with
    // the shortest sentences (bucket_index), while min_words keeps the label's
    // meaning for display.
    static const std::vector<LengthBucket> buckets = {
        {"1-4", 1, 4},
        {"5-7", 5, 7},
        {"8-11", 8, 11},
        {"12+", 12, std::numeric_limits<int>::max()},
    };
    return buckets;
}

BleuReport bleu_report(const std::vector<Tokens>& hypotheses, const std::vector<std::vector<Tokens>>& references,
                       const std::vector<int>& source_words) {
    const std::vector<SentenceStats> stats = all_sentence_stats(hypotheses, references);
    if (source_words.size() != hypotheses.size()) {
        throw UsageError("BLEU by sentence length needs one source word count per hypothesis, but there are " +
                         std::to_string(hypotheses.size()) + " hypotheses and " +
                         std::to_string(source_words.size()) + " word counts");
    }
    for (size_t k = 0; k < source_words.size(); ++k) {
        if (source_words[k] < 0) {
            throw UsageError("source word count of sentence " + std::to_string(k + 1) + " is negative (" +
                             std::to_string(source_words[k]) + ")");
        }
    }

    BleuReport report;
    report.overall = score_from_stats(stats, [](size_t) { return true; });
    std::vector<int> buckets(source_words.size());
    for (size_t k = 0; k < source_words.size(); ++k) buckets[k] = bucket_index(source_words[k]);
    const auto& all_buckets = length_buckets();
    for (size_t b = 0; b < all_buckets.size(); ++b) {
        const int wanted = static_cast<int>(b);
        report.by_length.emplace_back(all_buckets[b],
                                      score_from_stats(stats, [&](size_t k) { return buckets[k] == wanted; }));
    }
    return report;
}

nlohmann::json to_json(const BleuScore& score) {
    return nlohmann::json{
        {"bleu", score.bleu},
        {"brevity_penalty", score.brevity_penalty},
        {"precisions", score.precisions},
        {"hypothesis_length", score.hypothesis_length},
        {"reference_length", score.reference_length},
        {"sentences", score.sentences},
    };
}

nlohmann::json to_json(const BleuReport& report) {
    nlohmann::json by_length = nlohmann::json::array();
    for (const auto& [bucket, score] : report.by_length) {
        nlohmann::json entry = to_json(score);
        entry["bucket"] = bucket.label;
        entry["min_words"] = bucket.min_words;
        entry["max_words"] = bucket.max_words;
        by_length.push_back(std::move(entry));
    }
    return nlohmann::json{{"overall", to_json(report.overall)}, {"by_length", std::move(by_length)}};
}

}  // namespace s2s
