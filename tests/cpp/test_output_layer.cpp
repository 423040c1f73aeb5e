// The deep output layer (decoder.h: output_layer_forward/backward) on its
// own: its backward pass against finite differences of its forward pass,
// with and without a dropout mask.
#include "gradient_check.h"
#include "model/decoder.h"
#include "test_helpers.h"

#include <doctest/doctest.h>

using namespace s2s;
using namespace s2s::testing;

TEST_CASE("output layer: gradients of its input, W_p, b_p, W_o and b_o match finite differences") {
    const ModelConfig config = tiny_config(AttentionKind::kAdditive);
    const int D = config.decoder_hidden_size, C = config.context_size(), E = config.embedding_size;
    const int N = 5;  // positions (T * B)
    for (const bool with_dropout : {false, true}) {
        INFO("dropout ", with_dropout);
        Parameters params = random_parameters(config, 41);
        params.output_hidden_weights *= 2.5f;
        params.output_weights *= 2.5f;
        Random random(12);
        params.output_hidden_bias = random_matrix(random, params.output_hidden_bias.rows(), 1, 0.5f);
        params.output_bias = random_matrix(random, params.output_bias.rows(), 1, 0.5f);
        Matrix output_input = random_matrix(random, D + C + E, N);
        const Matrix loss_weights = random_matrix(random, config.target_vocab_size, N);

        // The mask is drawn once and reused: a fresh generator with the same
        // seed draws the same one in every evaluation of the loss.
        const float dropout = with_dropout ? 0.3f : 0.0f;
        auto forward = [&](Matrix& hidden, Matrix& mask, Matrix& logits) {
            Random masks(77);
            output_layer_forward(params, output_input, dropout, with_dropout ? &masks : nullptr, hidden, mask, logits);
        };
        auto loss = [&]() {
            Matrix hidden, mask, logits;
            forward(hidden, mask, logits);
            return weighted_sum(loss_weights, logits);
        };
        Matrix hidden, mask, logits;
        forward(hidden, mask, logits);
        CHECK(mask.size() == (with_dropout ? hidden.size() : 0));

        Parameters grad = zero_parameters(config);
        const Matrix d_output_input = output_layer_backward(params, output_input, hidden, mask, loss_weights, grad);
        check_gradient("output input", output_input, d_output_input, loss, random);
        check_gradient("W_p", params.output_hidden_weights, grad.output_hidden_weights, loss, random);
        check_gradient("b_p", params.output_hidden_bias, grad.output_hidden_bias, loss, random);
        check_gradient("W_o", params.output_weights, grad.output_weights, loss, random);
        check_gradient("b_o", params.output_bias, grad.output_bias, loss, random);
        CHECK(grad.decoder.input_weights.isZero());  // nothing outside the layer
    }
}
