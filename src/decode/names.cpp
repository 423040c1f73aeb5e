// Names and numbers as the source spells them (names.h).
#include "decode/names.h"

#include "text/bpe.h"
#include "text/tokenizer.h"
#include "text/utf8.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <string_view>

namespace s2s {
namespace {

bool is_word_character(char32_t cp) { return !is_punctuation_code_point(cp) && !is_unicode_space(cp); }

// Where a word found in a text ends: the characters around a name must not
// continue it ("tom" is not in "tomber"); a Chinese character does not
// continue a Latin word ("2015" is in "2015年").
bool continues_latin_word(char32_t cp) {
    return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
           (cp >= 0xC0 && cp < 0x250 && cp != 0xD7 && cp != 0xF7);
}

// The code point that ends just before byte `at` (> 0) of valid UTF-8 `text`.
char32_t code_point_before(std::string_view text, size_t at) {
    size_t back = at - 1;
    while (back > 0 && (static_cast<unsigned char>(text[back]) & 0xC0) == 0x80) --back;
    return read_utf8_char(text, back).code_point;
}

bool starts_with_capital(std::string_view word) {
    for (char32_t cp : decode_utf8(word)) {
        if (is_word_character(cp)) return to_lower_code_point(cp) != cp;
    }
    return false;
}

bool has_digit(std::string_view word) {
    return std::any_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool has_word_character(std::string_view word) {
    for (char32_t cp : decode_utf8(word)) {
        if (is_word_character(cp)) return true;
    }
    return false;
}

// Words that open an English sentence with a capital because they open it;
// one of them never starts a name even when a name follows ("The
// Transformer", "Dr Okafor").
constexpr std::string_view kOpeners[] = {
    "a",     "an",      "the",   "this",     "that",   "these",  "those",    "my",      "your",  "his",   "her",
    "its",   "our",     "their", "in",       "on",     "at",     "when",     "if",      "after", "before", "while",
    "because", "although", "since", "as",    "every",  "each",   "all",      "some",    "many",  "most",  "no",
    "one",   "what",    "which", "who",      "how",    "why",    "where",    "there",   "here",  "today", "yesterday",
    "tomorrow", "last", "next",  "dear",     "mr",     "mrs",    "ms",       "dr",      "professor", "do", "does",
    "did",   "is",      "are",   "was",      "were",   "can",    "will",     "please",  "so",    "and"};

bool is_opener(const std::string& lower) {
    return std::find(std::begin(kOpeners), std::end(kOpeners), lower) != std::end(kOpeners);
}

bool ends_sentence(std::string_view word) {
    return word == "." || word == "!" || word == "?" || word == ":" || word == "…" || word == "。" || word == "！" ||
           word == "？";
}

// A word the model wrote with at least this probability is its own, not a
// stand-in for a name it could not translate.
constexpr float kSureWordProbability = 0.5f;

// A sentence's first word read in this many pieces or more may be a name.
constexpr int kRarePieces = 3;

// A hyphen between two words of a run belongs to the run ("ko-mo").
bool is_joiner(std::string_view word) { return word == "-" || word == "'"; }

struct SourceWord {
    std::string spelled;  // as typed
    std::string lower;
    int start = 0;        // tokens [start, end)
    int end = 0;
    bool name = false;    // a capitalized name (names.h)
    bool number = false;  // holds a digit
};

// The source words as typed: each word's UTF-16 range (source_offsets)
// mapped back to bytes of `text`, trimmed.
std::vector<SourceWord> source_words_as_typed(const std::string& text, const Translation& translation) {
    std::vector<size_t> byte_of_unit;
    for (size_t pos = 0; pos < text.size();) {
        const Utf8Char c = read_utf8_char(text, pos);
        byte_of_unit.push_back(pos);
        if (c.code_point >= 0x10000) byte_of_unit.push_back(pos);
        pos += c.length;
    }
    byte_of_unit.push_back(text.size());
    const int units = static_cast<int>(byte_of_unit.size()) - 1;

    std::vector<SourceWord> words;
    for (const WordSpan& span : translation.source_words) {
        int begin = -1;
        int end = -1;
        for (int t = span.start; t < span.end && t < static_cast<int>(translation.source_offsets.size()); ++t) {
            const TextRange& r = translation.source_offsets[t];
            if (r.begin < 0 || r.end > units) continue;
            if (begin < 0) begin = r.begin;
            end = r.end;
        }
        SourceWord word;
        word.start = span.start;
        word.end = span.end;
        if (begin >= 0 && end >= begin) {
            std::string spelled = text.substr(byte_of_unit[begin], byte_of_unit[end] - byte_of_unit[begin]);
            const size_t first = spelled.find_first_not_of(" \t\n\r");
            const size_t last = spelled.find_last_not_of(" \t\n\r");
            word.spelled = first == std::string::npos ? "" : spelled.substr(first, last - first + 1);
        }
        word.lower = to_lower_utf8(word.spelled);
        words.push_back(std::move(word));
    }

    // Names: a capital first, not the sentence's first word ("I" excepted);
    // the first word too, below, when it is no opener.
    std::vector<bool> opens_capitalized(words.size(), false);
    bool initial = true;
    for (size_t i = 0; i < words.size(); ++i) {
        SourceWord& w = words[i];
        if (!has_word_character(w.spelled)) {
            if (ends_sentence(w.spelled)) initial = true;
            continue;
        }
        w.number = has_digit(w.spelled);
        const bool pronoun = w.lower == "i" || w.lower.rfind("i'", 0) == 0;
        const bool capital = starts_with_capital(w.spelled) && !pronoun;
        w.name = capital && !initial;
        opens_capitalized[i] = capital && initial && !is_opener(w.lower);
        initial = false;
    }
    // The first word is a name when a name follows it, or when the model
    // reads it in kRarePieces or more (a word rare in its training: "Ngozi",
    // but also "Clipping", which only the doubt test then tells apart).
    for (size_t i = 0; i < words.size(); ++i) {
        const bool name_follows = i + 1 < words.size() && words[i + 1].name;
        if (opens_capitalized[i] && (name_follows || words[i].end - words[i].start >= kRarePieces)) words[i].name = true;
    }
    return words;
}

// `needle` (lowercase) in `haystack` (lowercase) as a whole word.
bool contains_word(const std::string& haystack, const std::string& needle) {
    if (needle.empty()) return false;
    for (size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) {
        const bool before_ok = at == 0 || !continues_latin_word(code_point_before(haystack, at));
        const size_t after = at + needle.size();
        const bool after_ok = after >= haystack.size() || !continues_latin_word(read_utf8_char(haystack, after).code_point);
        if (before_ok && after_ok) return true;
    }
    return false;
}

struct Edit {
    int first = 0;  // target words [first, last]
    int last = 0;
    std::string text;
    bool copied = false;
};

// One hypothesis, the source's words as typed already read.
void keep_names(const std::vector<SourceWord>& source, size_t forced, TranslationHypothesis& h) {
    if (h.target_words.empty()) return;

    // Each target word's bytes in h.text, found in order (the text is the
    // words' pieces decoded, its first letter capitalized).
    const std::string lowered = to_lower_utf8(h.text);
    if (lowered.size() != h.text.size()) return;
    const size_t W = h.target_words.size();
    std::vector<size_t> begin(W, std::string::npos), end(W, std::string::npos);
    std::vector<std::string> word_lower(W);
    std::vector<bool> is_word(W, false);  // a word of text, not punctuation or a special token
    size_t pos = 0;
    for (size_t w = 0; w < W; ++w) {
        const std::string& t = h.target_words[w].text;
        if (t.empty() || is_special_piece(t)) continue;
        word_lower[w] = to_lower_utf8(t);
        if (word_lower[w].size() != t.size()) return;
        const size_t at = lowered.find(word_lower[w], pos);
        if (at == std::string::npos) return;
        begin[w] = at;
        end[w] = at + t.size();
        pos = end[w];
        is_word[w] = has_word_character(t);
    }

    std::vector<Edit> edits;
    std::vector<bool> taken(W, false);

    // Copying: spans of consecutive names and numbers the text lacks, whose
    // words in the translation the model wrote unsure.
    const AttentionMatrix& a = h.attention;
    if (!a.empty()) {
        std::vector<int> word_of_token(a.cols(), -1);
        for (size_t s = 0; s < source.size(); ++s) {
            for (int t = source[s].start; t < source[s].end && t < static_cast<int>(a.cols()); ++t) word_of_token[t] = static_cast<int>(s);
        }
        // Each target word's source word of most attention, and that mass.
        std::vector<int> aligned(W, -1);
        std::vector<double> mass_of(W, 0.0);
        for (size_t w = 0; w < W; ++w) {
            if (!is_word[w]) continue;
            std::vector<double> mass(source.size(), 0.0);
            for (int t = h.target_words[w].start; t < h.target_words[w].end && t < static_cast<int>(a.size()); ++t) {
                const auto row = a[t];
                for (size_t i = 0; i < row.size(); ++i) {
                    if (word_of_token[i] >= 0) mass[word_of_token[i]] += row[i];
                }
            }
            const auto best = std::max_element(mass.begin(), mass.end());
            if (best != mass.end()) {
                aligned[w] = static_cast<int>(best - mass.begin());
                mass_of[w] = *best;
            }
        }
        for (size_t s = 0; s < source.size();) {
            if (!(source[s].name || source[s].number)) {
                ++s;
                continue;
            }
            size_t e = s;
            while (e < source.size() && (source[e].name || source[e].number)) ++e;
            bool present = false;
            bool unknown = false;  // a word the model reads in pieces, or a number: one it may not know
            for (size_t k = s; k < e; ++k) {
                present = present || contains_word(lowered, source[k].lower);
                unknown = unknown || source[k].number || source[k].end - source[k].start >= 2;
            }
            if (!present && unknown) {
                // A target word that looks most at the span.
                const auto at_span = [&](size_t k) {
                    return is_word[k] && aligned[k] >= static_cast<int>(s) && aligned[k] < static_cast<int>(e);
                };
                const auto in_span = [&](size_t k) { return at_span(k) && !taken[k]; };
                // The runs of consecutive target words aligned to the span
                // (not forced); the one of most attention on it.
                int best_first = -1, best_last = -1;
                double best_mass = -1.0;
                for (size_t w = 0; w < W;) {
                    if (!in_span(w) || h.target_words[w].start < static_cast<int>(forced)) {
                        ++w;
                        continue;
                    }
                    size_t last = w;
                    double mass = 0.0;
                    while (last < W) {
                        if (in_span(last)) {
                            mass += mass_of[last];
                            ++last;
                        } else if (last + 1 < W && is_joiner(h.target_words[last].text) && in_span(last + 1)) {
                            ++last;
                        } else {
                            break;
                        }
                    }
                    if (mass > best_mass) {
                        best_mass = mass;
                        best_first = static_cast<int>(w);
                        best_last = static_cast<int>(last) - 1;
                    }
                    w = last;
                }
                // Two words in a row that the model wrote sure of itself
                // while looking mostly at the span are its transliteration of
                // the name (王芳 for "Wang Fang"): the model knows the name.
                // (One sure word is not enough: a model writes its favourite
                // words for what it cannot read, "vecteur" for "Ngozi".)
                const auto sure_of_span = [&](size_t w) {
                    const int tokens = h.target_words[w].end - h.target_words[w].start;
                    return at_span(w) && h.word_probabilities[w] >= kSureWordProbability && tokens > 0 && mass_of[w] / tokens >= 0.5;
                };
                for (size_t w = 0; w + 1 < W && best_first >= 0; ++w) {
                    if (sure_of_span(w) && sure_of_span(w + 1)) best_first = -1;
                }
                // Words at the run's ends that the model was sure of are
                // words of the sentence ("a" of "a visité", 年 of 2015年).
                while (best_first >= 0 && best_first <= best_last && h.word_probabilities[best_first] >= kSureWordProbability) ++best_first;
                while (best_first >= 0 && best_last >= best_first && h.word_probabilities[best_last] >= kSureWordProbability) --best_last;
                if (best_first >= 0 && best_first <= best_last) {
                    double p = 1.0;
                    for (int w = best_first; w <= best_last; ++w) p *= h.word_probabilities[w];
                    if (p < kUnsureWordProbability) {
                        std::string spelled = source[s].spelled;
                        for (size_t k = s + 1; k < e; ++k) spelled += " " + source[k].spelled;
                        edits.push_back({best_first, best_last, spelled, true});
                        for (int w = best_first; w <= best_last; ++w) taken[w] = true;
                    }
                }
            }
            s = e;
        }
    }

    // Casing: a name of the source that the translation writes lowercased.
    std::map<std::string, std::string> cased;
    for (const SourceWord& w : source) {
        if (w.name && w.spelled != w.lower) cased.emplace(w.lower, w.spelled);
    }
    for (size_t w = 0; w < W; ++w) {
        if (!is_word[w] || taken[w]) continue;
        const auto it = cased.find(word_lower[w]);
        if (it != cased.end() && h.target_words[w].text != it->second) edits.push_back({static_cast<int>(w), static_cast<int>(w), it->second, false});
    }
    if (edits.empty()) return;
    std::sort(edits.begin(), edits.end(), [](const Edit& x, const Edit& y) { return x.first < y.first; });

    // The text, each edit's bytes replaced (last first, so earlier offsets hold).
    std::string out = h.text;
    for (auto it = edits.rbegin(); it != edits.rend(); ++it) {
        std::string replacement = it->text;
        // A copied Latin word beside another (in a Chinese translation,
        // where Latin words meet without a space) keeps a space between.
        const size_t from = begin[it->first], to = end[it->last];
        if (it->copied && to < out.size() && continues_latin_word(read_utf8_char(out, to).code_point)) replacement += ' ';
        if (it->copied && from > 0 && continues_latin_word(code_point_before(out, from))) replacement.insert(0, " ");
        out.replace(from, to - from, replacement);
    }
    // The words: an edit's words become one word over their pieces.
    std::vector<WordSpan> words;
    std::vector<float> probabilities;
    std::vector<int> copied;
    size_t next = 0;
    for (size_t w = 0; w < W;) {
        if (next < edits.size() && edits[next].first == static_cast<int>(w)) {
            const Edit& edit = edits[next++];
            float p = 1.0f;
            for (int k = edit.first; k <= edit.last; ++k) p *= h.word_probabilities[k];
            if (edit.copied) copied.push_back(static_cast<int>(words.size()));
            words.push_back({edit.text, h.target_words[edit.first].start, h.target_words[edit.last].end});
            probabilities.push_back(p);
            w = edit.last + 1;
            continue;
        }
        words.push_back(h.target_words[w]);
        probabilities.push_back(h.word_probabilities[w]);
        ++w;
    }
    h.text = std::move(out);
    h.target_words = std::move(words);
    h.word_probabilities = std::move(probabilities);
    h.copied_words = std::move(copied);
}

}  // namespace

void keep_source_names(const std::string& text, size_t forced, Translation& translation) {
    if (!is_valid_utf8(text) || translation.hypotheses.empty()) return;
    const std::vector<SourceWord> source = source_words_as_typed(text, translation);
    for (TranslationHypothesis& h : translation.hypotheses) keep_names(source, forced, h);
}

}  // namespace s2s
