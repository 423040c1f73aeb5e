// Term accuracy: of the glossary terms that a sentence's English contains
// and its reference translates with the glossary's term, the share that the
// translation contains too. It says whether a model writes the field's
// words (encoder, attention weight, deep learning) where BLEU, averaged
// over every word, hardly moves.
//
// Terms are the glossary's nouns and phrases (data/glossary/glossary.tsv;
// verbs and adjectives inflect too much to be looked up as written). A term
// matches whole words, case-insensitively, each word also with a plural
// "s", "es" or "x"; apostrophes and hyphens separate words. In Chinese a
// term matches as a substring. On the English side the longest terms are
// taken first and do not overlap ("attention weight" leaves no
// "attention"). A term is expected when any reference contains it.
#pragma once

#include "corpus/parallel_corpus.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace s2s {

struct GlossaryTerm {
    std::string english;
    std::string target;
};

// The nouns and phrases of a glossary TSV with a header naming the columns
// english, french, chinese and kind; `target_language` fr or zh picks the
// column. Throws DataError naming the file and what is missing.
std::vector<GlossaryTerm> read_glossary_terms(const std::string& path, const std::string& target_language);

struct TermAccuracy {
    long expected = 0;  // terms in the English and in a reference
    long found = 0;     // ... of which the translation contains
    std::vector<std::pair<std::string, long>> missed;  // by English term, most missed first
    double accuracy() const { return expected > 0 ? 100.0 * static_cast<double>(found) / static_cast<double>(expected) : 0.0; }
};

TermAccuracy term_accuracy(const std::vector<GlossaryTerm>& terms, const std::vector<SourceWithReferences>& data,
                           const std::vector<std::string>& hypotheses, const std::string& target_language);

nlohmann::json to_json(const TermAccuracy& accuracy, size_t max_missed = 20);

}  // namespace s2s
