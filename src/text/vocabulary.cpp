// Vocabulary (vocabulary.h): building by frequency, encoding and decoding
// ids, and its JSON.
#include "text/vocabulary.h"

#include "common/error.h"
#include "common/hash.h"
#include "text/utf8.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace s2s {
namespace {

const char* const kSpecialTokens[Vocabulary::kNumSpecial] = {"<pad>", "<unk>", "<bos>", "<eos>"};

bool is_special(const std::string& token) {
    return std::find(std::begin(kSpecialTokens), std::end(kSpecialTokens), token) != std::end(kSpecialTokens);
}

// Tokens may come from a damaged file; what we quote in a message must stay
// short and valid UTF-8 (the WASM boundary hands it to JavaScript).
std::string display_token(const std::string& token) {
    if (token.size() <= 40) return "\"" + sanitize_utf8(token) + "\"";
    return "\"" + sanitize_utf8(token.substr(0, 40)) + "...\"";
}

}  // namespace

Vocabulary::Vocabulary() {
    for (int i = 0; i < kNumSpecial; ++i) tokens_.emplace_back(kSpecialTokens[i]);
    build_index();
}

int Vocabulary::build_index(int* earlier) {
    slots_.assign(open_table_capacity(tokens_.size()), -1);
    const size_t mask = slots_.size() - 1;
    for (size_t i = 0; i < tokens_.size(); ++i) {
        size_t slot = joined_text_slot(tokens_[i]) & mask;
        for (; slots_[slot] >= 0; slot = (slot + 1) & mask) {
            if (tokens_[static_cast<size_t>(slots_[slot])] == tokens_[i]) {
                if (earlier != nullptr) *earlier = slots_[slot];
                return static_cast<int>(i);
            }
        }
        slots_[slot] = static_cast<int>(i);
    }
    return -1;
}

int Vocabulary::find(std::string_view left, std::string_view right) const {
    const size_t mask = slots_.size() - 1;
    for (size_t slot = joined_text_slot(left, right) & mask; slots_[slot] >= 0; slot = (slot + 1) & mask) {
        if (text_joins(tokens_[static_cast<size_t>(slots_[slot])], left, right)) return slots_[slot];
    }
    return -1;
}

Vocabulary Vocabulary::build(const std::vector<std::vector<std::string>>& sentences, int min_frequency,
                             int max_size) {
    if (min_frequency < 0) {
        throw UsageError("minimum token frequency " + std::to_string(min_frequency) +
                         " is negative; use 1 (keep every token) or more");
    }
    if (max_size < 0 || (max_size > 0 && max_size < kNumSpecial)) {
        throw UsageError("maximum vocabulary size " + std::to_string(max_size) + " leaves no room for the " +
                         std::to_string(kNumSpecial) + " special tokens; use 0 (no limit) or at least " +
                         std::to_string(kNumSpecial));
    }

    std::unordered_map<std::string, long> counts;
    for (const auto& sentence : sentences) {
        for (const std::string& token : sentence) {
            // Specials already have their fixed ids; empty tokens would make
            // the vocabulary unloadable (from_tokens rejects them).
            if (token.empty() || is_special(token)) continue;
            ++counts[token];
        }
    }

    std::vector<std::pair<std::string, long>> kept;
    for (auto& entry : counts) {
        if (entry.second >= min_frequency) kept.emplace_back(entry.first, entry.second);
    }
    // std::string's ordering is unsigned byte order, which makes the tie
    // break independent of the locale and of the unordered_map's order.
    std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) {
        if (a.second != b.second) return a.second > b.second;
        return a.first < b.first;
    });
    if (max_size > 0 && kept.size() > static_cast<size_t>(max_size - kNumSpecial)) {
        kept.resize(static_cast<size_t>(max_size - kNumSpecial));
    }

    Vocabulary vocabulary;
    for (auto& entry : kept) vocabulary.tokens_.push_back(std::move(entry.first));
    vocabulary.build_index();  // no duplicates: the counts' keys are unique and skip the specials
    return vocabulary;
}

Vocabulary Vocabulary::from_tokens(std::vector<std::string> tokens, bool utf8_checked) {
    for (int i = 0; i < kNumSpecial; ++i) {
        if (static_cast<int>(tokens.size()) <= i) {
            throw ModelFileError("vocabulary has only " + std::to_string(tokens.size()) +
                                 " entries; it must start with the special tokens <pad>, <unk>, <bos>, <eos> "
                                 "(re-export the model file)");
        }
        if (tokens[i] != kSpecialTokens[i]) {
            throw ModelFileError("vocabulary entry " + std::to_string(i) + " is " + display_token(tokens[i]) +
                                 " but must be \"" + kSpecialTokens[i] +
                                 "\": the vocabulary must start with <pad>, <unk>, <bos>, <eos> in this order");
        }
    }

    if (tokens.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
        throw ModelFileError("vocabulary has " + std::to_string(tokens.size()) + " entries, more than an int id can address; the model file is damaged");
    }

    for (size_t i = 0; i < tokens.size(); ++i) {
        const std::string& token = tokens[i];
        if (token.empty()) {
            throw ModelFileError("vocabulary entry " + std::to_string(i) +
                                 " is an empty token; remove it from the model file's vocabulary");
        }
        if (!utf8_checked && !is_valid_utf8(token)) {
            throw ModelFileError("vocabulary entry " + std::to_string(i) + " (" + display_token(token) +
                                 ") is not valid UTF-8; rebuild the vocabulary from sanitized text");
        }
    }
    Vocabulary vocabulary;
    vocabulary.tokens_ = std::move(tokens);
    int earlier = -1;
    const int duplicate = vocabulary.build_index(&earlier);
    if (duplicate >= 0) {
        throw ModelFileError("vocabulary entry " + std::to_string(duplicate) + " duplicates " +
                             display_token(vocabulary.tokens_[static_cast<size_t>(duplicate)]) + " (already entry " +
                             std::to_string(earlier) + "); each token must appear once, remove the duplicate");
    }
    return vocabulary;
}

int Vocabulary::id(std::string_view token) const { return id(token, {}); }

int Vocabulary::id(std::string_view left, std::string_view right) const {
    const int found = find(left, right);
    return found < 0 ? kUnk : found;
}

const std::string& Vocabulary::token(int id) const {
    if (id < 0 || id >= size()) {
        throw std::out_of_range("token id " + std::to_string(id) + " is outside the vocabulary (0.." +
                                std::to_string(size() - 1) + ")");
    }
    return tokens_[static_cast<size_t>(id)];
}

std::vector<int> Vocabulary::encode(const std::vector<std::string>& tokens) const {
    std::vector<int> ids;
    ids.reserve(tokens.size());
    for (const std::string& token : tokens) ids.push_back(id(token));
    return ids;
}

std::vector<int> Vocabulary::encode_with_eos(const std::vector<std::string>& tokens) const {
    std::vector<int> ids = encode(tokens);
    ids.push_back(kEos);
    return ids;
}

nlohmann::json Vocabulary::to_json() const { return nlohmann::json(tokens_); }

Vocabulary Vocabulary::from_json(const nlohmann::json& json) {
    if (!json.is_array()) {
        throw ModelFileError(std::string("vocabulary must be a JSON array of token strings, got a ") +
                             json.type_name() + "; re-export the model file");
    }
    std::vector<std::string> tokens;
    tokens.reserve(json.size());
    for (size_t i = 0; i < json.size(); ++i) {
        if (!json[i].is_string()) {
            throw ModelFileError("vocabulary entry " + std::to_string(i) + " is a " + json[i].type_name() +
                                 ", not a string; every vocabulary entry must be a token string");
        }
        tokens.push_back(json[i].get<std::string>());
    }
    return from_tokens(std::move(tokens));
}

}  // namespace s2s
