// Attention (attention.h) on its own: the training step's backward pass
// against finite differences of its forward pass, for every scoring
// function and with padding; and the decoding step (attention_step_inference),
// written separately for speed, against the training step it must equal.
#include "gradient_check.h"
#include "model/attention.h"
#include "test_helpers.h"

#include <doctest/doctest.h>

#include <vector>

using namespace s2s;
using namespace s2s::testing;

namespace {

const AttentionKind kScoringFunctions[] = {AttentionKind::kAdditive, AttentionKind::kDot, AttentionKind::kScaledDot,
                                           AttentionKind::kGeneral};

// Attention parameters larger than the initializer's, so that the scores
// spread and tanh leaves its linear region.
Parameters attention_parameters(const ModelConfig& config, uint64_t seed) {
    Parameters params = random_parameters(config, seed);
    for (Matrix* m : {&params.attention_query, &params.attention_key, &params.attention_vector}) *m *= 2.5f;
    return params;
}

}  // namespace

TEST_CASE("attention step: gradients of the query, the states and the attention weights match finite differences") {
    for (AttentionKind kind : kScoringFunctions) {
        INFO(attention_kind_name(kind));
        const ModelConfig config = tiny_config(kind);
        Parameters params = attention_parameters(config, 31);
        Random random(8);
        const int S = 4, B = 2, C = config.context_size(), D = config.decoder_hidden_size;
        Matrix states = random_matrix(random, C, S * B);
        Matrix query = random_matrix(random, D, B);
        // Time major (t * B + b): sentence 1 has 2 real positions, sentence 0 all 4.
        const std::vector<float> mask = {1, 1, 1, 1, 1, 0, 1, 0};
        const Matrix loss_weights = random_matrix(random, C, B);

        struct Forward {
            Matrix keys, hidden, weights, context;
        };
        auto forward = [&]() {
            Forward f;
            attention_keys_forward(params, config, states, f.keys);
            if (kind == AttentionKind::kAdditive) f.hidden.resize(config.attention_size, S * B);
            f.weights.resize(S, B);
            f.context.resize(C, B);
            const AttentionStepInputs in{&states, &f.keys, mask.data(), S, B};
            attention_step_forward(params, config, in, query, f.weights, f.context,
                                   kind == AttentionKind::kAdditive ? &f.hidden : nullptr);
            return f;
        };
        auto loss = [&]() { return weighted_sum(loss_weights, forward().context); };

        const Forward f = forward();
        CHECK(f.weights(3, 1) == 0.0f);  // padding gets no weight
        Parameters grad = zero_parameters(config);
        Matrix d_query = Matrix::Zero(D, B), d_keys = Matrix::Zero(f.keys.rows(), f.keys.cols());
        Matrix d_states = Matrix::Zero(C, S * B);
        const AttentionStepInputs in{&states, &f.keys, mask.data(), S, B};
        attention_step_backward(params, config, in, query, f.weights, kind == AttentionKind::kAdditive ? &f.hidden : nullptr,
                                loss_weights, d_query, d_keys, d_states, grad);
        attention_keys_backward(params, config, states, d_keys, d_states, grad);

        check_gradient("query", query, d_query, loss, random);
        check_gradient("states", states, d_states, loss, random);
        int checked = 0;
        for (auto [tensor, analytic, name] : {std::tuple{&params.attention_query, &grad.attention_query, "W_q"},
                                              std::tuple{&params.attention_key, &grad.attention_key, "W_k"},
                                              std::tuple{&params.attention_vector, &grad.attention_vector, "v"}}) {
            if (tensor->size() == 0) continue;  // not part of this scoring function
            check_gradient(name, *tensor, *analytic, loss, random);
            ++checked;
        }
        CHECK(checked == (kind == AttentionKind::kAdditive ? 3 : kind == AttentionKind::kGeneral ? 1 : 0));
    }
}

TEST_CASE("attention step: decoding's implementation equals training's to 1e-6, for every scoring function") {
    // The two exist for different jobs (attention.h): training's scores a
    // padded batch and keeps activations for the backward pass; decoding's
    // scores K hypotheses against one shared source through kernels.h. Here
    // the batch is K copies of one sentence, so both compute the same thing.
    for (AttentionKind kind : kScoringFunctions) {
        INFO(attention_kind_name(kind));
        const ModelConfig config = tiny_config(kind);
        const Parameters params = attention_parameters(config, 37);
        Random random(9);
        const int S = 6, K = 3, C = config.context_size(), D = config.decoder_hidden_size;
        const Matrix states = random_matrix(random, C, S);
        const Matrix queries = random_matrix(random, D, K, 2.0f);

        Matrix keys, projected_query, weights, contexts;
        attention_keys_forward(params, config, states, keys);
        attention_step_inference(params, config, states, keys, queries, nullptr, projected_query, weights, contexts);

        Matrix batch_states(C, S * K);
        for (int i = 0; i < S; ++i) time_block(batch_states, i, K).colwise() = states.col(i);
        Matrix batch_keys;
        attention_keys_forward(params, config, batch_states, batch_keys);
        const std::vector<float> mask(static_cast<size_t>(S) * K, 1.0f);
        Matrix hidden(config.attention_size, S * K), expected_weights(S, K), expected_contexts(C, K);
        attention_step_forward(params, config, {&batch_states, &batch_keys, mask.data(), S, K}, queries, expected_weights,
                               expected_contexts, kind == AttentionKind::kAdditive ? &hidden : nullptr);

        REQUIRE(weights.rows() == S);
        REQUIRE(weights.cols() == K);
        REQUIRE(contexts.rows() == C);
        CHECK((weights - expected_weights).cwiseAbs().maxCoeff() <= 1e-6f);
        CHECK((contexts - expected_contexts).cwiseAbs().maxCoeff() <= 1e-6f);
        CHECK(weights.colwise().sum().isOnes(1e-6f));
        CHECK(weights.maxCoeff() < 0.999f);  // not trivially equal: no one-hot weights
    }
}
