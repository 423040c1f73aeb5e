// Sentence splitting (src/text/sentences.h): abbreviations, initials,
// decimals, quotes, ellipses, CJK punctuation, blank lines, offsets.
#include "text/sentences.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

std::vector<std::string> sentences(const std::string& text) {
    std::vector<std::string> out;
    for (const s2s::SentenceSpan& s : s2s::split_sentences(text)) out.push_back(text.substr(s.begin, s.end - s.begin));
    return out;
}

using List = std::vector<std::string>;

}  // namespace

TEST_CASE("sentences: terminators followed by a capital split; the spans are trimmed byte ranges") {
    CHECK(sentences("The cat is sleeping on the sofa. The dog is playing in the garden. Where is the bird?") ==
          List{"The cat is sleeping on the sofa.", "The dog is playing in the garden.", "Where is the bird?"});
    CHECK(sentences("  One.  Two!   Three?  ") == List{"One.", "Two!", "Three?"});
    CHECK(sentences("No terminator at the end") == List{"No terminator at the end"});
    CHECK(sentences("").empty());
    CHECK(sentences("   \n ").empty());
    CHECK(sentences("Really?! Yes.") == List{"Really?!", "Yes."});
    CHECK(sentences("He left. 42 people stayed.") == List{"He left.", "42 people stayed."});
}

TEST_CASE("sentences: abbreviations, initials and numbers keep their periods") {
    CHECK(sentences("Mr. Smith met Dr. Jones at St. Mary's. They talked.") == List{"Mr. Smith met Dr. Jones at St. Mary's.", "They talked."});
    CHECK(sentences("Use a model, e.g. Transformer or GRU. It works.") == List{"Use a model, e.g. Transformer or GRU.", "It works."});
    CHECK(sentences("I.e. this one. That one.") == List{"I.e. this one.", "That one."});
    CHECK(sentences("J. R. R. Tolkien wrote it. We read it.") == List{"J. R. R. Tolkien wrote it.", "We read it."});
    CHECK(sentences("It costs 3.14 euros. Pi is 3.14159.") == List{"It costs 3.14 euros.", "Pi is 3.14159."});
    CHECK(sentences("See example.com for more. Thanks.") == List{"See example.com for more.", "Thanks."});
    CHECK(sentences("Turn to No. 5 now. No. I refuse.") == List{"Turn to No. 5 now.", "No.", "I refuse."});
    CHECK(sentences("Apples, pears, etc. They are fruit.") == List{"Apples, pears, etc.", "They are fruit."});
    CHECK(sentences("Apples, pears, etc. are fruit.") == List{"Apples, pears, etc. are fruit."});
}

TEST_CASE("sentences: quotes, brackets and ellipses") {
    CHECK(sentences("He said \"Go home.\" Then he left.") == List{"He said \"Go home.\"", "Then he left."});
    CHECK(sentences("(This is an aside.) The rest follows.") == List{"(This is an aside.)", "The rest follows."});
    CHECK(sentences("Wait... I see it now.") == List{"Wait...", "I see it now."});
    CHECK(sentences("Well… maybe not.") == List{"Well… maybe not."});
    CHECK(sentences("She said “I agree.” We nodded.") == List{"She said “I agree.”", "We nodded."});
}

TEST_CASE("sentences: CJK punctuation needs no space; a blank line ends a sentence; Unicode offsets") {
    CHECK(sentences("我爱深度学习。你呢？我也是！") == List{"我爱深度学习。", "你呢？", "我也是！"});
    CHECK(sentences("A title without a period\n\nThe first sentence.") == List{"A title without a period", "The first sentence."});
    CHECK(sentences("One line\nstill the same sentence.") == List{"One line\nstill the same sentence."});
    CHECK(sentences("Café au lait. Él habla. Ça va.") == List{"Café au lait.", "Él habla.", "Ça va."});
    const std::string bad = std::string("Bad \xff byte. Next one.");
    CHECK(sentences(bad) == List{"Bad \xff byte.", "Next one."});
}
