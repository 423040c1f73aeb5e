// The quality report (bleu_report.h): BLEU and chrF2 overall and by source
// length bucket, and its JSON.
#include "eval/bleu_report.h"

#include "common/error.h"

#include <algorithm>
#include <limits>

namespace s2s {
namespace {

// Everything a score needs from one sentence, computed once so that the
// overall score and every bucket only add numbers.
struct SentenceStats {
    BleuStats bleu;
    ChrfStats chrf;
    size_t references = 0;  // non-empty ones
};

int bucket_index(int words) {
    const auto& buckets = length_buckets();
    for (size_t i = 0; i < buckets.size(); ++i) {
        if (words <= buckets[i].max_words) return static_cast<int>(i);
    }
    return static_cast<int>(buckets.size()) - 1;
}

template <typename Predicate>
CorpusScore score_sentences(const std::vector<SentenceStats>& stats, BleuTokenizer tokenizer, Predicate include) {
    BleuStats bleu;
    ChrfStats chrf;
    long sentences = 0;
    size_t min_references = std::numeric_limits<size_t>::max();
    size_t max_references = 0;
    for (size_t k = 0; k < stats.size(); ++k) {
        if (!include(k)) continue;
        ++sentences;
        bleu += stats[k].bleu;
        chrf += stats[k].chrf;
        min_references = std::min(min_references, stats[k].references);
        max_references = std::max(max_references, stats[k].references);
    }
    CorpusScore score;
    static_cast<BleuScore&>(score) = bleu_from_stats(bleu);
    score.chrf2 = chrf_from_stats(chrf);
    score.sentences = sentences;
    const std::string nrefs = "nrefs:" + (sentences > 0 && min_references != max_references
                                              ? std::string("var")
                                              : std::to_string(max_references));
    score.bleu_signature = nrefs + "|case:lc|eff:no|tok:" + bleu_tokenizer_name(tokenizer) + "|smooth:exp";
    score.chrf2_signature = nrefs + "|case:mixed|eff:yes|nc:6|nw:0|space:no";
    return score;
}

}  // namespace

std::string metric_description(const CorpusScore& score) {
    return "sacreBLEU-compatible BLEU (" + score.bleu_signature + "), chrF2 (" + score.chrf2_signature + ")";
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

BleuReport bleu_report(const std::vector<std::string>& hypotheses,
                       const std::vector<std::vector<std::string>>& references, const std::vector<int>& source_words,
                       BleuTokenizer tokenizer) {
    const std::vector<std::vector<std::string_view>> usable = usable_references(references, hypotheses.size());
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

    std::vector<SentenceStats> stats(hypotheses.size());
    for (size_t k = 0; k < hypotheses.size(); ++k) {
        stats[k].bleu = bleu_sentence_stats(hypotheses[k], usable[k], tokenizer);
        stats[k].chrf = chrf_sentence_stats(hypotheses[k], usable[k]);
        stats[k].references = usable[k].size();
    }

    BleuReport report;
    report.overall = score_sentences(stats, tokenizer, [](size_t) { return true; });
    std::vector<int> buckets(source_words.size());
    for (size_t k = 0; k < source_words.size(); ++k) buckets[k] = bucket_index(source_words[k]);
    const auto& all_buckets = length_buckets();
    for (size_t b = 0; b < all_buckets.size(); ++b) {
        const int wanted = static_cast<int>(b);
        report.by_length.emplace_back(all_buckets[b], score_sentences(stats, tokenizer,
                                                                      [&](size_t k) { return buckets[k] == wanted; }));
    }
    return report;
}

nlohmann::json to_json(const CorpusScore& score) {
    return nlohmann::json{
        {"bleu", score.bleu},
        {"chrf2", score.chrf2},
        {"brevity_penalty", score.brevity_penalty},
        {"precisions", score.precisions},
        {"counts", score.counts},
        {"totals", score.totals},
        {"hypothesis_length", score.hypothesis_length},
        {"reference_length", score.reference_length},
        {"sentences", score.sentences},
        {"signature", score.bleu_signature},
        {"chrf2_signature", score.chrf2_signature},
        {"metric", metric_description(score)},
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
