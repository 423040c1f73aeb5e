#include "eval/bleu.h"

#include "common/error.h"

#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

using namespace s2s;

namespace {

Tokens words(const std::string& text) {
    Tokens tokens;
    std::istringstream stream(text);
    for (std::string token; stream >> token;) tokens.push_back(token);
    return tokens;
}

}  // namespace

TEST_CASE("bleu: a perfect match scores 100") {
    const std::vector<Tokens> hypotheses = {words("the cat sat on the mat ."), words("i am here now")};
    const std::vector<std::vector<Tokens>> references = {{words("the cat sat on the mat .")},
                                                         {words("i am here now")}};
    const BleuScore score = corpus_bleu(hypotheses, references);
    CHECK(score.bleu == doctest::Approx(100.0).epsilon(1e-12));
    CHECK(score.brevity_penalty == 1.0);
    for (double precision : score.precisions) CHECK(precision == doctest::Approx(100.0));
    CHECK(score.hypothesis_length == 11);
    CHECK(score.reference_length == 11);
    CHECK(score.sentences == 2);
}

TEST_CASE("bleu: the Papineni 2002 example clips unigram counts to the reference maximum") {
    const std::vector<Tokens> hypotheses = {words("the the the the the the the")};
    const std::vector<std::vector<Tokens>> references = {
        {words("the cat is on the mat"), words("there is a cat on the mat")}};
    const BleuScore score = corpus_bleu(hypotheses, references);
    // "the" occurs at most twice in a reference, so 2 of the 7 count.
    CHECK(score.precisions[0] == doctest::Approx(100.0 * 2.0 / 7.0).epsilon(1e-12));
    CHECK(score.precisions[1] == 0.0);
    CHECK(score.bleu == 0.0);  // no bigram matches: no smoothing
}

TEST_CASE("bleu: brevity penalty on a short hypothesis") {
    // Every n-gram matches; c = 4, r = 6, so BLEU = 100 * exp(1 - 6/4) = 100 * exp(-0.5).
    const BleuScore score = corpus_bleu({words("the cat sat on")}, {{words("the cat sat on the mat")}});
    for (double precision : score.precisions) CHECK(precision == doctest::Approx(100.0));
    CHECK(score.hypothesis_length == 4);
    CHECK(score.reference_length == 6);
    CHECK(score.brevity_penalty == doctest::Approx(0.6065306597126334).epsilon(1e-12));
    CHECK(score.bleu == doctest::Approx(60.653065971263345).epsilon(1e-12));
}

TEST_CASE("bleu: a longer hypothesis has no brevity penalty") {
    const BleuScore score = corpus_bleu({words("a b c d e f")}, {{words("a b c d e")}});
    CHECK(score.brevity_penalty == 1.0);
}

TEST_CASE("bleu: multi-reference uses the reference length closest to the hypothesis") {
    const Tokens five = words("a b c d e");
    SUBCASE("closest wins") {
        const BleuScore score = corpus_bleu({five}, {{words("a b c"), words("a b c d e f"), words("a b c d e f g")}});
        CHECK(score.reference_length == 6);
    }
    SUBCASE("ties go to the shorter reference") {
        CHECK(corpus_bleu({five}, {{words("a b c d e f"), words("a b c d")}}).reference_length == 4);
        CHECK(corpus_bleu({five}, {{words("a b c d e f g"), words("a b c")}}).reference_length == 3);
    }
    SUBCASE("an exact length match") {
        const BleuScore score = corpus_bleu({five}, {{words("x y z"), words("v w x y z"), words("a b c d e f")}});
        CHECK(score.reference_length == 5);
        CHECK(score.brevity_penalty == 1.0);
    }
}

TEST_CASE("bleu: a small corpus computed by hand") {
    // Sentence 1: hyp "a b c d e", ref "a b c d f"
    //   matches/totals 1..4: 4/5, 3/4, 2/3, 1/2; c = 5, r = 5
    // Sentence 2: hyp "x y x y", refs "x y z" (3) and "x y x w w" (5)
    //   lengths 3 and 5 tie at distance 1 -> r = 3
    //   unigrams x:2 (max ref count 2), y:2 (max 1) -> 3/4
    //   bigrams xy:2 (max 1), yx:1 (max 1) -> 2/3
    //   trigrams xyx (1), yxy (0) -> 1/2;  4-gram xyxy -> 0/1
    // Sentence 3: hyp "p q", ref "p q r s t u": 2/2, 1/1, 0/0, 0/0; c = 2, r = 6
    // Corpus: 9/11, 6/8, 3/5, 1/3; c = 11, r = 14
    // BLEU = 100 * exp(1 - 14/11) * (9/11 * 3/4 * 3/5 * 1/3)^(1/4) = 100 * exp(-3/11) * (27/220)^(1/4)
    const std::vector<Tokens> hypotheses = {words("a b c d e"), words("x y x y"), words("p q")};
    const std::vector<std::vector<Tokens>> references = {
        {words("a b c d f")}, {words("x y z"), words("x y x w w")}, {words("p q r s t u")}};
    const BleuScore score = corpus_bleu(hypotheses, references);
    CHECK(score.hypothesis_length == 11);
    CHECK(score.reference_length == 14);
    CHECK(std::abs(score.precisions[0] - 100.0 * 9.0 / 11.0) < 1e-9);
    CHECK(std::abs(score.precisions[1] - 75.0) < 1e-9);
    CHECK(std::abs(score.precisions[2] - 60.0) < 1e-9);
    CHECK(std::abs(score.precisions[3] - 100.0 / 3.0) < 1e-9);
    CHECK(std::abs(score.brevity_penalty - std::exp(-3.0 / 11.0)) < 1e-12);
    const double expected = 100.0 * std::exp(-3.0 / 11.0) * std::pow(27.0 / 220.0, 0.25);
    CHECK(std::abs(score.bleu - expected) < 1e-9);
    CHECK(std::abs(score.bleu - 45.06001388612936) < 1e-9);
}

TEST_CASE("bleu: empty output and empty corpus give 0") {
    const BleuScore empty_hypothesis = corpus_bleu({Tokens{}}, {{words("a b c d")}});
    CHECK(empty_hypothesis.bleu == 0.0);
    CHECK(empty_hypothesis.hypothesis_length == 0);
    const BleuScore empty_corpus = corpus_bleu({}, {});
    CHECK(empty_corpus.bleu == 0.0);
    CHECK(empty_corpus.sentences == 0);
    // Too short for any 4-gram: that precision is zero, so BLEU is zero.
    CHECK(corpus_bleu({words("a b c")}, {{words("a b c")}}).bleu == 0.0);
}

TEST_CASE("bleu: tokens with separator-like text do not collide") {
    // A naive "join with space" key would make these bigrams equal.
    const BleuScore score = corpus_bleu({{"a b", "c"}}, {{{"a", "b c"}}});
    CHECK(score.precisions[0] == 0.0);
    CHECK(score.precisions[1] == 0.0);
}

TEST_CASE("bleu: length buckets") {
    const auto& buckets = length_buckets();
    REQUIRE(buckets.size() == 4);
    CHECK(buckets[0].label == "1-4");
    CHECK(buckets[1].label == "5-7");
    CHECK(buckets[2].label == "8-11");
    CHECK(buckets[3].label == "12+");
    CHECK(buckets[0].min_words == 1);
    CHECK(buckets[0].max_words == 4);
    CHECK(buckets[1].min_words == 5);
    CHECK(buckets[1].max_words == 7);
    CHECK(buckets[2].min_words == 8);
    CHECK(buckets[2].max_words == 11);
    CHECK(buckets[3].min_words == 12);
    CHECK(buckets[3].max_words > 1000000);
}

TEST_CASE("bleu: report assigns sentences to buckets by source length") {
    const std::vector<int> source_words = {0, 1, 4, 8, 11, 12, 50};
    // Perfect hypotheses that also differ per sentence, so that each bucket's
    // score depends only on its own sentences.
    std::vector<Tokens> hypotheses;
    std::vector<std::vector<Tokens>> references;
    for (size_t k = 0; k < source_words.size(); ++k) {
        const std::string s = std::to_string(k);
        hypotheses.push_back(words("w" + s + " x y z"));
        references.push_back({words("w" + s + " x y z")});
    }
    // A wrong sentence in "12+" lowers only that bucket.
    hypotheses[6] = words("q q q q");

    const BleuReport report = bleu_report(hypotheses, references, source_words);
    REQUIRE(report.by_length.size() == 4);
    CHECK(report.overall.sentences == 7);
    CHECK(report.by_length[0].first.label == "1-4");
    CHECK(report.by_length[0].second.sentences == 3);  // 0, 1 and 4 words
    CHECK(report.by_length[0].second.bleu == doctest::Approx(100.0));
    CHECK(report.by_length[1].first.label == "5-7");
    CHECK(report.by_length[1].second.sentences == 0);  // empty bucket
    CHECK(report.by_length[1].second.bleu == 0.0);
    CHECK(report.by_length[2].second.sentences == 2);  // 8 and 11
    CHECK(report.by_length[2].second.bleu == doctest::Approx(100.0));
    CHECK(report.by_length[3].second.sentences == 2);  // 12 and 50
    CHECK(report.by_length[3].second.hypothesis_length == 8);
    CHECK(report.by_length[3].second.precisions[0] == doctest::Approx(50.0));
    CHECK(report.overall.bleu < 100.0);

    const nlohmann::json json = to_json(report);
    REQUIRE(json["by_length"].size() == 4);
    CHECK(json["by_length"][0]["bucket"] == "1-4");
    CHECK(json["by_length"][0]["min_words"] == 1);
    CHECK(json["by_length"][0]["max_words"] == 4);
    CHECK(json["by_length"][1]["sentences"] == 0);
    CHECK(json["by_length"][1]["bleu"] == 0.0);
    CHECK(json["by_length"][2]["bucket"] == "8-11");
    CHECK(json["by_length"][3]["bucket"] == "12+");
    CHECK(json["overall"]["sentences"] == 7);
}

TEST_CASE("bleu: score JSON has every field") {
    const BleuScore score = corpus_bleu({words("the cat sat on")}, {{words("the cat sat on the mat")}});
    const nlohmann::json json = to_json(score);
    CHECK(json["bleu"].get<double>() == doctest::Approx(score.bleu));
    CHECK(json["brevity_penalty"].get<double>() == doctest::Approx(score.brevity_penalty));
    REQUIRE(json["precisions"].is_array());
    CHECK(json["precisions"].size() == 4);
    CHECK(json["hypothesis_length"] == 4);
    CHECK(json["reference_length"] == 6);
    CHECK(json["sentences"] == 1);
}

TEST_CASE("bleu: errors") {
    CHECK_THROWS_AS(corpus_bleu({words("a"), words("b")}, {{words("a")}}), UsageError);
    CHECK_THROWS_AS(corpus_bleu({words("a")}, {{}}), UsageError);
    CHECK_THROWS_WITH_AS(corpus_bleu({words("a"), words("b")}, {{words("a")}, {}}),
                         doctest::Contains("sentence 2"), UsageError);
    CHECK_THROWS_AS(bleu_report({words("a")}, {{words("a")}}, {}), UsageError);
    CHECK_THROWS_AS(bleu_report({words("a")}, {{words("a")}}, {3, 4}), UsageError);
    CHECK_THROWS_AS(bleu_report({words("a")}, {{words("a")}}, {-1}), UsageError);
    CHECK_THROWS_AS(bleu_report({words("a")}, {{}}, {3}), UsageError);
}
