// The translation-memory baseline (translation_memory.h): TF-IDF vectors of
// words and bigrams, and the nearest stored English sentence by cosine.
#include "eval/translation_memory.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace s2s {

namespace {

// Words and adjacent word pairs, lowercased by the tokenizer.
std::vector<std::string> feature_strings(const std::string& source, const TokenizerSettings& tokenizer) {
    const std::vector<std::string> words = tokenize(source, tokenizer);
    std::vector<std::string> out = words;
    for (size_t k = 1; k < words.size(); ++k) out.push_back(words[k - 1] + '\x1f' + words[k]);
    return out;
}

}  // namespace

std::vector<std::pair<int, float>> TranslationMemory::add_features(const std::string& source) {
    std::map<int, float> counts;
    for (const std::string& f : feature_strings(source, tokenizer_)) {
        const auto it = feature_ids_.emplace(f, static_cast<int>(feature_ids_.size())).first;
        counts[it->second] += 1.0f;
    }
    return {counts.begin(), counts.end()};
}

std::vector<std::pair<int, float>> TranslationMemory::known_features(const std::string& source) const {
    std::map<int, float> counts;
    for (const std::string& f : feature_strings(source, tokenizer_)) {
        const auto it = feature_ids_.find(f);
        if (it != feature_ids_.end()) counts[it->second] += 1.0f;
    }
    return {counts.begin(), counts.end()};
}

TranslationMemory::TranslationMemory(const std::vector<SentencePair>& pairs, const TokenizerSettings& source_tokenizer)
    : tokenizer_(source_tokenizer) {
    std::vector<std::vector<std::pair<int, float>>> entries;
    entries.reserve(pairs.size());
    for (const SentencePair& pair : pairs) {
        entries.push_back(add_features(pair.source));
        targets_.push_back(pair.target);
    }
    // Smoothed inverse document frequency: log((1 + N) / (1 + df)) + 1.
    std::vector<long> document_frequency(feature_ids_.size(), 0);
    for (const auto& entry : entries) {
        for (const auto& [id, count] : entry) ++document_frequency[id];
    }
    idf_.resize(feature_ids_.size());
    const double n = static_cast<double>(entries.size());
    for (size_t id = 0; id < idf_.size(); ++id) {
        idf_[id] = static_cast<float>(std::log((1.0 + n) / (1.0 + document_frequency[id])) + 1.0);
    }
    postings_.assign(feature_ids_.size(), {});
    for (size_t e = 0; e < entries.size(); ++e) {
        double norm = 0.0;
        for (const auto& [id, count] : entries[e]) norm += std::pow(count * idf_[id], 2);
        norm = std::sqrt(norm);
        if (norm == 0.0) continue;
        for (const auto& [id, count] : entries[e]) {
            postings_[id].emplace_back(static_cast<int>(e), static_cast<float>(count * idf_[id] / norm));
        }
    }
}

long TranslationMemory::best_match(const std::string& source) const {
    const auto query = known_features(source);
    if (query.empty()) return -1;
    // Sparse dot products through the inverted index; the query's own norm
    // does not change the ranking, so it is left out.
    std::vector<float> scores(targets_.size(), 0.0f);
    for (const auto& [id, count] : query) {
        const float weight = count * idf_[id];
        for (const auto& [entry, value] : postings_[id]) scores[static_cast<size_t>(entry)] += weight * value;
    }
    // The first entry among equals wins.
    const auto best = std::max_element(scores.begin(), scores.end());
    return *best > 0.0f ? static_cast<long>(best - scores.begin()) : -1;
}

const std::string& TranslationMemory::lookup(const std::string& source) const {
    static const std::string kEmpty;
    const long best = best_match(source);
    return best < 0 ? kEmpty : targets_[static_cast<size_t>(best)];
}

}  // namespace s2s
