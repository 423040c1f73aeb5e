// Subword pieces by byte-pair encoding: Sennrich, Haddow and Birch (2016),
// "Neural Machine Translation of Rare Words with Subword Units" (ACL), the
// segmentation their RNNsearch systems used (and this model is one).
//
// Text is first normalized (normalize_text) and cut into pre-tokens
// (pre_tokenize): words, single punctuation marks, French elided articles
// ("l'", "qu'"), single CJK characters. A pre-token that follows a space
// starts with the word marker "▁" (U+2581), so decoding is exact: the
// pieces of a normalized sentence, concatenated with "▁" read as a space,
// give the sentence back. BPE learns merges of adjacent symbols inside
// pre-tokens only, most frequent pair first; encoding applies them in the
// order they were learned.
//
// Characters: every code point seen in the learning data is a symbol of its
// own (the alphabet), so no character of the training text ever becomes
// <unk>. A code point never seen (an emoji, a rare script) stays one piece
// of its own that the vocabulary maps to <unk>: it is shown as <unk>, never
// dropped.
#pragma once

#include "common/random.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace s2s {

// "▁" (U+2581, as SentencePiece writes it): the piece starts after a space.
inline constexpr std::string_view kWordMarker = "\xE2\x96\x81";

// Lowercase, invalid UTF-8 repaired, the typographic apostrophe U+2019 as
// "'", every run of Unicode spaces (including U+202F, French typography's
// narrow no-break space) as one ASCII space, no leading or trailing space.
std::string normalize_text(std::string_view text);

// A pre-token: bytes [begin, end) of a normalized text. BPE never merges
// across two of them; the words of the page's "words" view are these.
struct PreToken {
    size_t begin = 0;
    size_t end = 0;
    bool after_space = false;  // a space (or the start of the text) comes before it
};

// Cuts normalized text into pre-tokens. `language` "fr" also splits the
// elided articles and pronouns (l' d' j' m' n' s' t' c' qu' jusqu' lorsqu'
// puisqu' quoiqu') from the word after them.
std::vector<PreToken> pre_tokenize(std::string_view normalized, std::string_view language);

class BpeModel {
public:
    // One merge: the pair of adjacent symbols (left, right) becomes left+right.
    struct Merge {
        std::string left;
        std::string right;
    };

    BpeModel() = default;
    explicit BpeModel(std::vector<Merge> merges);
    // From merges written "left right" (as a model file stores them), taken
    // as they are, and where each one's space is (spaces[i], the index of the
    // space in joined[i]): the caller has checked that each is two non-empty
    // pieces separated by one space, finding the space (tokenizer.cpp). A
    // model load makes no other copy of them (the Merge strings are made
    // only if merges() is called).
    static BpeModel from_joined(std::vector<std::string> joined, std::vector<uint32_t> spaces);
    // Copies share the merges and the rank index (both immutable); a
    // moved-from model gets an empty one.
    BpeModel(const BpeModel&) = default;
    BpeModel& operator=(const BpeModel&) = default;
    BpeModel(BpeModel&& other) : state_(std::exchange(other.state_, std::make_shared<State>())) {}
    BpeModel& operator=(BpeModel&& other) {
        state_ = std::exchange(other.state_, std::make_shared<State>());
        return *this;
    }

    size_t merge_count() const { return state_->joined.size(); }
    // Merge i's text as the file stores it ("left right") and its two pieces.
    const std::string& joined(size_t i) const { return state_->joined[i]; }
    std::string_view left(size_t i) const { return std::string_view(state_->joined[i]).substr(0, state_->space[i]); }
    std::string_view right(size_t i) const { return std::string_view(state_->joined[i]).substr(state_->space[i] + 1); }
    // Every merge as two strings, made on the first call (thread-safe).
    const std::vector<Merge>& merges() const;

    // The pieces of one pre-token (its text, marker included).
    std::vector<std::string> encode_pre_token(std::string_view pre_token) const;
    // The pieces of a whole text (normalized first).
    std::vector<std::string> encode(std::string_view text, std::string_view language) const;

    // BPE-dropout (Provilkov, Emelianenko and Voita, 2020, "BPE-Dropout:
    // Simple and Effective Subword Regularization", ACL): at each merge step
    // every place where a merge applies is skipped with probability
    // `dropout`, and the best-ranked place left is merged; the word stops
    // when every place was skipped. The pieces are still the model's own
    // (each is the output of a merge, or a character) and still spell the
    // text, but a word comes out in smaller, varying pieces: trained on them
    // (`seq2seq train --piece-dropout`), a model learns how pieces make up
    // words, which is what lets it read a misspelt word. `dropout` 0 gives
    // exactly encode_pre_token / encode; `random` is then not drawn from.
    std::vector<std::string> encode_pre_token(std::string_view pre_token, float dropout, Random& random) const;
    std::vector<std::string> encode(std::string_view text, std::string_view language, float dropout, Random& random) const;

private:
    // Everything a model holds, shared by its copies. The merges are kept
    // as their file text, "left right", with where the space is: a model
    // load copies nothing more, and encoding reads them as string views.
    // The rank index ("left right" -> merge index) and the Merge strings
    // are built on first use: a loaded model never encodes with its target
    // side's merges (10,000 in en-fr) unless it is trained or given a prefix
    // of words, so the model load does not build them (src/model/model_load.cpp).
    // The rank index is a power-of-two table at most half full of merge
    // indices (-1: empty), probed linearly, hashed on the "left right" text
    // (joined_text_hash, common/hash.h): building it copies no string, and a
    // lookup of two adjacent symbols builds none.
    struct State {
        std::vector<std::string> joined;
        std::vector<uint32_t> space;
        std::once_flag ranked;
        std::vector<int> rank_slots;
        std::once_flag split;
        std::vector<Merge> merges;
    };
    // The rank of the merge of `left` and `right` (its index, the lowest
    // for a repeated pair), or -1.
    int rank(std::string_view left, std::string_view right) const;

    std::shared_ptr<State> state_ = std::make_shared<State>();
};

// The text of pre-token `token` of `normalized`, with the marker when it
// follows a space: what BPE sees and learns from.
std::string pre_token_text(std::string_view normalized, const PreToken& token);

// The normalized text the pieces spell: the marker read as a space, the
// leading space dropped. Special tokens ("<unk>", "<eos>") are kept as written.
std::string decode_pieces(const std::vector<std::string>& pieces);

// For each piece, the index of the word (pre-token) it belongs to; special
// tokens are words of their own. Works on any piece sequence (a model's
// output too), by pre-tokenizing the decoded text.
std::vector<int> piece_words(const std::vector<std::string>& pieces, std::string_view language);

// True for "<pad>", "<unk>", "<bos>", "<eos>".
bool is_special_piece(std::string_view piece);

}  // namespace s2s
