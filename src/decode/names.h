// Names and numbers as the source spells them (DecodeOptions::keep_names).
//
// The models read and write lowercase text, and a name they never saw in
// training comes out as pieces of other words ("Barack Obama" as "la bar
// acodeur"). After the search, with the translation's own attention:
//   - casing: an output word that is a name of the source, lowercased
//     ("mary", "boston", "gpu"), is written as the source writes it;
//   - copying: a name or number of the source that the translation does not
//     contain, that the model reads in several pieces (a word it has no
//     piece for: "Kowalczyk", not "Boston" or "January"), is copied
//     through as one word in place of the output words that attend to it
//     most (Luong et al., 2015's use of the alignment for rare words) when
//     the model wrote them unsure: their probability (the product of
//     theirs) under kUnsureWordProbability, after the words at the run's
//     ends that it was sure of (0.5 or more: "a" of "a visité") are left
//     out. Not when two words in a row that look mostly at the name were
//     written sure: that is the model's transliteration (王芳 for "Wang
//     Fang"). Listed in TranslationHypothesis::copied_words.
// The tokens, the attention and the probabilities stay what the model
// computed: only the words' text (and the text) change, and a copied word
// spans the pieces it replaced (with the product of their probabilities;
// mark_unsure, translator.h, then leaves it out of unsure_words). Without attention (the fixed-context
// baseline) there is no alignment to copy through: only the casing applies.
// A "name" is a source word with a capital letter first that is not the
// sentence's first word ("I" excepted), or the first word when it is no
// common sentence opener and either the next word is a name too ("Barack
// Obama visited", not "The Transformer") or the model reads it in three
// pieces or more ("Ngozi won"; also "Clipping", which is then copied only
// if the model was unsure of its words for it).
// models/README.md, "Names and numbers", measures it.
#pragma once

#include "decode/translator.h"

#include <string>

namespace s2s {

// Every hypothesis of `translation`, whose source side (source_words,
// source_offsets) is read once: `text` is the source as translated,
// `forced` the number of target tokens the caller forced (those words are
// never replaced). Leaves the hypotheses as they are when the text is not
// valid UTF-8.
void keep_source_names(const std::string& text, size_t forced, Translation& translation);

}  // namespace s2s
