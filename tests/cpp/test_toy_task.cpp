// The golden end-to-end check of learning: a small attention model trained
// for a few seconds on sequence reversal must solve it, and its attention
// must become the mirrored alignment (target i looks at source L-1-i).
#include "decode/search.h"
#include "test_helpers.h"
#include "train/trainer.h"

#include <doctest/doctest.h>

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
