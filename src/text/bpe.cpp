// Byte-pair encoding (bpe.h): normalization, pre-tokens, learning merges,
// encoding and decoding pieces, and the words of a piece sequence.
#include "text/bpe.h"

#include "common/error.h"
#include "common/hash.h"
#include "text/tokenizer.h"
#include "text/utf8.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace s2s {
namespace {

constexpr char32_t kMarkerCodePoint = 0x2581;

bool is_digit(char32_t cp) { return cp >= '0' && cp <= '9'; }

// CJK ideographs and kana: each is a pre-token of its own (no spaces
// separate Chinese words, so there is no word to keep together).
bool is_cjk(char32_t cp) {
    return (cp >= 0x2E80 && cp <= 0x2FDF) || (cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
           (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x20000 && cp <= 0x2FFFF);
}

// French elided forms (Grevisse, Le Bon Usage, §44-45): the apostrophe ends
// the pre-token after them, so "l'apprentissage" is "l'" + "apprentissage"
// and "apprentissage" shares its pieces with the word alone.
bool is_french_elision(std::string_view word) {
    static const char* const kElisions[] = {"l", "d", "j", "m", "n", "s", "t", "c", "qu", "jusqu", "lorsqu", "puisqu", "quoiqu"};
    for (const char* e : kElisions) {
        if (word == e) return true;
    }
    return false;
}

struct CodePoint {
    char32_t value;
    size_t begin;
    size_t end;
};

std::vector<CodePoint> code_points_with_offsets(std::string_view text) {
    std::vector<CodePoint> out;
    size_t pos = 0;
    for (char32_t cp : decode_utf8(text)) {
        const size_t length = encode_utf8(cp).size();
        out.push_back({cp, pos, pos + length});
        pos += length;
    }
    return out;
}

std::string merge_key(std::string_view left, std::string_view right) {
    std::string key;
    key.reserve(left.size() + right.size() + 1);
    key.append(left);
    key.push_back(' ');
    key.append(right);
    return key;
}

}  // namespace

std::string normalize_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    bool pending_space = false;
    for (char32_t cp : decode_utf8(to_lower_utf8(sanitize_utf8(text)))) {
        if (is_unicode_space(cp)) {
            pending_space = !out.empty();
            continue;
        }
        if (pending_space) out.push_back(' ');
        pending_space = false;
        if (cp == 0x2019) cp = '\'';
        // The marker must mean "a space came before": one typed by the user
        // is an ordinary underscore-like mark.
        if (cp == kMarkerCodePoint) cp = '_';
        out += encode_utf8(cp);
    }
    return out;
}

std::vector<PreToken> pre_tokenize(std::string_view normalized, std::string_view language) {
    const std::vector<CodePoint> cps = code_points_with_offsets(normalized);
    const bool french = language == "fr";
    // Chinese writes no spaces: a run of characters is one pre-token, so
    // BPE can learn its frequent words (我们, 什么). Elsewhere a CJK character
    // stands alone (a name in an English sentence).
    const bool chinese = language == "zh";
    std::vector<PreToken> out;
    bool space_before = true;
    size_t word_begin = std::string_view::npos;
    bool word_after_space = false;
    const auto flush = [&](size_t end) {
        if (word_begin != std::string_view::npos) out.push_back({word_begin, end, word_after_space});
        word_begin = std::string_view::npos;
    };
    const auto is_word_char = [](char32_t cp) { return cp != ' ' && !is_punctuation_code_point(cp) && !is_cjk(cp); };
    for (size_t i = 0; i < cps.size(); ++i) {
        const CodePoint& c = cps[i];
        if (c.value == ' ') {
            flush(c.begin);
            space_before = true;
            continue;
        }
        const bool has_prev = i > 0 && cps[i - 1].value != ' ';
        const bool has_next = i + 1 < cps.size();
        bool separate = is_punctuation_code_point(c.value) || (is_cjk(c.value) && !chinese);
        // 3.50 and 3,50: one number, not a sentence end.
        if ((c.value == '.' || c.value == ',') && has_prev && has_next && is_digit(cps[i - 1].value) &&
            is_digit(cps[i + 1].value)) {
            separate = false;
        }
        // An apostrophe between two letters belongs to the word ("don't"),
        // except after a French elided form, where it ends the word.
        if (c.value == '\'' && has_prev && has_next && is_word_char(cps[i - 1].value) && is_word_char(cps[i + 1].value) &&
            word_begin != std::string_view::npos) {
            if (french && is_french_elision(normalized.substr(word_begin, c.begin - word_begin))) {
                flush(c.end);
                continue;
            }
            separate = false;
        }
        if (separate) {
            flush(c.begin);
            out.push_back({c.begin, c.end, space_before});
            space_before = false;
            continue;
        }
        if (word_begin == std::string_view::npos) {
            word_begin = c.begin;
            word_after_space = space_before;
        }
        space_before = false;
    }
    flush(normalized.size());
    return out;
}

std::string pre_token_text(std::string_view normalized, const PreToken& token) {
    std::string text;
    if (token.after_space) text.append(kWordMarker);
    text.append(normalized.substr(token.begin, token.end - token.begin));
    return text;
}

BpeModel::BpeModel(std::vector<Merge> merges) {
    state_->joined.reserve(merges.size());
    state_->space.reserve(merges.size());
    for (const Merge& merge : merges) {
        state_->joined.push_back(merge_key(merge.left, merge.right));
        state_->space.push_back(static_cast<uint32_t>(merge.left.size()));
    }
}

BpeModel BpeModel::from_joined(std::vector<std::string> joined, std::vector<uint32_t> spaces) {
    if (spaces.size() != joined.size()) throw std::invalid_argument("BpeModel::from_joined: one space position per merge");
    BpeModel model;
    model.state_->space = std::move(spaces);
    model.state_->joined = std::move(joined);
    return model;
}

const std::vector<BpeModel::Merge>& BpeModel::merges() const {
    std::call_once(state_->split, [this] {
        state_->merges.reserve(merge_count());
        for (size_t i = 0; i < merge_count(); ++i) state_->merges.push_back({std::string(left(i)), std::string(right(i))});
    });
    return state_->merges;
}

int BpeModel::rank(std::string_view left, std::string_view right) const {
    State& state = *state_;
    std::call_once(state.ranked, [&state] {
        state.rank_slots.assign(open_table_capacity(state.joined.size()), -1);
        const size_t mask = state.rank_slots.size() - 1;
        for (size_t i = 0; i < state.joined.size(); ++i) {
            const std::string& text = state.joined[i];
            size_t slot = joined_text_slot(text) & mask;
            bool repeated = false;  // a repeated pair keeps its first (effective) rank
            for (; state.rank_slots[slot] >= 0 && !repeated; slot = (slot + 1) & mask) {
                repeated = state.joined[static_cast<size_t>(state.rank_slots[slot])] == text;
            }
            if (!repeated) state.rank_slots[slot] = static_cast<int>(i);
        }
    });
    const size_t mask = state.rank_slots.size() - 1;
    for (size_t slot = joined_text_slot(left, " ", right) & mask; state.rank_slots[slot] >= 0; slot = (slot + 1) & mask) {
        const int index = state.rank_slots[slot];
        if (text_joins(state.joined[static_cast<size_t>(index)], left, " ", right)) return index;
    }
    return -1;
}

std::vector<std::string> BpeModel::encode_pre_token(std::string_view pre_token) const {
    std::vector<std::string> symbols = split_characters(pre_token);
    while (symbols.size() > 1) {
        int best_rank = -1;
        for (size_t i = 0; i + 1 < symbols.size(); ++i) {
            const int found = rank(symbols[i], symbols[i + 1]);
            if (found >= 0 && (best_rank < 0 || found < best_rank)) best_rank = found;
        }
        if (best_rank < 0) break;
        // Every occurrence, left to right, as learning merged them.
        const std::string_view merge_left = left(static_cast<size_t>(best_rank));
        const std::string_view merge_right = right(static_cast<size_t>(best_rank));
        std::vector<std::string> merged;
        merged.reserve(symbols.size());
        for (size_t i = 0; i < symbols.size(); ++i) {
            if (i + 1 < symbols.size() && symbols[i] == merge_left && symbols[i + 1] == merge_right) {
                merged.push_back(symbols[i] + symbols[i + 1]);
                ++i;
            } else {
                merged.push_back(std::move(symbols[i]));
            }
        }
        symbols = std::move(merged);
    }
    return symbols;
}

namespace {

// The pieces of a whole text: normalized, cut into pre-tokens, each encoded
// by `encode_pre_token` (BpeModel::encode with or without dropout).
template <typename EncodePreToken>
std::vector<std::string> encode_text(std::string_view text, std::string_view language, EncodePreToken&& encode_pre_token) {
    const std::string normalized = normalize_text(text);
    std::vector<std::string> pieces;
    for (const PreToken& token : pre_tokenize(normalized, language)) {
        for (std::string& piece : encode_pre_token(pre_token_text(normalized, token))) pieces.push_back(std::move(piece));
    }
    return pieces;
}

}  // namespace

std::vector<std::string> BpeModel::encode(std::string_view text, std::string_view language) const {
    return encode_text(text, language, [this](std::string_view pre_token) { return encode_pre_token(pre_token); });
}

std::vector<std::string> BpeModel::encode_pre_token(std::string_view pre_token, float dropout, Random& random) const {
    if (!(dropout > 0.0f)) return encode_pre_token(pre_token);
    std::vector<std::string> symbols = split_characters(pre_token);
    while (symbols.size() > 1) {
        // The best-ranked place that survives the draw; every place draws
        // once per step, skipped or not, so the stream does not depend on
        // which merges exist further along.
        int best_rank = -1;
        size_t best_at = 0;
        for (size_t i = 0; i + 1 < symbols.size(); ++i) {
            const int found = rank(symbols[i], symbols[i + 1]);
            if (found < 0) continue;
            if (random.uniform() < dropout) continue;
            if (best_rank < 0 || found < best_rank) {
                best_rank = found;
                best_at = i;
            }
        }
        if (best_rank < 0) break;
        symbols[best_at] += symbols[best_at + 1];
        symbols.erase(symbols.begin() + static_cast<std::ptrdiff_t>(best_at) + 1);
    }
    return symbols;
}

std::vector<std::string> BpeModel::encode(std::string_view text, std::string_view language, float dropout,
                                          Random& random) const {
    return encode_text(text, language,
                       [&](std::string_view pre_token) { return encode_pre_token(pre_token, dropout, random); });
}

bool is_special_piece(std::string_view piece) {
    return piece == "<pad>" || piece == "<unk>" || piece == "<bos>" || piece == "<eos>";
}

std::string decode_pieces(const std::vector<std::string>& pieces) {
    std::string out;
    for (const std::string& piece : pieces) {
        if (is_special_piece(piece)) {
            out += piece;
            continue;
        }
        size_t pos = 0;
        while (pos < piece.size()) {
            if (piece.compare(pos, kWordMarker.size(), kWordMarker) == 0) {
                out.push_back(' ');
                pos += kWordMarker.size();
            } else {
                out.push_back(piece[pos]);
                ++pos;
            }
        }
    }
    if (!out.empty() && out.front() == ' ') out.erase(0, 1);
    return out;
}

std::vector<int> piece_words(const std::vector<std::string>& pieces, std::string_view language) {
    std::vector<int> words(pieces.size(), 0);
    if (language == "zh") {
        // A pre-token of Chinese is a whole run of characters, no word: the
        // pieces (mostly words, as BPE merges them) are the words, a lone
        // marker going with the piece after it.
        int word = -1;
        for (size_t k = 0; k < pieces.size(); ++k) {
            if (k == 0 || pieces[k - 1] != kWordMarker) ++word;
            words[k] = word;
        }
        return words;
    }
    int word = -1;
    size_t k = 0;
    while (k < pieces.size()) {
        if (is_special_piece(pieces[k])) {
            words[k++] = ++word;
            continue;
        }
        // A run of ordinary pieces: decode it, pre-tokenize it, and give
        // each piece the pre-token its first visible byte falls in. Going
        // back to text keeps pre_tokenize the one definition of a word
        // (elisions, punctuation, numbers): word spans never grow a second
        // set of rules that could drift from the encoder's.
        const size_t run_begin = k;
        std::string text;
        std::vector<size_t> starts;  // first byte of each piece that is not the marker's space
        for (; k < pieces.size() && !is_special_piece(pieces[k]); ++k) {
            std::string piece_text = decode_pieces({pieces[k]});
            // decode_pieces drops a leading space: put it back for offsets.
            const bool marker = pieces[k].compare(0, kWordMarker.size(), kWordMarker) == 0;
            if (marker) piece_text.insert(piece_text.begin(), ' ');
            size_t visible = text.size();
            while (visible - text.size() < piece_text.size() && piece_text[visible - text.size()] == ' ') ++visible;
            starts.push_back(visible);
            text += piece_text;
        }
        // pre_tokenize wants no leading space; offsets shift by what is dropped.
        size_t shift = 0;
        while (shift < text.size() && text[shift] == ' ') ++shift;
        const std::vector<PreToken> tokens = pre_tokenize(std::string_view(text).substr(shift), language);
        size_t t = 0;
        int last_token = -1;
        for (size_t p = 0; p < starts.size(); ++p) {
            const size_t at = starts[p] < shift ? 0 : starts[p] - shift;
            while (t + 1 < tokens.size() && tokens[t].end <= at) ++t;
            const int token_index = tokens.empty() ? 0 : static_cast<int>(t);
            if (token_index != last_token || p == 0) {
                ++word;
                last_token = token_index;
            }
            words[run_begin + p] = word;
        }
    }
    // A lone marker (before an unknown character, "<unk>") belongs to the
    // word after it; then number the words 0, 1, 2, ... again.
    for (size_t p = pieces.size(); p-- > 1;) {
        if (pieces[p - 1] == kWordMarker) words[p - 1] = words[p];
    }
    int next = -1;
    int previous = -1;
    for (int& w : words) {
        if (w != previous) {
            previous = w;
            ++next;
        }
        w = next;
    }
    return words;
}

}  // namespace s2s
