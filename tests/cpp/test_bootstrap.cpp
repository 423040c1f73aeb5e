// Bootstrap resampling of BLEU (src/eval/bootstrap.h): the intervals bound
// the figure, the same seed draws the same sentences, a paired comparison
// of a system with itself has no difference, and one better on every
// sentence is better in every resample.
#include "eval/bleu.h"
#include "eval/bootstrap.h"

#include "common/error.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace s2s;

namespace {

using Strings = std::vector<std::string>;

// Ten sentences, some translated well and some badly, so resamples differ.
struct Set {
    Strings good, poor;
    std::vector<Strings> references;
};

Set sentences() {
    Set set;
    const Strings words = {"the", "cat", "sees", "a", "dog", "near", "the", "old", "house", "today"};
    for (int k = 0; k < 10; ++k) {
        std::string reference, poor;
        for (int w = 0; w < 4 + k % 5; ++w) reference += (w ? " " : "") + words[(k + w) % words.size()];
        for (int w = 0; w < 4 + k % 5; ++w) poor += (w ? " " : "") + words[(k + 3 * w + (k % 3)) % words.size()];
        set.references.push_back({reference});
        set.good.push_back(reference);
        set.poor.push_back(k % 2 ? poor : reference);  // half exact, half scrambled
    }
    return set;
}

}  // namespace

TEST_CASE("per-sentence statistics sum to corpus_bleu's") {
    const Set set = sentences();
    const std::vector<BleuStats> stats = bleu_stats_per_sentence(set.poor, set.references, BleuTokenizer::k13a);
    REQUIRE(stats.size() == set.poor.size());
    BleuStats sum;
    for (const BleuStats& s : stats) sum += s;
    CHECK(bleu_from_stats(sum).bleu == doctest::Approx(corpus_bleu(set.poor, set.references, BleuTokenizer::k13a).bleu));
}

TEST_CASE("the interval holds the figure, is reproducible from its seed, and is a point when every sentence is alike") {
    const Set set = sentences();
    const std::vector<BleuStats> poor = bleu_stats_per_sentence(set.poor, set.references, BleuTokenizer::k13a);
    const BootstrapReport a = bootstrap_bleu(poor, nullptr, 500, 7);
    CHECK(a.resamples == 500);
    CHECK(!a.paired);
    CHECK(a.bleu == doctest::Approx(corpus_bleu(set.poor, set.references, BleuTokenizer::k13a).bleu));
    CHECK(a.interval.low < a.bleu);
    CHECK(a.bleu < a.interval.high);
    CHECK(a.interval.high - a.interval.low > 1.0);  // ten sentences: a wide interval
    const BootstrapReport again = bootstrap_bleu(poor, nullptr, 500, 7);
    CHECK(again.interval.low == a.interval.low);
    CHECK(again.interval.high == a.interval.high);
    const BootstrapReport other_seed = bootstrap_bleu(poor, nullptr, 500, 8);
    CHECK((other_seed.interval.low != a.interval.low || other_seed.interval.high != a.interval.high));

    // The same sentence ten times: every resample is the whole set's score.
    const std::vector<BleuStats> alike(10, poor[1]);
    const BootstrapReport point = bootstrap_bleu(alike, nullptr, 100, 1);
    CHECK(point.interval.low == doctest::Approx(point.bleu));
    CHECK(point.interval.high == doctest::Approx(point.bleu));
}

TEST_CASE("paired: a system against itself differs by nothing; one better on every sentence wins every resample") {
    const Set set = sentences();
    const std::vector<BleuStats> good = bleu_stats_per_sentence(set.good, set.references, BleuTokenizer::k13a);
    const std::vector<BleuStats> poor = bleu_stats_per_sentence(set.poor, set.references, BleuTokenizer::k13a);

    const BootstrapReport self = bootstrap_bleu(poor, &poor, 300, 3);
    CHECK(self.paired);
    CHECK(self.difference == 0.0);
    CHECK(self.difference_interval.low == 0.0);
    CHECK(self.difference_interval.high == 0.0);
    CHECK(self.better_share == 0.0);  // "higher" is strict
    CHECK(self.baseline_interval.low == self.interval.low);

    const BootstrapReport better = bootstrap_bleu(good, &poor, 300, 3);
    CHECK(better.bleu == doctest::Approx(100.0));
    CHECK(better.difference == doctest::Approx(better.bleu - better.baseline_bleu));
    CHECK(better.difference > 0.0);
    CHECK(better.difference_interval.low >= 0.0);
    CHECK(better.better_share > 0.9);  // a resample of exact sentences only ties
    CHECK(bootstrap_bleu(poor, &good, 300, 3).better_share == 0.0);
}

TEST_CASE("bad requests are UsageErrors naming the problem") {
    const Set set = sentences();
    const std::vector<BleuStats> poor = bleu_stats_per_sentence(set.poor, set.references, BleuTokenizer::k13a);
    const std::vector<BleuStats> fewer(poor.begin(), poor.begin() + 3);
    CHECK_THROWS_WITH_AS(bootstrap_bleu({}, nullptr, 100, 1), "a bootstrap needs at least one sentence", UsageError);
    CHECK_THROWS_WITH_AS(bootstrap_bleu(poor, &fewer, 100, 1),
                         doctest::Contains("the same sentences, but there are 10 and 3"), UsageError);
    CHECK_THROWS_WITH_AS(bootstrap_bleu(poor, nullptr, 9, 1), doctest::Contains("10 to 100000, not 9"), UsageError);
}
