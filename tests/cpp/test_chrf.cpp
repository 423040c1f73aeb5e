// Corpus and sentence chrF2 as sacreBLEU computes them (src/eval/chrf.h):
// edge cases, a sentence by hand, the choice among several references, and
// each sentence scored alone.
#include "eval/chrf.h"

#include <doctest/doctest.h>

#include <array>

using namespace s2s;

TEST_CASE("chrf: identical, disjoint, whitespace and case") {
    CHECK(corpus_chrf({"le chat"}, {{"le chat"}}) == doctest::Approx(100.0));
    CHECK(corpus_chrf({"xyz"}, {{"abc"}}) == 0.0);
    CHECK(corpus_chrf({""}, {{"abc"}}) == 0.0);
    // Whitespace is not part of any n-gram, Python's no-break spaces included...
    CHECK(corpus_chrf({"a b  c"}, {{"abc"}}) == doctest::Approx(100.0));
    CHECK(corpus_chrf({"danger\u202F?"}, {{"danger?"}}) == doctest::Approx(100.0));
    // ... but not U+200B, which Python does not count as whitespace.
    CHECK(corpus_chrf({"a\u200Bb"}, {{"ab"}}) < 100.0);
    // sacreBLEU's chrF is case-sensitive.
    CHECK(corpus_chrf({"Abc"}, {{"abc"}}) < 100.0);
}

TEST_CASE("chrf: a sentence computed by hand") {
    // hyp "ab", ref "abc": order 1: 2 of 2 match, ref 3; order 2: 1 of 1, ref 2;
    // order 3: the ref has "abc", the hyp no trigram (hyp 0: not effective);
    // orders 4-6: the ref has none, so the hyp's are not counted either.
    // P = (1 + 1) / 2 = 1, R = (2/3 + 1/2) / 2 = 7/12,
    // F2 = 5 P R / (4 P + R) = (35/12) / (55/12) = 7/11.
    CHECK(corpus_chrf({"ab"}, {{"abc"}}) == doctest::Approx(100.0 * 7.0 / 11.0).epsilon(1e-12));
    const ChrfStats stats = chrf_sentence_stats("ab", {"abc"});
    CHECK(stats.hypothesis_ngrams == std::array<long, 6>{2, 1, 0, 0, 0, 0});
    CHECK(stats.reference_ngrams == std::array<long, 6>{3, 2, 1, 0, 0, 0});
    CHECK(stats.matching_ngrams == std::array<long, 6>{2, 1, 0, 0, 0, 0});
}

TEST_CASE("chrf: several references: per sentence, the statistics of the best one") {
    CHECK(corpus_chrf({"abcd"}, {{"xyz", "abcd"}}) == doctest::Approx(100.0));
    CHECK(corpus_chrf({"abcd"}, {{"abcd", "xyz"}}) == doctest::Approx(100.0));
    // The corpus sums the chosen reference's counts: "abcd" (4 characters)
    // is picked over the longer "abcdzzzz", so the reference unigrams are 4.
    const ChrfStats stats = chrf_sentence_stats("abcd", {"abcdzzzz", "abcd"});
    CHECK(stats.reference_ngrams[0] == 4);
    // A tie keeps the first: both references score 0 here, and the first
    // one's 3 unigrams are summed, not the second one's 5.
    const ChrfStats first = chrf_sentence_stats("ab", {"xyz", "vwxyz"});
    CHECK(first.reference_ngrams[0] == 3);
}

TEST_CASE("chrf: each sentence's own score") {
    // The sentence by hand above, one identical pair, one disjoint, and the
    // best of two references: each scored alone, as a corpus of one is.
    const std::vector<std::string> hypotheses = {"ab", "le chat", "xyz", "abcd"};
    const std::vector<std::vector<std::string>> references = {{"abc"}, {"le chat"}, {"abc"}, {"", "xyz", "abcd"}};
    const std::vector<double> scores = sentence_chrf(hypotheses, references);
    REQUIRE(scores.size() == 4);
    CHECK(scores[0] == doctest::Approx(100.0 * 7.0 / 11.0).epsilon(1e-12));
    CHECK(scores[1] == doctest::Approx(100.0));
    CHECK(scores[2] == 0.0);
    CHECK(scores[3] == doctest::Approx(100.0));
    for (size_t k = 0; k < hypotheses.size(); ++k) CHECK(scores[k] == corpus_chrf({hypotheses[k]}, {references[k]}));
    // Not the corpus score: that sums the statistics before dividing.
    CHECK(corpus_chrf(hypotheses, references) != doctest::Approx((scores[0] + scores[1] + scores[2] + scores[3]) / 4));
}
