// sacreBLEU-compatible BLEU (src/eval/bleu.h, bleu_report.h): the reference
// cases computed by sacreBLEU 2.6.0 (BLEU and chrF2), then BLEU's maths by
// hand and the report by length. The tokenizers are checked in
// test_sacrebleu_text.cpp, chrF2's maths in test_chrf.cpp.
#include "eval/bleu.h"
#include "eval/bleu_report.h"
#include "eval/chrf.h"
#include "eval/evaluate.h"
#include "eval/sacrebleu_text.h"

#include "common/error.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace s2s;

namespace {

using Strings = std::vector<std::string>;

// Cases computed by sacreBLEU 2.6.0 itself: shared data beside the checkout
// (../shared/data/sacrebleu-reference), as in CI.
const std::string kReferenceCases = S2S_SOURCE_DIR "/../shared/data/sacrebleu-reference/cases.json";

nlohmann::json load_reference_cases() {
    if (!std::filesystem::exists(kReferenceCases)) {
        FAIL("missing " << kReferenceCases
                        << ": the sacreBLEU 2.6.0 reference cases live in shared/data beside the checkout (as in CI); "
                           "put the shared folder there to run this test");
    }
    std::ifstream in(kReferenceCases);
    return nlohmann::json::parse(in);
}

BleuTokenizer tokenizer_named(const std::string& name) {
    REQUIRE_MESSAGE((name == "13a" || name == "zh"), "unexpected tokenizer in cases.json: " << name);
    return name == "zh" ? BleuTokenizer::kZh : BleuTokenizer::k13a;
}

}  // namespace

TEST_CASE("sacreBLEU 2.6.0 reference cases: counts, lengths and signature exactly, BLEU, BP and chrF2 within 0.01") {
    const nlohmann::json file = load_reference_cases();
    const nlohmann::json& cases = file.at("cases");
    // Guard against an empty or truncated file making the loop vacuous.
    REQUIRE(cases.size() >= 5);
    double max_bleu_diff = 0.0;
    double max_chrf_diff = 0.0;
    for (const nlohmann::json& reference : cases) {
        const std::string name = reference.at("name");
        CAPTURE(name);
        REQUIRE(reference.at("lowercase").get<bool>());  // what this scorer implements
        const Strings hypotheses = reference.at("hypotheses").get<Strings>();
        const auto references = reference.at("references").get<std::vector<Strings>>();
        const BleuTokenizer tokenizer = tokenizer_named(reference.at("tokenize"));

        const BleuScore bleu = corpus_bleu(hypotheses, references, tokenizer);
        const auto counts = reference.at("counts").get<std::vector<long>>();
        const auto totals = reference.at("totals").get<std::vector<long>>();
        REQUIRE(counts.size() == kBleuMaxOrder);
        REQUIRE(totals.size() == kBleuMaxOrder);
        for (int i = 0; i < kBleuMaxOrder; ++i) {
            CAPTURE(i);
            CHECK(bleu.counts[i] == counts[i]);
            CHECK(bleu.totals[i] == totals[i]);
        }
        CHECK(bleu.hypothesis_length == reference.at("sys_len").get<long>());
        CHECK(bleu.reference_length == reference.at("ref_len").get<long>());
        const double expected_bleu = reference.at("bleu");
        const double expected_bp = reference.at("bp");
        const double expected_chrf = reference.at("chrf2");
        CHECK(std::abs(bleu.bleu - expected_bleu) <= 0.01);
        CHECK(std::abs(bleu.brevity_penalty - expected_bp) <= 0.01);
        const double chrf = corpus_chrf(hypotheses, references);
        CHECK(std::abs(chrf - expected_chrf) <= 0.01);
        max_bleu_diff = std::max(max_bleu_diff, std::abs(bleu.bleu - expected_bleu));
        max_chrf_diff = std::max(max_chrf_diff, std::abs(chrf - expected_chrf));

        // The report scores the same way and writes sacreBLEU's signature
        // (less the version, which belongs to sacreBLEU).
        const BleuReport report = bleu_report(hypotheses, references, std::vector<int>(hypotheses.size(), 3), tokenizer);
        CHECK(report.overall.bleu == doctest::Approx(bleu.bleu).epsilon(1e-12));
        CHECK(report.overall.chrf2 == doctest::Approx(chrf).epsilon(1e-12));
        CHECK(report.overall.counts == bleu.counts);
        CHECK(report.overall.sentences == static_cast<long>(hypotheses.size()));
        CHECK(report.overall.bleu_signature + "|version:2.6.0" == reference.at("signature").get<std::string>());
    }
    MESSAGE("largest difference from sacreBLEU 2.6.0: BLEU " << max_bleu_diff << ", chrF2 " << max_chrf_diff);
}

namespace {
BleuScore bleu_13a(const Strings& hypotheses, const std::vector<Strings>& references) {
    return corpus_bleu(hypotheses, references, BleuTokenizer::k13a);
}
}  // namespace

TEST_CASE("bleu: a perfect match scores 100") {
    const BleuScore score = bleu_13a({"The cat sat on the mat.", "I am here now"},
                                     {{"the cat sat on the mat ."}, {"i am here now"}});
    CHECK(score.bleu == doctest::Approx(100.0).epsilon(1e-12));
    CHECK(score.brevity_penalty == 1.0);
    for (double precision : score.precisions) CHECK(precision == doctest::Approx(100.0));
    CHECK(score.hypothesis_length == 11);
    CHECK(score.reference_length == 11);
}

TEST_CASE("bleu: the Papineni 2002 example clips unigram counts; exp smoothing fills the empty orders") {
    const BleuScore score =
        bleu_13a({"the the the the the the the"}, {{"the cat is on the mat", "there is a cat on the mat"}});
    // "the" occurs at most twice in a reference, so 2 of the 7 count.
    CHECK(score.counts == std::array<long, 4>{2, 0, 0, 0});
    CHECK(score.totals == std::array<long, 4>{7, 6, 5, 4});
    CHECK(score.precisions[0] == doctest::Approx(100.0 * 2.0 / 7.0).epsilon(1e-12));
    // The 1st, 2nd, 3rd order without a match: 1 / (2^k * total).
    CHECK(score.precisions[1] == doctest::Approx(100.0 / (2 * 6)).epsilon(1e-12));
    CHECK(score.precisions[2] == doctest::Approx(100.0 / (4 * 5)).epsilon(1e-12));
    CHECK(score.precisions[3] == doctest::Approx(100.0 / (8 * 4)).epsilon(1e-12));
    CHECK(score.reference_length == 7);  // the length-7 reference is closest
    const double expected = std::exp((std::log(200.0 / 7) + std::log(100.0 / 12) + std::log(5.0) + std::log(100.0 / 32)) / 4);
    CHECK(score.bleu == doctest::Approx(expected).epsilon(1e-12));
}

TEST_CASE("bleu: brevity penalty on a short hypothesis") {
    // Every n-gram matches; c = 4, r = 6, so BLEU = 100 * exp(1 - 6/4) = 100 * exp(-0.5).
    const BleuScore score = bleu_13a({"the cat sat on"}, {{"the cat sat on the mat"}});
    for (double precision : score.precisions) CHECK(precision == doctest::Approx(100.0));
    CHECK(score.hypothesis_length == 4);
    CHECK(score.reference_length == 6);
    CHECK(score.brevity_penalty == doctest::Approx(0.6065306597126334).epsilon(1e-12));
    CHECK(score.bleu == doctest::Approx(60.653065971263345).epsilon(1e-12));
}

TEST_CASE("bleu: a longer hypothesis has no brevity penalty") {
    CHECK(bleu_13a({"a b c d e f"}, {{"a b c d e"}}).brevity_penalty == 1.0);
}

TEST_CASE("bleu: multi-reference uses the reference length closest to the hypothesis") {
    const std::string five = "a b c d e";
    SUBCASE("closest wins") {
        CHECK(bleu_13a({five}, {{"a b c", "a b c d e f", "a b c d e f g"}}).reference_length == 6);
    }
    SUBCASE("ties go to the shorter reference") {
        CHECK(bleu_13a({five}, {{"a b c d e f", "a b c d"}}).reference_length == 4);
        CHECK(bleu_13a({five}, {{"a b c d e f g", "a b c"}}).reference_length == 3);
    }
    SUBCASE("an exact length match") {
        const BleuScore score = bleu_13a({five}, {{"x y z", "v w x y z", "a b c d e f"}});
        CHECK(score.reference_length == 5);
        CHECK(score.brevity_penalty == 1.0);
    }
    SUBCASE("lengths are counted in 13a tokens") {
        // "d'accord." is two tokens, "x,y z w" five (x , y z w).
        CHECK(bleu_13a({"a b"}, {{"d'accord.", "x,y z w"}}).reference_length == 2);
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
    // Corpus: 9/11, 6/8, 3/5, 1/3 (every order matches, so no smoothing);
    // c = 11, r = 14
    // BLEU = 100 * exp(1 - 14/11) * (9/11 * 3/4 * 3/5 * 1/3)^(1/4) = 100 * exp(-3/11) * (27/220)^(1/4)
    const BleuScore score = bleu_13a({"a b c d e", "x y x y", "p q"},
                                     {{"a b c d f"}, {"x y z", "x y x w w"}, {"p q r s t u"}});
    CHECK(score.counts == std::array<long, 4>{9, 6, 3, 1});
    CHECK(score.totals == std::array<long, 4>{11, 8, 5, 3});
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

TEST_CASE("bleu: zero matches, empty output, empty corpus and too-short sentences") {
    const BleuScore nothing = bleu_13a({"p q r s"}, {{"a b c d"}});
    CHECK(nothing.bleu == 0.0);
    for (double precision : nothing.precisions) CHECK(precision == 0.0);  // no match at all: reported as 0

    const BleuScore empty_hypothesis = bleu_13a({""}, {{"a b c d"}});
    CHECK(empty_hypothesis.bleu == 0.0);
    CHECK(empty_hypothesis.hypothesis_length == 0);
    CHECK(empty_hypothesis.brevity_penalty == 0.0);

    const BleuScore empty_corpus = bleu_13a({}, {});
    CHECK(empty_corpus.bleu == 0.0);
    CHECK(empty_corpus.brevity_penalty == 1.0);

    // Too short for any 4-gram: that order ends the loop, so BLEU is 0.
    const BleuScore short_sentence = bleu_13a({"a b c"}, {{"a b c"}});
    CHECK(short_sentence.bleu == 0.0);
    CHECK(short_sentence.precisions[2] == doctest::Approx(100.0));
    CHECK(short_sentence.precisions[3] == 0.0);
}

TEST_CASE("bleu: empty references are dropped, as sacreBLEU drops them") {
    const BleuScore with_empty = bleu_13a({"a b c d e"}, {{"", "a b c d e", ""}});
    CHECK(with_empty.reference_length == 5);
    CHECK(with_empty.bleu == doctest::Approx(100.0));
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

TEST_CASE("bleu: report assigns sentences to buckets by source length, with chrF2 and signatures") {
    const std::vector<int> source_words = {0, 1, 4, 8, 11, 12, 50};
    // Perfect hypotheses that also differ per sentence, so that each bucket's
    // score depends only on its own sentences.
    Strings hypotheses;
    std::vector<Strings> references;
    for (size_t k = 0; k < source_words.size(); ++k) {
        const std::string s = std::to_string(k);
        hypotheses.push_back("w" + s + " x y z");
        references.push_back({"w" + s + " x y z"});
    }
    // A wrong sentence in "12+" lowers only that bucket; a second reference
    // in "8-11" makes its reference count vary.
    hypotheses[6] = "q q q q";
    references[4].push_back("w4 x y");

    const BleuReport report = bleu_report(hypotheses, references, source_words, BleuTokenizer::k13a);
    REQUIRE(report.by_length.size() == 4);
    CHECK(report.overall.sentences == 7);
    CHECK(report.by_length[0].first.label == "1-4");
    CHECK(report.by_length[0].second.sentences == 3);  // 0, 1 and 4 words
    CHECK(report.by_length[0].second.bleu == doctest::Approx(100.0));
    CHECK(report.by_length[0].second.chrf2 == doctest::Approx(100.0));
    CHECK(report.by_length[0].second.bleu_signature == "nrefs:1|case:lc|eff:no|tok:13a|smooth:exp");
    CHECK(report.by_length[1].first.label == "5-7");
    CHECK(report.by_length[1].second.sentences == 0);  // empty bucket
    CHECK(report.by_length[1].second.bleu == 0.0);
    CHECK(report.by_length[1].second.chrf2 == 0.0);
    CHECK(report.by_length[2].second.sentences == 2);  // 8 and 11
    CHECK(report.by_length[2].second.bleu == doctest::Approx(100.0));
    CHECK(report.by_length[2].second.bleu_signature == "nrefs:var|case:lc|eff:no|tok:13a|smooth:exp");
    CHECK(report.by_length[3].second.sentences == 2);  // 12 and 50
    CHECK(report.by_length[3].second.hypothesis_length == 8);
    CHECK(report.by_length[3].second.precisions[0] == doctest::Approx(50.0));
    CHECK(report.by_length[3].second.chrf2 < 100.0);
    CHECK(report.overall.bleu < 100.0);
    CHECK(report.overall.bleu_signature == "nrefs:var|case:lc|eff:no|tok:13a|smooth:exp");
    CHECK(report.overall.chrf2_signature == "nrefs:var|case:mixed|eff:yes|nc:6|nw:0|space:no");
    CHECK(metric_description(report.overall) ==
          "sacreBLEU-compatible BLEU (nrefs:var|case:lc|eff:no|tok:13a|smooth:exp), "
          "chrF2 (nrefs:var|case:mixed|eff:yes|nc:6|nw:0|space:no)");

    const nlohmann::json json = to_json(report);
    REQUIRE(json["by_length"].size() == 4);
    CHECK(json["by_length"][0]["bucket"] == "1-4");
    CHECK(json["by_length"][0]["min_words"] == 1);
    CHECK(json["by_length"][0]["max_words"] == 4);
    CHECK(json["by_length"][0]["chrf2"].get<double>() == doctest::Approx(100.0));
    CHECK(json["by_length"][1]["sentences"] == 0);
    CHECK(json["by_length"][1]["bleu"] == 0.0);
    CHECK(json["by_length"][2]["bucket"] == "8-11");
    CHECK(json["by_length"][2]["signature"] == "nrefs:var|case:lc|eff:no|tok:13a|smooth:exp");
    CHECK(json["by_length"][3]["bucket"] == "12+");
    CHECK(json["overall"]["sentences"] == 7);
    CHECK(json["overall"]["metric"] == metric_description(report.overall));
}

TEST_CASE("bleu: score JSON has every field") {
    const BleuReport report =
        bleu_report({"the cat sat on"}, {{"the cat sat on the mat"}}, {4}, BleuTokenizer::kZh);
    const CorpusScore& score = report.overall;
    const nlohmann::json json = to_json(score);
    CHECK(json["bleu"].get<double>() == doctest::Approx(score.bleu));
    CHECK(json["chrf2"].get<double>() == doctest::Approx(score.chrf2));
    CHECK(json["chrf2"].get<double>() > 0.0);
    CHECK(json["brevity_penalty"].get<double>() == doctest::Approx(score.brevity_penalty));
    REQUIRE(json["precisions"].is_array());
    CHECK(json["precisions"].size() == 4);
    CHECK(json["counts"] == nlohmann::json{4, 3, 2, 1});
    CHECK(json["totals"] == nlohmann::json{4, 3, 2, 1});
    CHECK(json["hypothesis_length"] == 4);
    CHECK(json["reference_length"] == 6);
    CHECK(json["sentences"] == 1);
    CHECK(json["signature"] == "nrefs:1|case:lc|eff:no|tok:zh|smooth:exp");
    CHECK(json["chrf2_signature"] == "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no");
    CHECK(json["metric"].get<std::string>().find("sacreBLEU-compatible") == 0);
}

TEST_CASE("score_translations: detokenized text, tokenizer by target language, buckets by English words") {
    // Source lengths by the word tokenizer: 4 words (punctuation does not
    // count), 5, and 12.
    const std::vector<SourceWithReferences> data = {
        {"Hello, how are you?", {"Bonjour, comment allez-vous ?", "Salut, ça va ?"}},
        {"I am at home now.", {"Je suis chez moi maintenant."}},
        {"one two three four five six seven eight nine ten eleven twelve", {"un deux trois"}},
    };
    const Strings hypotheses = {"Bonjour, comment allez-vous ?", "Je suis à la maison maintenant.", ""};
    const BleuReport french = score_translations(data, hypotheses, "fr");
    CHECK(french.overall.sentences == 3);
    CHECK(french.by_length[0].second.sentences == 1);
    CHECK(french.by_length[0].second.bleu == doctest::Approx(100.0));
    CHECK(french.by_length[1].second.sentences == 1);
    CHECK(french.by_length[3].second.sentences == 1);
    CHECK(french.by_length[3].second.hypothesis_length == 0);
    CHECK(french.overall.bleu_signature == "nrefs:var|case:lc|eff:no|tok:13a|smooth:exp");
    // Scored as corpus_bleu scores the raw strings.
    const BleuScore direct = corpus_bleu(hypotheses, {data[0].references, data[1].references, data[2].references},
                                         BleuTokenizer::k13a);
    CHECK(french.overall.bleu == doctest::Approx(direct.bleu).epsilon(1e-12));
    CHECK(french.overall.counts == direct.counts);

    const BleuReport chinese = score_translations({{"I love it.", {"我爱它。"}}}, {"我爱它。"}, "zh");
    CHECK(chinese.overall.bleu_signature == "nrefs:1|case:lc|eff:no|tok:zh|smooth:exp");
    CHECK(chinese.overall.hypothesis_length == 4);  // 我 爱 它 。
    CHECK(chinese.by_length[0].second.sentences == 1);

    CHECK_THROWS_AS(score_translations(data, {"a"}, "fr"), UsageError);
}

TEST_CASE("bleu: errors") {
    CHECK_THROWS_AS(bleu_13a({"a", "b"}, {{"a"}}), UsageError);
    CHECK_THROWS_AS(bleu_13a({"a"}, {{}}), UsageError);
    CHECK_THROWS_AS(bleu_13a({"a"}, {{"", ""}}), UsageError);
    CHECK_THROWS_WITH_AS(bleu_13a({"a", "b"}, {{"a"}, {}}), doctest::Contains("sentence 2"), UsageError);
    CHECK_THROWS_AS(corpus_chrf({"a", "b"}, {{"a"}}), UsageError);
    CHECK_THROWS_AS(corpus_chrf({"a"}, {{""}}), UsageError);
    CHECK_THROWS_AS(bleu_report({"a"}, {{"a"}}, {}, BleuTokenizer::k13a), UsageError);
    CHECK_THROWS_AS(bleu_report({"a"}, {{"a"}}, {3, 4}, BleuTokenizer::k13a), UsageError);
    CHECK_THROWS_AS(bleu_report({"a"}, {{"a"}}, {-1}, BleuTokenizer::k13a), UsageError);
    CHECK_THROWS_AS(bleu_report({"a"}, {{}}, {3}, BleuTokenizer::k13a), UsageError);
}
