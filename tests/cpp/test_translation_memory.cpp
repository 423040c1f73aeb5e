// The translation-memory baseline (translation_memory.h): exact matches,
// IDF weighting and bigram tie-breaks.
#include "eval/translation_memory.h"

#include <doctest/doctest.h>

using namespace s2s;

namespace {
const TokenizerSettings kEnglish{TokenizerKind::kWords, "en"};

const std::vector<SentencePair> kPairs = {
    {"I am cold.", "J'ai froid."},
    {"I am hungry.", "J'ai faim."},
    {"The cat is black.", "Le chat est noir."},
    {"The dog is black.", "Le chien est noir."},
    {"Is the dog black?", "Le chien est-il noir ?"},
};
}  // namespace

TEST_CASE("translation memory: an exact sentence finds its own translation") {
    const TranslationMemory memory(kPairs, kEnglish);
    CHECK(memory.size() == 5);
    CHECK(memory.lookup("I am hungry.") == "J'ai faim.");
    CHECK(memory.lookup("the cat is black .") == "Le chat est noir.");  // same tokens, other spelling
}

TEST_CASE("translation memory: rare words outweigh common ones (IDF)") {
    const TranslationMemory memory(kPairs, kEnglish);
    // "hungry" occurs once, "the"/"is" three times: the rare word decides.
    CHECK(memory.lookup("The hungry is.") == "J'ai faim.");
    CHECK(memory.best_match("cat") == 2);
}

TEST_CASE("translation memory: bigrams break ties of word order") {
    const TranslationMemory memory(kPairs, kEnglish);
    // Same words as entries 3 and 4; only the bigrams tell them apart.
    CHECK(memory.lookup("the dog is black .") == "Le chien est noir.");
    CHECK(memory.lookup("is the dog black ?") == "Le chien est-il noir ?");
}

TEST_CASE("translation memory: nothing in common gives an empty answer") {
    const TranslationMemory memory(kPairs, kEnglish);
    CHECK(memory.best_match("zebras dance") == -1);
    CHECK(memory.lookup("zebras dance").empty());
    CHECK(memory.lookup("").empty());
    const TranslationMemory empty({}, kEnglish);
    CHECK(empty.lookup("I am cold.").empty());
}
