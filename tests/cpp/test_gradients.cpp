// Gradient checks: every parameter tensor's analytic gradient against
// central finite differences, for every attention variant and the
// fixed-context baseline, and padded batches against single examples.
#include "gradient_check.h"
#include "test_helpers.h"
#include "train/loss.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using namespace s2s;
using namespace s2s::testing;

namespace {

std::vector<const Example*> pointers(const std::vector<Example>& examples) {
    std::vector<const Example*> out;
    for (const auto& e : examples) out.push_back(&e);
    return out;
}

// Derivative of the loss along `direction` (same shape as `tensor`) by
// central differences. The model is float, so the step is not tiny; the
// functions are smooth and O(h^2) error stays far below the tolerance.
template <typename Loss>
double central_difference(Matrix& tensor, const Matrix& direction, Loss loss) {
    const float h = 1e-2f;
    const Matrix saved = tensor;
    tensor = saved + h * direction;
    const double plus = loss();
    tensor = saved - h * direction;
    const double minus = loss();
    tensor = saved;
    return (plus - minus) / (2.0 * h);
}

double numeric_directional(Parameters& params, const ModelConfig& config, const Batch& batch, Matrix& tensor,
                           const Matrix& direction, float label_smoothing) {
    return central_difference(tensor, direction, [&] { return batch_loss(params, config, batch, label_smoothing); });
}

void check_all_gradients(AttentionKind attention, float label_smoothing) {
    const ModelConfig config = tiny_config(attention);
    Parameters params = random_parameters(config, 7);
    // Larger weights than the initializer so that every nonlinearity is
    // exercised away from its linear region.
    params.for_each_tensor([](const std::string&, Matrix& m) { m *= 2.5f; });
    Random random(3);
    params.for_each_tensor([&](const std::string&, Matrix& m) {
        if (m.cols() == 1) {
            for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = random.uniform(-0.5f, 0.5f);
        }
    });
    const auto examples = tiny_examples();
    const Batch batch = make_batch(pointers(examples));

    Parameters grad = zero_parameters(config);
    LossOptions options;
    options.label_smoothing = label_smoothing;
    loss_and_gradients(params, config, batch, options, nullptr, grad);

    std::vector<std::pair<std::string, Matrix*>> grads;
    grad.for_each_tensor([&](const std::string& name, Matrix& m) { grads.emplace_back(name, &m); });
    size_t index = 0;
    int checked = 0;
    params.for_each_tensor([&](const std::string& name, Matrix& tensor) {
        const Matrix& analytic = *grads[index++].second;
        if (tensor.size() == 0) return;
        ++checked;
        double largest = 0.0;  // the largest derivative the probes measured
        for (int trial = 0; trial < 4; ++trial) {
            const Matrix direction = probe_direction(trial, analytic, random);
            const double expected = (analytic.array() * direction.array()).sum();
            const double numeric = numeric_directional(params, config, batch, tensor, direction, label_smoothing);
            INFO(attention_kind_name(attention), " tensor ", name, " trial ", trial, " analytic ", expected,
                 " numeric ", numeric);
            CHECK(std::abs(expected - numeric) <= 2e-3 + 1e-2 * std::max(std::abs(expected), std::abs(numeric)));
            largest = std::max(largest, std::abs(numeric));
        }
        // The tolerance's absolute part must be small beside what is
        // measured, so that a missing (zero) analytic gradient cannot pass:
        // its probes are random directions, and each either measures more
        // than 2e-3, failing the comparison above, or less, failing this.
        INFO(attention_kind_name(attention), " tensor ", name, " largest derivative probed ", largest);
        CHECK(largest >= 2e-2);
    });
    CHECK(checked >= 15);
}

Parameters single_gradients_summed(const Parameters& params, const ModelConfig& config,
                                   const std::vector<Example>& examples) {
    Parameters total = zero_parameters(config);
    for (const auto& example : examples) {
        const Batch batch = make_batch({&example});
        loss_and_gradients(params, config, batch, LossOptions{}, nullptr, total);
    }
    return total;
}

}  // namespace

TEST_CASE("gradients match finite differences: additive attention") { check_all_gradients(AttentionKind::kAdditive, 0.0f); }
TEST_CASE("gradients match finite differences: dot attention") { check_all_gradients(AttentionKind::kDot, 0.0f); }
TEST_CASE("gradients match finite differences: scaled dot attention") { check_all_gradients(AttentionKind::kScaledDot, 0.0f); }
TEST_CASE("gradients match finite differences: general attention") { check_all_gradients(AttentionKind::kGeneral, 0.0f); }
TEST_CASE("gradients match finite differences: fixed-context baseline") { check_all_gradients(AttentionKind::kNone, 0.0f); }
TEST_CASE("gradients match finite differences: label smoothing") { check_all_gradients(AttentionKind::kAdditive, 0.1f); }

TEST_CASE("a padded batch gives the loss and gradients of its sentences alone") {
    for (AttentionKind attention : {AttentionKind::kAdditive, AttentionKind::kScaledDot, AttentionKind::kNone}) {
        const ModelConfig config = tiny_config(attention);
        const Parameters params = random_parameters(config, 11);
        const auto examples = tiny_examples();
        Parameters batched = zero_parameters(config);
        const Batch batch = make_batch(pointers(examples));
        const double batched_loss = loss_and_gradients(params, config, batch, LossOptions{}, nullptr, batched);
        double single_loss = 0;
        for (const auto& e : examples) single_loss += batch_loss(params, config, make_batch({&e}));
        CHECK(batched_loss == doctest::Approx(single_loss).epsilon(1e-5));

        const Parameters single = single_gradients_summed(params, config, examples);
        std::vector<const Matrix*> single_tensors;
        single.for_each_tensor([&](const std::string&, const Matrix& m) { single_tensors.push_back(&m); });
        size_t index = 0;
        batched.for_each_tensor([&](const std::string& name, const Matrix& m) {
            const Matrix& expected = *single_tensors[index++];
            if (m.size() == 0) return;
            INFO(attention_kind_name(attention), " tensor ", name);
            CHECK((m - expected).cwiseAbs().maxCoeff() <= 1e-5f + 1e-4f * expected.cwiseAbs().maxCoeff());
        });
    }
}

TEST_CASE("gradients with dropout match finite differences taken with the same dropout masks") {
    // The masks are drawn in a fixed order from the generator, so a fresh
    // generator with the same seed reproduces them in every evaluation.
    const ModelConfig config = tiny_config(AttentionKind::kAdditive);
    Parameters params = random_parameters(config, 5);
    params.for_each_tensor([](const std::string&, Matrix& m) { m *= 2.0f; });
    const auto examples = tiny_examples();
    const Batch batch = make_batch(pointers(examples));
    LossOptions options;
    options.dropout = 0.3f;
    auto loss_with_masks = [&]() {
        Random random(42);
        Parameters unused = zero_parameters(config);
        return loss_and_gradients(params, config, batch, options, &random, unused);
    };
    Parameters grad = zero_parameters(config);
    Random random(42);
    const double loss = loss_and_gradients(params, config, batch, options, &random, grad);
    CHECK(loss != doctest::Approx(batch_loss(params, config, batch)));  // dropout really acted
    const std::vector<std::pair<Matrix*, const Matrix*>> checked = {
        {&params.source_embedding, &grad.source_embedding},
        {&params.target_embedding, &grad.target_embedding},
        {&params.output_weights, &grad.output_weights},
        {&params.output_hidden_weights, &grad.output_hidden_weights},
        {&params.decoder.input_weights, &grad.decoder.input_weights},
    };
    for (const auto& [tensor, analytic] : checked) {
        const Matrix direction = *analytic / analytic->norm();
        const double numeric = central_difference(*tensor, direction, loss_with_masks);
        const double expected = analytic->norm();
        CHECK(std::abs(expected - numeric) <= 2e-3 + 1e-2 * std::abs(expected));
    }
}

TEST_CASE("distillation: gradients match finite differences, and a teacher equal to the student pulls nowhere") {
    // A teacher of other sizes and attention (only the vocabularies must agree).
    // (General attention: W_g lets the decoder's width differ from the keys'.)
    ModelConfig teacher_config = tiny_config(AttentionKind::kGeneral);
    teacher_config.decoder_hidden_size += 3;
    teacher_config.output_hidden_size += 2;
    REQUIRE_NOTHROW(teacher_config.validate());
    Model teacher;
    teacher.config = teacher_config;
    teacher.params = random_parameters(teacher_config, 19);
    teacher.params.for_each_tensor([](const std::string&, Matrix& m) { m *= 3.0f; });  // a peaked softmax

    const ModelConfig config = tiny_config(AttentionKind::kAdditive);
    Parameters params = random_parameters(config, 9);
    params.for_each_tensor([](const std::string&, Matrix& m) { m *= 2.0f; });
    const auto examples = tiny_examples();
    const Batch batch = make_batch(pointers(examples));
    LossOptions options;
    options.label_smoothing = 0.1f;
    options.teacher = &teacher;
    options.teacher_weight = 0.6f;
    auto loss_at = [&]() {
        Parameters unused = zero_parameters(config);
        return loss_and_gradients(params, config, batch, options, nullptr, unused);
    };
    Parameters grad = zero_parameters(config);
    const double loss = loss_and_gradients(params, config, batch, options, nullptr, grad);
    CHECK(loss != doctest::Approx(batch_loss(params, config, batch, 0.1f)));  // the teacher really acted

    Random random(4);
    const std::vector<std::pair<Matrix*, const Matrix*>> checked = {
        {&params.output_weights, &grad.output_weights},
        {&params.output_hidden_weights, &grad.output_hidden_weights},
        {&params.decoder.input_weights, &grad.decoder.input_weights},
        {&params.encoder_forward.state_weights, &grad.encoder_forward.state_weights},
        {&params.source_embedding, &grad.source_embedding},
    };
    for (const auto& [tensor, analytic] : checked) {
        for (int trial = 0; trial < 3; ++trial) {
            const Matrix direction = probe_direction(trial, *analytic, random);
            const double expected = (analytic->array() * direction.array()).sum();
            const double numeric = central_difference(*tensor, direction, loss_at);
            INFO("trial ", trial, " analytic ", expected, " numeric ", numeric);
            CHECK(std::abs(expected - numeric) <= 2e-3 + 1e-2 * std::max(std::abs(expected), std::abs(numeric)));
        }
    }

    // The student as its own teacher with all the weight: the target
    // distribution is the student's own softmax, so every gradient is zero,
    // while the reference alone (weight near 0) still pulls.
    Model self;
    self.config = config;
    self.params = params;
    LossOptions own;
    own.teacher = &self;
    own.teacher_weight = 1.0f;
    Parameters zero = zero_parameters(config);
    loss_and_gradients(params, config, batch, own, nullptr, zero);
    zero.for_each_tensor([](const std::string& name, const Matrix& m) {
        INFO("tensor ", name);
        if (m.size() > 0) CHECK(m.cwiseAbs().maxCoeff() < 1e-5f);
    });
    own.teacher_weight = 0.01f;
    Parameters pulled = zero_parameters(config);
    loss_and_gradients(params, config, batch, own, nullptr, pulled);
    CHECK(pulled.output_weights.cwiseAbs().maxCoeff() > 1e-3f);
}
