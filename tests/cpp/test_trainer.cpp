// The trainer: repeatable runs, exact resume from a checkpoint, the
// learning-rate schedule, and a fixed-context model that learns too.
#include "common/error.h"
#include "decode/search.h"
#include "test_helpers.h"
#include "train/tasks.h"
#include "train/trainer.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>

#include <unistd.h>

using namespace s2s;

namespace {

ToyTask small_task(AttentionKind attention) {
    ToyTask task = make_reversal_task(6, 2, 5, 500, 50, 3);
    testing::set_architecture(task.model.config, 8, 12, 16, 10, 12, attention);
    task.model.params = random_parameters(task.model.config, 2);
    return task;
}

TrainerOptions small_options() {
    TrainerOptions o;
    o.batch_size = 16;
    o.total_steps = 60;
    o.warmup_steps = 5;
    o.threads = 2;
    o.dropout = 0.1f;
    return o;
}

bool same_parameters(const Parameters& a, const Parameters& b) {
    std::vector<const Matrix*> left;
    a.for_each_tensor([&](const std::string&, const Matrix& m) { left.push_back(&m); });
    size_t i = 0;
    bool same = true;
    b.for_each_tensor([&](const std::string&, const Matrix& m) { same = same && m == *left[i++]; });
    return same;
}

}  // namespace

TEST_CASE("training is repeatable with a seed, and resuming a checkpoint continues exactly") {
    ToyTask straight = small_task(AttentionKind::kAdditive);
    Trainer a(straight.model, straight.train, small_options());
    for (int s = 0; s < 40; ++s) a.step();

    ToyTask again = small_task(AttentionKind::kAdditive);
    Trainer b(again.model, again.train, small_options());
    for (int s = 0; s < 40; ++s) b.step();
    CHECK(same_parameters(straight.model.params, again.model.params));

    ToyTask interrupted = small_task(AttentionKind::kAdditive);
    const auto path = (std::filesystem::temp_directory_path() / ("s2s_test_checkpoint_" + std::to_string(::getpid()) + ".s2s")).string();
    {
        Trainer first(interrupted.model, interrupted.train, small_options());
        for (int s = 0; s < 25; ++s) first.step();  // 500 / 16 = 32 batches an epoch: stops mid-epoch, and the resumed run crosses into the next
        first.save_checkpoint(path);
    }
    ToyTask resumed = small_task(AttentionKind::kAdditive);
    Trainer second(resumed.model, resumed.train, small_options());
    second.load_checkpoint(path);
    CHECK(second.steps_done() == 25);
    for (int s = 25; s < 40; ++s) second.step();
    CHECK(same_parameters(straight.model.params, resumed.model.params));

    // A checkpoint of another configuration, or made with other options, is
    // refused, not loaded.
    ToyTask other = small_task(AttentionKind::kNone);
    Trainer third(other.model, other.train, small_options());
    CHECK_THROWS_AS(third.load_checkpoint(path), ModelFileError);
    ToyTask same = small_task(AttentionKind::kAdditive);
    TrainerOptions changed = small_options();
    changed.batch_size = 8;
    Trainer fourth(same.model, same.train, changed);
    CHECK_THROWS_WITH_AS(fourth.load_checkpoint(path), doctest::Contains("batch size"), ModelFileError);

    // A checkpoint whose model file comes from another save is refused:
    // `other` saved a checkpoint beside `path`; its model file replaces ours.
    auto expect_mixed_refused = [&](const std::string& other, const char* message) {
        std::filesystem::copy_file(other, path, std::filesystem::copy_options::overwrite_existing);
        ToyTask mixed = small_task(AttentionKind::kAdditive);
        Trainer fresh(mixed.model, mixed.train, small_options());
        CHECK_THROWS_WITH_AS(fresh.load_checkpoint(path), doctest::Contains(message), ModelFileError);
        std::filesystem::remove(other);
        std::filesystem::remove(other + ".optimizer");
    };
    // ... from a later step of the same run (stopped between the two writes),
    second.save_checkpoint(path + ".later");
    expect_mixed_refused(path + ".later", "different steps");
    // ... or from another run saved at the same step number: the two files
    // carry a hash of the moments.
    ToyTask task_a = small_task(AttentionKind::kAdditive), task_b = small_task(AttentionKind::kAdditive);
    TrainerOptions other_seed = small_options();
    other_seed.seed = 99;
    Trainer ta(task_a.model, task_a.train, small_options()), tb(task_b.model, task_b.train, other_seed);
    for (int s = 0; s < 5; ++s) {
        ta.step();
        tb.step();
    }
    ta.save_checkpoint(path);
    tb.save_checkpoint(path + ".other");
    expect_mixed_refused(path + ".other", "different saves");
    std::filesystem::remove(path);
    std::filesystem::remove(path + ".optimizer");
}

TEST_CASE("piece dropout: each step draws the sources again, repeatably and across a resume; it must have a source to draw from") {
    // A stand-in for BPE-dropout (its segmentation is tested in test_bpe):
    // the source reversed when the draw says so, recorded to check the calls.
    struct Draws {
        std::vector<size_t> examples;
        std::function<std::vector<int>(size_t, float, Random&)> function(const std::vector<Example>& train) {
            return [this, &train](size_t example, float dropout, Random& random) {
                examples.push_back(example);
                std::vector<int> source = train.at(example).source;
                if (random.uniform() < dropout) std::reverse(source.begin(), source.end() - 1);  // <eos> stays last
                return source;
            };
        }
    };
    auto options = [](float dropout) {
        TrainerOptions o = small_options();
        o.piece_dropout = dropout;
        return o;
    };
    ToyTask plain = small_task(AttentionKind::kAdditive), dropped = small_task(AttentionKind::kAdditive),
            again = small_task(AttentionKind::kAdditive);
    Draws first, second;
    TrainerOptions with_draws = options(0.5f);
    with_draws.resegment_source = first.function(dropped.train);
    Trainer p(plain.model, plain.train, small_options()), d(dropped.model, dropped.train, with_draws);
    with_draws.resegment_source = second.function(again.train);
    Trainer r(again.model, again.train, with_draws);
    for (int s = 0; s < 10; ++s) {
        p.step();
        d.step();
        r.step();
    }
    CHECK(first.examples.size() == 10 * 16);  // every example of every batch, once
    CHECK(first.examples == second.examples);
    CHECK(same_parameters(dropped.model.params, again.model.params));
    CHECK_FALSE(same_parameters(dropped.model.params, plain.model.params));

    // Resumed from a checkpoint, the same draws; with another dropout, refused.
    const auto path = (std::filesystem::temp_directory_path() / ("s2s_test_pieces_" + std::to_string(::getpid()) + ".s2s")).string();
    d.save_checkpoint(path);
    for (int s = 0; s < 5; ++s) d.step();
    ToyTask resumed = small_task(AttentionKind::kAdditive);
    Draws third;
    with_draws.resegment_source = third.function(resumed.train);
    Trainer t(resumed.model, resumed.train, with_draws);
    t.load_checkpoint(path);
    for (int s = 0; s < 5; ++s) t.step();
    CHECK(same_parameters(dropped.model.params, resumed.model.params));
    CHECK(third.examples == std::vector<size_t>(first.examples.begin() + 10 * 16, first.examples.end()));
    ToyTask other = small_task(AttentionKind::kAdditive);
    TrainerOptions other_dropout = options(0.2f);
    other_dropout.resegment_source = third.function(other.train);
    Trainer u(other.model, other.train, other_dropout);
    CHECK_THROWS_WITH_AS(u.load_checkpoint(path), doctest::Contains("piece dropout"), ModelFileError);
    std::filesystem::remove(path);
    std::filesystem::remove(path + ".optimizer");

    // Each time an example comes back (the next epoch), it draws anew: the
    // generator is seeded by the step, not by the example alone.
    {
        ToyTask task = small_task(AttentionKind::kAdditive);
        std::map<size_t, std::vector<uint64_t>> draws;
        TrainerOptions o = options(0.5f);
        o.resegment_source = [&](size_t example, float, Random& random) {
            draws[example].push_back(random.next());
            return task.train.at(example).source;
        };
        Trainer e(task.model, task.train, o);
        for (int s = 0; s < 40; ++s) e.step();  // 32 batches an epoch: examples come back
        int repeated = 0;
        for (const auto& [example, values] : draws) {
            if (values.size() < 2) continue;
            ++repeated;
            CHECK(values[0] != values[1]);
        }
        CHECK(repeated > 50);
    }

    ToyTask bad = small_task(AttentionKind::kAdditive);
    CHECK_THROWS_WITH_AS(Trainer(bad.model, bad.train, options(0.1f)), doctest::Contains("resegment_source"), UsageError);
    TrainerOptions too_much = options(1.0f);
    too_much.resegment_source = third.function(bad.train);
    CHECK_THROWS_AS(Trainer(bad.model, bad.train, too_much), UsageError);
}

TEST_CASE("the learning rate warms up linearly and decays to its floor") {
    ToyTask task = small_task(AttentionKind::kAdditive);
    TrainerOptions o = small_options();
    o.learning_rate = 1e-2f;
    o.total_steps = 100;
    o.warmup_steps = 10;
    o.final_learning_rate_fraction = 0.1f;
    Trainer t(task.model, task.train, o);
    CHECK(t.learning_rate_at(0) == doctest::Approx(1e-3));
    CHECK(t.learning_rate_at(9) == doctest::Approx(1e-2));
    CHECK(t.learning_rate_at(100) == doctest::Approx(1e-3));
    CHECK(t.learning_rate_at(55) < t.learning_rate_at(20));
}

TEST_CASE("the loss goes down for the attention model and the fixed-context baseline") {
    for (AttentionKind attention : {AttentionKind::kAdditive, AttentionKind::kNone}) {
        ToyTask task = small_task(attention);
        TrainerOptions o = small_options();
        o.total_steps = 150;
        o.learning_rate = 1e-2f;
        Trainer t(task.model, task.train, o);
        double first = 0, last = 0;
        for (int s = 0; s < 150; ++s) {
            const double loss = t.step().loss_per_token;
            if (s < 10) first += loss / 10;
            if (s >= 140) last += loss / 10;
        }
        INFO(attention_kind_name(attention), " first ", first, " last ", last);
        // Label smoothing (0.1) and dropout keep a floor under the loss; a
        // drop of a quarter in 150 steps is learning, a broken gradient is not.
        CHECK(last < 0.75 * first);
    }
}

TEST_CASE("bad trainer options are usage errors") {
    ToyTask task = small_task(AttentionKind::kAdditive);
    TrainerOptions o = small_options();
    o.threads = 0;
    CHECK_THROWS_AS(Trainer(task.model, task.train, o), UsageError);
    o = small_options();
    o.total_steps = 0;
    CHECK_THROWS_AS(Trainer(task.model, task.train, o), UsageError);
    const std::vector<Example> none;
    CHECK_THROWS_AS(Trainer(task.model, none, small_options()), DataError);
}

TEST_CASE("a model with int8 step weights trains with its float weights; a translation-only one is refused") {
    ToyTask task = small_task(AttentionKind::kAdditive);
    const std::vector<uint8_t> bytes = serialize_model(task.model, TensorDtype::kInt8);

    // Loaded for translation only: no float weights for the step, nothing to train.
    Model lean = model_from_bytes(bytes.data(), bytes.size(), LoadFor::kTranslation);
    CHECK_THROWS_WITH_AS(Trainer(lean, task.train, small_options()),
                         doctest::Contains("load the file with load_model"), UsageError);

    // Loaded in full: the trainer drops the int8 copies (its updates would
    // make them stale), so decoding reads the weights being trained.
    Model full = model_from_bytes(bytes.data(), bytes.size());
    REQUIRE_FALSE(full.int8_step.empty());
    Trainer trainer(full, task.train, small_options());
    CHECK(full.int8_step.empty());
    trainer.step();
    const Example& e = task.test.front();
    const Hypothesis trained = greedy_decode(full.params, full.config, e.source, DecodeOptions{}, &full.int8_step);
    const Hypothesis float_only = greedy_decode(full.params, full.config, e.source, DecodeOptions{});
    CHECK(trained.token_log_probs == float_only.token_log_probs);
}
