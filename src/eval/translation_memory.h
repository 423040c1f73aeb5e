// The project's reference baseline: a translation memory. It answers with
// the stored translation of the most similar training English sentence,
// where similarity is the cosine of TF-IDF vectors over words and word
// bigrams. It is what a phrasebook lookup achieves with no model at all, so
// a model is only worth its weights by the margin it beats this.
#pragma once

#include "corpus/parallel_corpus.h"
#include "text/tokenizer.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace s2s {

class TranslationMemory {
public:
    // Stores every pair (each translation of a sentence is its own entry).
    TranslationMemory(const std::vector<SentencePair>& pairs, const TokenizerSettings& source_tokenizer);

    // The translation of the most similar stored sentence: the first stored
    // among equals. Empty when no stored sentence shares a word with it.
    const std::string& lookup(const std::string& source) const;

    // Index of that entry in the constructor's pairs, or -1.
    long best_match(const std::string& source) const;

    size_t size() const { return targets_.size(); }

private:
    // Term frequencies of the words and word bigrams of a sentence, by
    // feature id: add_features registers new features (while storing),
    // known_features drops them (a query's unseen features cannot match).
    std::vector<std::pair<int, float>> add_features(const std::string& source);
    std::vector<std::pair<int, float>> known_features(const std::string& source) const;

    TokenizerSettings tokenizer_;
    std::unordered_map<std::string, int> feature_ids_;
    std::vector<float> idf_;                                // by feature id
    std::vector<std::vector<std::pair<int, float>>> postings_;  // feature id -> (entry, normalized weight)
    std::vector<std::string> targets_;
};

}  // namespace s2s
