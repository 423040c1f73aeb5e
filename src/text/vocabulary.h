// Vocabulary: token <-> id. Ids 0..3 are the special tokens, always in this
// order, so that models and tests can rely on them.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace s2s {

class Vocabulary {
public:
    static constexpr int kPad = 0;  // "<pad>": fills batches, never predicted
    static constexpr int kUnk = 1;  // "<unk>": any token not in the vocabulary
    static constexpr int kBos = 2;  // "<bos>": first decoder input
    static constexpr int kEos = 3;  // "<eos>": ends every target sentence
    static constexpr int kNumSpecial = 4;

    Vocabulary();  // only the four special tokens

    // Tokens seen at least `min_frequency` times, most frequent first (ties in
    // byte order, so the result does not depend on input order), at most
    // `max_size` entries in all including the specials (0 = no limit).
    static Vocabulary build(const std::vector<std::vector<std::string>>& sentences, int min_frequency,
                            int max_size = 0);

    // From a list of tokens whose first four are the specials in order.
    // Throws ModelFileError on a missing/misplaced special, an empty token or
    // a duplicate, naming it.
    // `utf8_checked`: the caller has checked that every token is valid UTF-8
    // (a model file's reader has, for a record of strings), so it is not
    // checked again.
    static Vocabulary from_tokens(std::vector<std::string> tokens, bool utf8_checked = false);

    int size() const { return static_cast<int>(tokens_.size()); }
    int id(std::string_view token) const;  // kUnk when absent
    // The id of the token `left` + `right` (kUnk when absent), without
    // joining them on the heap: the model load checks each BPE merge's
    // piece this way.
    int id(std::string_view left, std::string_view right) const;
    const std::string& token(int id) const;  // throws std::out_of_range on a bad id
    std::vector<int> encode(const std::vector<std::string>& tokens) const;
    // encode() followed by <eos>: a training example's side.
    std::vector<int> encode_with_eos(const std::vector<std::string>& tokens) const;
    const std::vector<std::string>& tokens() const { return tokens_; }

    nlohmann::json to_json() const;  // a JSON array of the tokens
    static Vocabulary from_json(const nlohmann::json& json);  // throws ModelFileError

private:
    // Fills slots_ from tokens_. Returns -1, or the first entry that
    // duplicates an earlier one (then `*earlier` is that one's id).
    int build_index(int* earlier = nullptr);
    // The id of `left` + `right`, or -1.
    int find(std::string_view left, std::string_view right) const;

    std::vector<std::string> tokens_;
    // The index by text: open addressing with linear probing over a power-of-two
    // table at most half full, each slot a token id or -1. No string is copied
    // into it and a lookup builds none: a model load indexes 18,000 tokens, in
    // WebAssembly first run as baseline code, where a std::unordered_map of
    // std::string keys cost several milliseconds.
    std::vector<int> slots_;
};

}  // namespace s2s
