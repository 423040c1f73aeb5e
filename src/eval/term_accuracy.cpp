// Term accuracy (term_accuracy.h).
#include "eval/term_accuracy.h"

#include "common/error.h"
#include "text/tokenizer.h"
#include "text/utf8.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

namespace s2s {
namespace {

std::vector<std::string> split_tabs(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream stream(line);
    std::string field;
    while (std::getline(stream, field, '\t')) out.push_back(field);
    return out;
}

// Lowercased words: runs of code points that are neither space, punctuation,
// apostrophe nor hyphen.
std::vector<std::string> words_of(const std::string& text) {
    std::vector<std::string> words;
    std::string current;
    for (const char32_t cp : decode_utf8(to_lower_utf8(text))) {
        const bool separator = is_unicode_space(cp) || is_punctuation_code_point(cp) || cp == U'\'' || cp == U'\u2019' ||
                               cp == U'-' || cp == U'\u2010' || cp == U'\u2011';
        if (separator) {
            if (!current.empty()) words.push_back(std::move(current));
            current.clear();
        } else {
            current += encode_utf8(cp);
        }
    }
    if (!current.empty()) words.push_back(std::move(current));
    return words;
}

bool word_matches(const std::string& word, const std::string& term_word) {
    if (word == term_word) return true;
    for (const char* plural : {"s", "es", "x"}) {
        if (word == term_word + plural) return true;
    }
    return false;
}

// Positions where `term` starts in `words`.
bool matches_at(const std::vector<std::string>& words, size_t at, const std::vector<std::string>& term) {
    if (term.empty() || at + term.size() > words.size()) return false;
    for (size_t k = 0; k < term.size(); ++k) {
        if (!word_matches(words[at + k], term[k])) return false;
    }
    return true;
}

bool contains_words(const std::vector<std::string>& words, const std::vector<std::string>& term) {
    for (size_t at = 0; at < words.size(); ++at) {
        if (matches_at(words, at, term)) return true;
    }
    return false;
}

std::string without_spaces(const std::string& text) {
    std::string out;
    for (const char32_t cp : decode_utf8(to_lower_utf8(text))) {
        if (!is_unicode_space(cp)) out += encode_utf8(cp);
    }
    return out;
}

}  // namespace

std::vector<GlossaryTerm> read_glossary_terms(const std::string& path, const std::string& target_language) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DataError("cannot read the glossary " + path + "; check the path");
    std::string line;
    if (!std::getline(in, line)) throw DataError("the glossary " + path + " is empty; it needs a header line");
    const std::vector<std::string> header = split_tabs(line);
    const auto column = [&](const std::string& name) {
        const auto it = std::find(header.begin(), header.end(), name);
        if (it == header.end()) {
            throw DataError("the glossary " + path + " has no column '" + name +
                            "' in its header (tab-separated: english, french, gender, chinese, kind, topic)");
        }
        return static_cast<size_t>(it - header.begin());
    };
    const size_t english = column("english"), kind = column("kind");
    const size_t target = column(target_language == "zh" ? "chinese" : "french");
    std::vector<GlossaryTerm> terms;
    long line_number = 1;
    while (std::getline(in, line)) {
        ++line_number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        const std::vector<std::string> fields = split_tabs(line);
        if (fields.size() < header.size()) {
            throw DataError(path + ":" + std::to_string(line_number) + " has " + std::to_string(fields.size()) +
                            " columns, the header " + std::to_string(header.size()));
        }
        if (fields[kind] != "noun" && fields[kind] != "phrase") continue;
        terms.push_back({fields[english], fields[target]});
    }
    return terms;
}

TermAccuracy term_accuracy(const std::vector<GlossaryTerm>& terms, const std::vector<SourceWithReferences>& data,
                           const std::vector<std::string>& hypotheses, const std::string& target_language) {
    if (hypotheses.size() != data.size()) throw UsageError("term_accuracy: one translation per sentence is needed");
    const bool chinese = target_language == "zh";
    struct Prepared {
        std::vector<std::string> english;
        std::vector<std::string> target_words;
        std::string target_text;
        const GlossaryTerm* term;
    };
    std::vector<Prepared> prepared;
    for (const GlossaryTerm& term : terms) {
        prepared.push_back({words_of(term.english), words_of(term.target), without_spaces(term.target), &term});
    }
    // Longest English first, so that a phrase is taken before its words.
    std::stable_sort(prepared.begin(), prepared.end(),
                     [](const Prepared& a, const Prepared& b) { return a.english.size() > b.english.size(); });
    const auto in_text = [&](const Prepared& term, const std::vector<std::string>& words, const std::string& text) {
        return chinese ? text.find(term.target_text) != std::string::npos : contains_words(words, term.target_words);
    };
    TermAccuracy result;
    std::map<std::string, long> missed;
    for (size_t k = 0; k < data.size(); ++k) {
        const std::vector<std::string> source = words_of(data[k].source);
        std::vector<bool> taken(source.size(), false);
        std::vector<std::vector<std::string>> reference_words;
        std::vector<std::string> reference_texts;
        for (const std::string& reference : data[k].references) {
            reference_words.push_back(words_of(reference));
            reference_texts.push_back(without_spaces(reference));
        }
        const std::vector<std::string> output_words = words_of(hypotheses[k]);
        const std::string output_text = without_spaces(hypotheses[k]);
        for (const Prepared& term : prepared) {
            if (term.english.empty() || term.target_text.empty()) continue;
            for (size_t at = 0; at < source.size(); ++at) {
                if (!matches_at(source, at, term.english)) continue;
                if (std::any_of(taken.begin() + static_cast<long>(at),
                                taken.begin() + static_cast<long>(at + term.english.size()), [](bool t) { return t; })) {
                    continue;
                }
                std::fill(taken.begin() + static_cast<long>(at), taken.begin() + static_cast<long>(at + term.english.size()), true);
                bool in_reference = false;
                for (size_t r = 0; r < reference_texts.size() && !in_reference; ++r) {
                    in_reference = in_text(term, reference_words[r], reference_texts[r]);
                }
                if (!in_reference) continue;
                ++result.expected;
                if (in_text(term, output_words, output_text)) {
                    ++result.found;
                } else {
                    ++missed[term.term->english];
                }
            }
        }
    }
    result.missed.assign(missed.begin(), missed.end());
    std::stable_sort(result.missed.begin(), result.missed.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    return result;
}

nlohmann::json to_json(const TermAccuracy& accuracy, size_t max_missed) {
    nlohmann::json missed = nlohmann::json::array();
    for (size_t k = 0; k < accuracy.missed.size() && k < max_missed; ++k) {
        missed.push_back({accuracy.missed[k].first, accuracy.missed[k].second});
    }
    return {{"expected", accuracy.expected}, {"found", accuracy.found}, {"accuracy", accuracy.accuracy()},
            {"most_missed", missed}};
}

}  // namespace s2s
