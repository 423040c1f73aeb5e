// The tokenizers (tokenizer.h): words, characters and BPE pieces, their
// detokenization and word spans. Their settings as JSON:
// tokenizer_settings.cpp.
#include "text/tokenizer.h"

#include "common/error.h"
#include "text/bpe.h"
#include "text/utf8.h"

namespace s2s {
namespace {

bool is_split_mark(char32_t cp) { return cp == ',' || cp == '.' || cp == '!' || cp == '?'; }

bool is_ascii_digit(char32_t cp) { return cp >= '0' && cp <= '9'; }

}  // namespace

bool is_punctuation_code_point(char32_t cp) {
    if (cp < 0x80) {
        return (cp >= 0x21 && cp <= 0x2F) || (cp >= 0x3A && cp <= 0x40) || (cp >= 0x5B && cp <= 0x60) ||
               (cp >= 0x7B && cp <= 0x7E);
    }
    switch (cp) {
        case 0xA1: case 0xA7: case 0xAB: case 0xB6: case 0xB7: case 0xBB: case 0xBF:
        case 0x30FB:  // katakana middle dot, common in Chinese names
            return true;
        default:
            break;
    }
    return (cp >= 0x2010 && cp <= 0x2027) ||  // dashes, quotes, bullets, ellipsis
           (cp >= 0x2030 && cp <= 0x205E) ||  // per mille, primes, guillemets ‹ ›, ...
           (cp >= 0x3001 && cp <= 0x3003) ||  // 、 。 〃
           (cp >= 0x3008 && cp <= 0x3011) ||  // 〈 〉 《 》 「 」 『 』 【 】
           (cp >= 0x3014 && cp <= 0x301F) ||
           (cp >= 0xFF01 && cp <= 0xFF0F) ||  // fullwidth ！ ＂ ... ／
           (cp >= 0xFF1A && cp <= 0xFF20) ||  // fullwidth ： ； ... ＠
           (cp >= 0xFF3B && cp <= 0xFF40) || (cp >= 0xFF5B && cp <= 0xFF65);
}

namespace {

bool is_latin_letter(char32_t cp) {
    return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
           (cp >= 0xC0 && cp <= 0x24F && cp != 0xD7 && cp != 0xF7);
}

char32_t upper_in_pairs(char32_t cp, bool upper_is_even) {
    const bool even = (cp % 2) == 0;
    return even != upper_is_even ? cp - 1 : cp;
}

// Inverse of the lowercase mapping in utf8.cpp, over the same blocks, for the
// capital at the start of a detokenized sentence.
char32_t upper_code_point(char32_t cp) {
    if (cp < 0x80) return (cp >= 'a' && cp <= 'z') ? cp - 0x20 : cp;
    if (cp < 0x100) {
        if (cp == 0xFF) return 0x178;
        return (cp >= 0xE0 && cp <= 0xFE && cp != 0xF7) ? cp - 0x20 : cp;
    }
    if (cp < 0x180) {
        if (cp == 0x131) return 'I';  // dotless i
        if (cp <= 0x137) return upper_in_pairs(cp, true);
        if (cp == 0x138) return cp;
        if (cp <= 0x148) return upper_in_pairs(cp, false);
        if (cp == 0x149) return cp;
        if (cp <= 0x177) return upper_in_pairs(cp, true);
        if (cp == 0x178) return cp;
        if (cp <= 0x17E) return upper_in_pairs(cp, false);
        return cp;
    }
    if (cp >= 0x370 && cp <= 0x3FF) {
        if (cp <= 0x373 || cp == 0x377) return upper_in_pairs(cp, true);
        if (cp >= 0x37B && cp <= 0x37D) return cp + 0x82;
        if (cp == 0x3AC) return 0x386;
        if (cp >= 0x3AD && cp <= 0x3AF) return cp - 0x25;
        if (cp == 0x3C2) return 0x3A3;  // final sigma
        if (cp >= 0x3B1 && cp <= 0x3CB) return cp - 0x20;
        if (cp == 0x3CC) return 0x38C;
        if (cp == 0x3CD || cp == 0x3CE) return cp - 0x3F;
        if (cp == 0x3D7) return 0x3CF;
        if (cp >= 0x3D8 && cp <= 0x3EF) return upper_in_pairs(cp, true);
        if (cp == 0x3F2) return 0x3F9;
        if (cp == 0x3F3) return 0x37F;
        if (cp == 0x3F8 || cp == 0x3FB) return cp - 1;
        return cp;
    }
    if (cp >= 0x400 && cp <= 0x52F) {
        if (cp >= 0x430 && cp <= 0x44F) return cp - 0x20;
        if (cp >= 0x450 && cp <= 0x45F) return cp - 0x50;
        if (cp >= 0x460 && cp <= 0x481) return upper_in_pairs(cp, true);
        if (cp >= 0x48A && cp <= 0x4BF) return upper_in_pairs(cp, true);
        if (cp == 0x4CF) return 0x4C0;
        if (cp >= 0x4C1 && cp <= 0x4CE) return upper_in_pairs(cp, false);
        if (cp >= 0x4D0) return upper_in_pairs(cp, true);
        return cp;
    }
    return cp;
}

std::string encode_all(const std::vector<char32_t>& code_points) {
    std::string out;
    for (char32_t cp : code_points) out += encode_utf8(cp);
    return out;
}

std::vector<std::string> tokenize_words(const std::vector<char32_t>& text) {
    std::vector<std::string> tokens;
    std::string word;
    const auto flush = [&] {
        if (!word.empty()) tokens.push_back(std::move(word));
        word.clear();
    };
    for (size_t i = 0; i < text.size(); ++i) {
        const char32_t cp = text[i];
        if (is_unicode_space(cp)) {
            flush();
            continue;
        }
        // A decimal point is part of a number, not the end of a sentence.
        const bool decimal_point = cp == '.' && i > 0 && i + 1 < text.size() && is_ascii_digit(text[i - 1]) &&
                                   is_ascii_digit(text[i + 1]);
        if (is_split_mark(cp) && !decimal_point) {
            flush();
            tokens.push_back(std::string(1, static_cast<char>(cp)));
            continue;
        }
        // Tatoeba spells the apostrophe both ways; one spelling keeps "j'ai"
        // a single vocabulary entry.
        word += encode_utf8(cp == 0x2019 ? char32_t{'\''} : cp);
    }
    flush();
    return tokens;
}

std::vector<std::string> tokenize_characters(const std::vector<char32_t>& text) {
    std::vector<std::string> tokens;
    for (char32_t cp : text) {
        if (!is_unicode_space(cp)) tokens.push_back(encode_utf8(cp));
    }
    return tokens;
}

// Capitalizes the first letter of the sentence: the first code point of the
// first token that carries more than punctuation, looking past leading
// quotes or marks inside it ("«", "'tis"). A sentence opening with a special
// token is left alone so that "<unk>" stays recognizable.
void capitalize_first(std::vector<std::string>& tokens) {
    for (std::string& token : tokens) {
        if (token.empty() || is_punctuation_token(token)) continue;
        if (is_special_piece(token)) return;
        std::vector<char32_t> cps = decode_utf8(token);
        for (char32_t& cp : cps) {
            if (is_punctuation_code_point(cp) || cp == ' ') continue;
            cp = upper_code_point(cp);
            break;
        }
        token = encode_all(cps);
        return;
    }
}

bool is_latin_word(const std::string& token) {
    const std::vector<char32_t> cps = decode_utf8(token);
    return cps.size() >= 2 && is_latin_letter(cps.front()) && is_latin_letter(cps.back());
}

}  // namespace

std::vector<std::string> tokenize(std::string_view text, const TokenizerSettings& settings) {
    if (settings.kind == TokenizerKind::kSubwords) {
        if (!settings.bpe) throw UsageError("a subword tokenizer needs its BPE merges (TokenizerSettings::bpe is empty)");
        return settings.bpe->encode(text, settings.language);
    }
    const std::vector<char32_t> code_points = decode_utf8(to_lower_utf8(sanitize_utf8(text)));
    return settings.kind == TokenizerKind::kWords ? tokenize_words(code_points) : tokenize_characters(code_points);
}

std::string detokenize(const std::vector<std::string>& input, const TokenizerSettings& settings) {
    std::vector<std::string> tokens;
    tokens.reserve(input.size());
    for (const std::string& token : input) {
        if (!token.empty()) tokens.push_back(token);
    }
    if (settings.kind == TokenizerKind::kSubwords) {
        // The pieces spell the normalized text exactly; only the capital
        // at the start is added for display.
        std::vector<std::string> text{decode_pieces(tokens)};
        const bool opens_with_special = text.front().rfind("<unk>", 0) == 0 || text.front().rfind("<eos>", 0) == 0;
        if (!opens_with_special) capitalize_first(text);
        return text.front();
    }
    capitalize_first(tokens);

    std::string out;
    if (settings.kind == TokenizerKind::kCharacters) {
        // Character tokens are single code points, so this only separates
        // whole Latin words that reached us as tokens of their own.
        for (size_t i = 0; i < tokens.size(); ++i) {
            if (i > 0 && is_latin_word(tokens[i - 1]) && is_latin_word(tokens[i])) out += ' ';
            out += tokens[i];
        }
        return out;
    }

    const bool french = settings.language == "fr";
    const auto is_exclamation_or_question = [](const std::string& t) { return t == "!" || t == "?"; };
    for (size_t i = 0; i < tokens.size(); ++i) {
        const std::string& token = tokens[i];
        bool attach = i == 0 || token == "," || token == ".";
        if (is_exclamation_or_question(token)) {
            // French puts a (thin) space before ! and ?, but "?!" stays together.
            attach = i == 0 || !french || is_exclamation_or_question(tokens[i - 1]);
        }
        if (!attach) out += ' ';
        out += token;
    }
    return out;
}

bool is_punctuation_token(std::string_view token) {
    if (token.empty()) return false;
    for (char32_t cp : decode_utf8(token)) {
        if (!is_punctuation_code_point(cp)) return false;
    }
    return true;
}

int count_words(const std::vector<std::string>& tokens) {
    int words = 0;
    for (const std::string& token : tokens) {
        if (!token.empty() && !is_punctuation_token(token)) ++words;
    }
    return words;
}

const TokenizerSettings& english_words_tokenizer() {
    static const TokenizerSettings english{TokenizerKind::kWords, "en"};
    return english;
}

int count_english_words(std::string_view text) { return count_words(tokenize(text, english_words_tokenizer())); }

std::vector<WordSpan> word_spans(const std::vector<std::string>& tokens, const TokenizerSettings& settings) {
    std::vector<WordSpan> spans;
    if (settings.kind != TokenizerKind::kSubwords) {
        for (size_t i = 0; i < tokens.size(); ++i) spans.push_back({tokens[i], static_cast<int>(i), static_cast<int>(i) + 1});
        return spans;
    }
    const std::vector<int> words = piece_words(tokens, settings.language);
    for (size_t i = 0; i < tokens.size(); ++i) {
        if (spans.empty() || static_cast<int>(spans.size()) - 1 != words[i]) {
            spans.push_back({"", static_cast<int>(i), static_cast<int>(i)});
        }
        spans.back().end = static_cast<int>(i) + 1;
    }
    for (WordSpan& span : spans) {
        std::string text = decode_pieces(std::vector<std::string>(tokens.begin() + span.start, tokens.begin() + span.end));
        while (!text.empty() && text.front() == ' ') text.erase(0, 1);
        span.text = std::move(text);
    }
    return spans;
}

namespace {

// True when a tokenizer writes the typed code point `typed` as `token`:
// lowercase, and for words and pieces the typographic apostrophe as "'"
// and a typed word marker as "_" (characters keep both).
bool spells(char32_t typed, char32_t token) {
    if (to_lower_code_point(typed) == token) return true;
    return (typed == 0x2019 && token == '\'') || (typed == 0x2581 && token == '_');
}

int utf16_units(char32_t cp) { return cp >= 0x10000 ? 2 : 1; }

}  // namespace

std::vector<TextRange> token_ranges(std::string_view text, const std::vector<std::string>& tokens) {
    std::vector<TextRange> ranges(tokens.size());
    size_t pos = 0;  // bytes of `text` read
    int unit = 0;    // UTF-16 code units of `text` read
    for (size_t k = 0; k < tokens.size(); ++k) {
        if (is_special_piece(tokens[k])) continue;
        std::vector<char32_t> wanted = decode_utf8(sanitize_utf8(tokens[k]));
        // A piece's word marker stands for the space before it; a piece that
        // is the marker alone (before a rare character) is that space.
        const bool marker = !wanted.empty() && wanted.front() == 0x2581;
        if (marker) wanted.erase(wanted.begin());
        // Spaces (and the NUL bytes sanitize_utf8 drops) between tokens.
        const int space_begin = unit;
        while (pos < text.size()) {
            const Utf8Char c = read_utf8_char(text, pos);
            if (c.code_point != 0 && !is_unicode_space(c.code_point)) break;
            pos += c.length;
            unit += utf16_units(c.code_point);
        }
        if (wanted.empty()) {
            if (marker) ranges[k] = {space_begin, unit};
            continue;
        }
        const int begin = unit;
        for (char32_t cp : wanted) {
            if (pos >= text.size()) return ranges;
            const Utf8Char c = read_utf8_char(text, pos);
            if (!spells(c.code_point, cp)) return ranges;  // not this text's tokens: no more ranges
            pos += c.length;
            unit += utf16_units(c.code_point);
        }
        ranges[k] = {begin, unit};
    }
    return ranges;
}

std::string join_tokens(const std::vector<std::string>& tokens) {
    std::string out;
    for (const auto& t : tokens) out += t + ' ';
    return out;
}

}  // namespace s2s
