// The golden end-to-end check of learning: a small attention model trained
// for a few seconds on sequence reversal must solve it, and its attention
// must become the mirrored alignment (target i looks at source L-1-i).
#include "common/error.h"
#include "decode/search.h"
#include "test_helpers.h"
#include "train/tasks.h"
#include "train/trainer.h"

#include <doctest/doctest.h>

#include <set>

using namespace s2s;

namespace {

struct ToyResult {
    double exact_match = 0.0;
    double aligned_rows = 0.0;
};

ToyResult train_and_measure(AttentionKind attention, long steps) {
    ToyTask task = make_reversal_task(/*symbols=*/8, /*min_length=*/3, /*max_length=*/8, /*train_size=*/4000,
                                      /*test_size=*/200, /*seed=*/5);
    ModelConfig& config = task.model.config;
    testing::set_architecture(config, 16, 32, 32, 32, 32, attention);
    task.model.params = random_parameters(config, 1);

    TrainerOptions options;
    options.batch_size = 32;
    options.total_steps = steps;
    options.learning_rate = 5e-3f;
    options.warmup_steps = 20;
    options.dropout = 0.0f;
    options.label_smoothing = 0.0f;
    options.threads = 2;
    Trainer trainer(task.model, task.train, options);
    for (long s = 0; s < steps; ++s) trainer.step();

    long exact = 0, rows = 0, aligned = 0;
    for (const Example& e : task.test) {
        const Hypothesis h = greedy_decode(task.model.params, config, e.source, DecodeOptions{});
        if (h.tokens == e.target) ++exact;
        const int length = static_cast<int>(e.source.size()) - 1;  // without <eos>
        for (int i = 0; i < length && i < static_cast<int>(h.attention.size()); ++i) {
            const auto& row = h.attention[i];
            const int argmax = static_cast<int>(std::max_element(row.begin(), row.end()) - row.begin());
            aligned += argmax == length - 1 - i;
            ++rows;
        }
    }
    return {static_cast<double>(exact) / task.test.size(), static_cast<double>(aligned) / rows};
}

}  // namespace

TEST_CASE("an attention model learns to reverse sequences and its attention mirrors the source") {
    const ToyResult result = train_and_measure(AttentionKind::kAdditive, 600);
    MESSAGE("exact match ", result.exact_match, ", aligned rows ", result.aligned_rows);
    CHECK(result.exact_match >= 0.9);
    CHECK(result.aligned_rows >= 0.9);
}

TEST_CASE("the date task writes dates in several English formats and targets ISO 8601") {
    CHECK(format_date(2026, 12, 2, 0).text == "december 2nd, 2026");
    CHECK(format_date(2026, 12, 2, 0).iso == "2026-12-02");
    CHECK(format_date(2026, 12, 2, 1).text == "2 december 2026");
    CHECK(format_date(2026, 12, 2, 2).text == "dec 2, 2026");
    CHECK(format_date(2026, 12, 2, 3).text == "12/02/2026");
    CHECK(format_date(2026, 12, 2, 4).text == "wednesday, december 2, 2026");  // 2026-12-02 is a Wednesday
    CHECK(format_date(2000, 2, 29, 4).text == "tuesday, february 29, 2000");
    CHECK(format_date(2011, 3, 11, 5).text == "the 11th of march 2011");
    CHECK(format_date(1999, 1, 23, 5).text == "the 23rd of january 1999");

    const ToyTask task = make_date_task(300, 50, 7);
    REQUIRE(task.train.size() == 300);
    REQUIRE(task.test.size() == 50);
    REQUIRE(task.test_sources.size() == 50);
    CHECK(task.model.source_tokenizer.kind == TokenizerKind::kCharacters);
    for (const Example& e : task.test) {
        CHECK(e.target.size() == 11);  // yyyy-mm-dd and <eos>
        for (int id : e.source) CHECK(id != Vocabulary::kUnk);
    }
    // No held-out date is a training date.
    std::set<std::vector<int>> train_sources;
    for (const Example& e : task.train) train_sources.insert(e.source);
    for (const Example& e : task.test) CHECK(train_sources.count(e.source) == 0);
}

TEST_CASE("the pairs task reads source TAB target lines and names a bad line") {
    const ToyTask task = make_pairs_task("one\tun\ntwo\tdeux\r\n\nthree\ttrois\nfour\tquatre\nfive\tcinq\nsix\tsix\n", false, 3);
    CHECK(task.train.size() == 4);
    REQUIRE(task.test.size() == 2);
    CHECK(task.test_sources == std::vector<std::string>{"three", "six"});
    CHECK(example_text(task.model, task.test[0].target, true) == "trois");

    CHECK_THROWS_WITH_AS(make_pairs_task("a\tb\nc d\n", false, 5), doctest::Contains("line 2 has no tab"), DataError);
    CHECK_THROWS_WITH_AS(make_pairs_task("a\t \n", false, 5), doctest::Contains("line 1 has an empty target"), DataError);
    CHECK_THROWS_WITH_AS(make_pairs_task("a\tb\nc\td\n", false, 5), doctest::Contains("only 2 usable pairs"), DataError);
    CHECK_THROWS_AS(make_reversal_task(1, 1, 2, 10, 1, 1), UsageError);
}
