// Sentence splitting (sentences.h).
#include "text/sentences.h"

#include "text/utf8.h"

#include <string>
#include <vector>

namespace s2s {
namespace {

struct CodePoint {
    char32_t value;
    size_t begin;  // byte offsets in the text
    size_t end;
};

// The text's code points with their byte offsets (an invalid sequence is
// one U+FFFD: read_utf8_char).
std::vector<CodePoint> code_points(std::string_view text) {
    std::vector<CodePoint> out;
    out.reserve(text.size());
    for (size_t at = 0; at < text.size();) {
        const Utf8Char c = read_utf8_char(text, at);
        out.push_back({c.code_point, at, at + c.length});
        at += c.length;
    }
    return out;
}

bool is_fullwidth_terminator(char32_t c) { return c == U'。' || c == U'！' || c == U'？'; }
bool is_terminator(char32_t c) { return c == U'.' || c == U'!' || c == U'?' || c == U'…' || is_fullwidth_terminator(c); }
bool is_closer(char32_t c) {
    return c == U'"' || c == U'\'' || c == U'”' || c == U'’' || c == U'»' || c == U')' || c == U']' || c == U'}' || c == U'」' ||
           c == U'』' || c == U'）' || c == U'》';
}
bool is_ascii_letter(char32_t c) { return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z'); }
bool is_digit(char32_t c) { return c >= U'0' && c <= U'9'; }
// Lowercase letters of the scripts the models read (a word that cannot
// start a sentence).
bool is_lowercase(char32_t c) {
    return (c >= U'a' && c <= U'z') || (c >= 0xDF && c <= 0xFF && c != 0xF7) ||
           (c >= 0x100 && c <= 0x17F && (c % 2) == 1) || (c >= 0x3AC && c <= 0x3CE) || (c >= 0x430 && c <= 0x45F);
}

// Abbreviations after which a period does not end a sentence (lowercased,
// without their final period). "etc." is not one: before a capital it
// usually ends the sentence, and before a lowercase word nothing is cut anyway.
bool is_abbreviation(const std::string& word) {
    static const char* const kWords[] = {"mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "cf", "fig", "figs", "vol",
                                         "mt", "inc", "ltd", "co", "corp", "approx", "dept", "est", "al", "eq", "sec", "ch",
                                         "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
                                         "gen", "gov", "rep", "sen", "rev", "capt", "col", "lt", "sgt", "mme", "mlle", "m"};
    for (const char* known : kWords) {
        if (word == known) return true;
    }
    return false;
}

// The word right before position `period` (letters and inner periods:
// "Mr", "e.g", "U.S"), lowercased.
std::string word_before(const std::vector<CodePoint>& cps, size_t period) {
    size_t start = period;
    while (start > 0 && (is_ascii_letter(cps[start - 1].value) || cps[start - 1].value == U'.')) --start;
    std::string word;
    for (size_t i = start; i < period; ++i) {
        const char32_t c = cps[i].value;
        word.push_back(static_cast<char>(c >= U'A' && c <= U'Z' ? c - U'A' + U'a' : c));
    }
    return word;
}

// Whether a single period at `period`, followed (after whitespace) by
// `next`, belongs to the word before it rather than ending the sentence.
bool period_of_word(const std::vector<CodePoint>& cps, size_t period, char32_t next) {
    const std::string word = word_before(cps, period);
    if (word.empty()) return false;
    if (word.find('.') != std::string::npos) return true;                    // e.g. i.e. U.S. a.m.
    // An initial: "J. Smith" (a word of its own, so not the s of "Mary's."; not "I." or "a.").
    const bool own_word = period < 2 || is_unicode_space(cps[period - 2].value) || cps[period - 2].value == U'(' || cps[period - 2].value == U'"';
    if (word.size() == 1 && own_word && word[0] != 'i' && word[0] != 'a') return true;
    if (word == "no" || word == "nos" || word == "p" || word == "pp") return is_digit(next);  // "No. 5", "p. 12"
    return is_abbreviation(word);
}

}  // namespace

std::vector<SentenceSpan> split_sentences(std::string_view text) {
    const std::vector<CodePoint> cps = code_points(text);
    const size_t n = cps.size();
    std::vector<SentenceSpan> out;
    size_t start = 0;  // code point index where the current sentence may start
    const auto cut = [&](size_t end) {  // [start, end) in code points, trimmed
        size_t first = start, last = end;
        while (first < last && is_unicode_space(cps[first].value)) ++first;
        while (last > first && is_unicode_space(cps[last - 1].value)) --last;
        if (first < last) out.push_back({cps[first].begin, cps[last - 1].end});
        start = end;
    };
    size_t i = 0;
    while (i < n) {
        const char32_t c = cps[i].value;
        if (c == U'\n') {  // a blank line ends a paragraph, and its sentence
            size_t j = i + 1;
            while (j < n && is_unicode_space(cps[j].value) && cps[j].value != U'\n') ++j;
            if (j < n && cps[j].value == U'\n') {
                cut(i);
                i = j + 1;
                continue;
            }
        }
        if (!is_terminator(c)) {
            ++i;
            continue;
        }
        size_t j = i + 1;
        while (j < n && is_terminator(cps[j].value)) ++j;  // "?!", "..."
        while (j < n && is_closer(cps[j].value)) ++j;      // the quote or bracket it closes
        const bool run = j - i > 1 && is_terminator(cps[i + 1].value);
        if (j == n || is_fullwidth_terminator(cps[j - 1].value) || is_fullwidth_terminator(c)) {
            cut(j);
            i = j;
            continue;
        }
        if (!is_unicode_space(cps[j].value)) {  // 3.14, example.com, "a.b"
            i = j;
            continue;
        }
        size_t k = j;
        while (k < n && is_unicode_space(cps[k].value)) ++k;
        if (k == n) {
            cut(j);
            break;
        }
        const char32_t next = cps[k].value;
        if (is_lowercase(next) || (c == U'.' && !run && period_of_word(cps, i, next))) {
            i = j;
            continue;
        }
        cut(j);
        i = k;
    }
    cut(n);
    return out;
}

}  // namespace s2s
