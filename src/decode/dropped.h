// The possibly-dropped mark (TranslationHypothesis::possibly_dropped): which
// source words a translation may have dropped. Two signals, both measured on
// the development splits by scripts/coverage-skips.mjs (models/README.md,
// "Possibly dropped"):
//   - coverage: a source token whose attention, summed over all output
//     tokens, stays under kPossiblyDroppedCoverage was barely looked at,
//     unless its word is one the target language leaves untranslated
//     (kNeverDropped: English articles, the copula, "to" into Chinese);
//   - numbers: a number of the source (digits: "2", "1,000", "3.5"; not the
//     minutes of "8:30") that the translation writes neither in digits nor
//     as a number word of its language ("deux", "两", "二十"). Coverage cannot
//     see such a drop: "I have 3 cats and 2 dogs." into Chinese as
//     "我有三只猫和20只猫。" looked at "2" and "dogs" (1.9 and 1.5) and lost them.
#pragma once

#include "text/tokenizer.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s2s {

// A source token whose attention, summed over all output tokens, stays
// under this was barely looked at: a translation that skipped it may have
// dropped it. A token translated by one output token gets about 1; 0.1 is a
// tenth of a glance (the coverage penalty's idea, Wu et al., 2016, eq. 14).
// JavaScript reads it from dist/options.js (possiblyDroppedCoverage, written
// from limits(): src/wasm/envelope.h).
inline constexpr float kPossiblyDroppedCoverage = 0.1f;

// Source words (one piece, lowercase) the coverage signal never flags for a
// target language: words the shipped models leave to the words around them
// when they translate well. Measured, not chosen: the words whose mean
// coverage is under 0.6 over at least 15 occurrences in the development
// translations with sentence chrF2 >= 60 (a word translated by one output
// token gets about 1), by
//   node scripts/coverage-skips.mjs --dev checkpoints/compare
// (Tatoeba's en-XX-dev.tsv and data/domain-dev.en-XX.tsv, beam 4): into
// Chinese the article, the copula before an adjective ("The market is
// big." 市场很大), "to" before a verb and "of"; into French "let's" (the
// imperative: "allons"), "will" and "would" (the verb's ending), "lot" and
// "much" ("beaucoup") and "to" before a verb ("je veux rester").
inline constexpr std::pair<std::string_view, std::string_view> kNeverDropped[] = {
    {"zh", "the"}, {"zh", "are"}, {"zh", "is"}, {"zh", "to"}, {"zh", "of"},
    {"fr", "let's"}, {"fr", "would"}, {"fr", "will"}, {"fr", "lot"}, {"fr", "much"}, {"fr", "to"},
};

// Whether the coverage signal never flags `word` (lowercase) into `language`.
bool never_dropped(std::string_view language, std::string_view word);

// The number values (as digit strings, separators and leading zeros left
// out) that `text` writes in digits or, in `language` ("fr", "zh"), in words.
std::vector<std::string> written_numbers(std::string_view text, std::string_view language);

// The source tokens (indices) flagged as possibly dropped: those under
// kPossiblyDroppedCoverage whose word is not in kNeverDropped for
// `language`, and those of every source number `translation` does not
// write; in order, the final <eos> left out. Empty without coverage (the
// fixed-context baseline has no attention to read).
std::vector<int> possibly_dropped(const std::vector<float>& coverage, const std::vector<WordSpan>& source_words,
                                  const std::string& translation, const std::string& language);

}  // namespace s2s
