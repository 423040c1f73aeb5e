// The possibly-dropped mark (dropped.h).
#include "decode/dropped.h"

#include "text/utf8.h"

#include <algorithm>
#include <cstdint>

namespace s2s {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// "1,000" -> "1000", "007" -> "7", "0" -> "0": the digits, leading zeros left out.
std::string digits_of(std::string_view text) {
    std::string digits;
    for (char c : text) {
        if (is_digit(c)) digits += c;
    }
    const size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos) return digits.empty() ? "" : "0";
    return digits.substr(first);
}

// A source word that is a number: digits, maybe grouped by ',' or '.'.
bool is_number_word(std::string_view word) {
    if (word.empty() || !is_digit(word.front()) || !is_digit(word.back())) return false;
    return std::all_of(word.begin(), word.end(), [](char c) { return is_digit(c) || c == ',' || c == '.'; });
}

// French number words, value by value (single words only: "vingt-deux" is
// read as no number, so it is never taken for another).
constexpr std::pair<std::string_view, int> kFrenchNumbers[] = {
    {"zéro", 0}, {"un", 1}, {"une", 1}, {"deux", 2}, {"trois", 3}, {"quatre", 4}, {"cinq", 5}, {"six", 6},
    {"sept", 7}, {"huit", 8}, {"neuf", 9}, {"dix", 10}, {"onze", 11}, {"douze", 12}, {"treize", 13},
    {"quatorze", 14}, {"quinze", 15}, {"seize", 16}, {"dix-sept", 17}, {"dix-huit", 18}, {"dix-neuf", 19},
    {"vingt", 20}, {"trente", 30}, {"quarante", 40}, {"cinquante", 50}, {"soixante", 60}, {"cent", 100},
    {"mille", 1000},
};

int han_digit(char32_t c) {
    switch (c) {
        case U'零': case U'〇': return 0;
        case U'一': return 1;
        case U'二': case U'两': return 2;
        case U'三': return 3;
        case U'四': return 4;
        case U'五': return 5;
        case U'六': return 6;
        case U'七': return 7;
        case U'八': return 8;
        case U'九': return 9;
        default: return -1;
    }
}
int han_unit(char32_t c) {
    switch (c) {
        case U'十': return 10;
        case U'百': return 100;
        case U'千': return 1000;
        case U'万': return 10000;
        default: return 0;
    }
}

// A run of Chinese numerals as digits: 三 3, 十二 12, 二十 20, 三百五十 350,
// 一九七四 (a year read digit by digit) 1974.
std::string han_number(const std::u32string& run) {
    const bool has_unit = std::any_of(run.begin(), run.end(), [](char32_t c) { return han_unit(c) != 0; });
    if (!has_unit) {
        std::string digits;
        for (char32_t c : run) digits += static_cast<char>('0' + han_digit(c));
        return digits_of(digits);
    }
    std::uint64_t total = 0, section = 0;
    int digit = -1;
    for (char32_t c : run) {
        if (han_digit(c) >= 0) {
            digit = han_digit(c);
        } else if (han_unit(c) == 10000) {
            total = (total + section + static_cast<std::uint64_t>(std::max(digit, 0))) * 10000;
            section = 0;
            digit = -1;
        } else {
            section += static_cast<std::uint64_t>(digit < 0 ? 1 : digit) * static_cast<std::uint64_t>(han_unit(c));
            digit = -1;
        }
    }
    return std::to_string(total + section + static_cast<std::uint64_t>(std::max(digit, 0)));
}

bool is_group_separator(char32_t c) { return c == U',' || c == U'.' || c == U' ' || c == U'\u00a0' || c == U'\u202f'; }

}  // namespace

bool never_dropped(std::string_view language, std::string_view word) {
    return std::any_of(std::begin(kNeverDropped), std::end(kNeverDropped),
                       [&](const auto& entry) { return entry.first == language && entry.second == word; });
}

std::vector<std::string> written_numbers(std::string_view text, std::string_view language) {
    std::vector<std::string> out;
    const std::vector<char32_t> chars = decode_utf8(sanitize_utf8(text));
    auto digit_at = [&](size_t i) { return i < chars.size() && chars[i] >= U'0' && chars[i] <= U'9'; };
    // Digit runs, each alone and joined with the next over one separator
    // ("1 000", "3,5"): a number the source groups one way may come out
    // grouped another.
    std::string joined;
    for (size_t i = 0; i < chars.size();) {
        if (!digit_at(i)) {
            ++i;
            continue;
        }
        std::string run;
        while (digit_at(i)) run += static_cast<char>(chars[i++]);
        out.push_back(digits_of(run));
        joined += run;
        if (i + 1 < chars.size() && is_group_separator(chars[i]) && digit_at(i + 1)) {
            ++i;
        } else {
            out.push_back(digits_of(joined));
            joined.clear();
        }
    }
    if (language == "zh") {
        std::u32string run;
        for (size_t i = 0; i <= chars.size(); ++i) {
            if (i < chars.size() && (han_digit(chars[i]) >= 0 || han_unit(chars[i]) != 0)) {
                run += chars[i];
            } else if (!run.empty()) {
                out.push_back(han_number(run));
                run.clear();
            }
        }
    } else if (language == "fr") {
        const std::string lower = to_lower_utf8(text);
        std::string word;
        for (size_t i = 0; i <= lower.size(); ++i) {
            const bool part = i < lower.size() && (static_cast<unsigned char>(lower[i]) >= 0x80 ||
                                                   (lower[i] >= 'a' && lower[i] <= 'z') || lower[i] == '-');
            if (part) {
                word += lower[i];
                continue;
            }
            for (const auto& [name, value] : kFrenchNumbers) {
                if (word == name) out.push_back(std::to_string(value));
            }
            word.clear();
        }
    }
    return out;
}

std::vector<int> possibly_dropped(const std::vector<float>& coverage, const std::vector<WordSpan>& source_words,
                                  const std::string& translation, const std::string& language) {
    std::vector<int> out;
    if (coverage.empty()) return out;
    const size_t S = coverage.size();
    std::vector<bool> flagged(S, false);
    std::vector<bool> skipped(S, false);
    for (const WordSpan& word : source_words) {
        if (word.end - word.start == 1 && word.start >= 0 && static_cast<size_t>(word.start) < S &&
            never_dropped(language, to_lower_utf8(word.text))) {
            skipped[static_cast<size_t>(word.start)] = true;
        }
    }
    for (size_t i = 0; i + 1 < S; ++i) {  // the source's <eos> is no word to drop
        if (coverage[i] < kPossiblyDroppedCoverage && !skipped[i]) flagged[i] = true;
    }
    std::vector<std::string> written;
    bool read = false;
    for (size_t w = 0; w < source_words.size(); ++w) {
        const WordSpan& word = source_words[w];
        if (!is_number_word(word.text)) continue;
        if (w > 0 && source_words[w - 1].text == ":") continue;  // the minutes of "8:30": "8 h 30", 八点半
        if (!read) {
            written = written_numbers(translation, language);
            read = true;
        }
        if (std::find(written.begin(), written.end(), digits_of(word.text)) != written.end()) continue;
        for (int i = word.start; i < word.end; ++i) {
            if (i >= 0 && static_cast<size_t>(i) + 1 < S) flagged[static_cast<size_t>(i)] = true;
        }
    }
    for (size_t i = 0; i < S; ++i) {
        if (flagged[i]) out.push_back(static_cast<int>(i));
    }
    return out;
}

}  // namespace s2s
