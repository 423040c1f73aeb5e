// The GRU step (gru.h) on its own: its backward pass against finite
// differences of its forward pass, with a padded column in the batch, and
// padding carrying the state through unchanged.
#include "gradient_check.h"
#include "model/gru.h"

#include <doctest/doctest.h>

#include <vector>

using namespace s2s;
using namespace s2s::testing;

TEST_CASE("GRU step: gradients of the input projection, the state and the state weights match finite differences") {
    Random random(21);
    const int input = 4, hidden = 5, batch = 3;
    GruWeights weights{random_matrix(random, 3 * hidden, input, 1.5f), random_matrix(random, 3 * hidden, hidden, 1.5f),
                       random_matrix(random, 3 * hidden, 1, 0.5f), random_matrix(random, 3 * hidden, 1, 0.5f)};
    Matrix input_projection = random_matrix(random, 3 * hidden, batch, 2.0f);
    Matrix state_in = random_matrix(random, hidden, batch);
    const std::vector<float> mask = {1.0f, 0.0f, 1.0f};  // column 1 is padding
    const Matrix loss_weights = random_matrix(random, hidden, batch);

    Matrix gates(3 * hidden, batch), state_product(hidden, batch), state_out(hidden, batch);
    auto loss = [&]() {
        Matrix g(3 * hidden, batch), p(hidden, batch), out(hidden, batch);
        gru_step_forward(weights, input_projection, state_in, mask.data(), out, {g, p});
        return weighted_sum(loss_weights, out);
    };
    gru_step_forward(weights, input_projection, state_in, mask.data(), state_out, {gates, state_product});
    CHECK(state_out.col(1) == state_in.col(1));  // padding carries the state through

    GruWeights grad{Matrix::Zero(3 * hidden, input), Matrix::Zero(3 * hidden, hidden), Matrix::Zero(3 * hidden, 1),
                    Matrix::Zero(3 * hidden, 1)};
    Matrix d_input_projection(3 * hidden, batch), d_state_in(hidden, batch);
    gru_step_backward(weights, state_in, mask.data(), gates, state_product, loss_weights, d_input_projection, d_state_in,
                      grad);
    CHECK(d_input_projection.col(1).isZero());  // a padded step has no input gradient
    CHECK(grad.input_weights.isZero());         // the input weights' gradient is the caller's

    check_gradient("input projection", input_projection, d_input_projection, loss, random);
    check_gradient("state in", state_in, d_state_in, loss, random);
    check_gradient("state weights", weights.state_weights, grad.state_weights, loss, random);
    check_gradient("state bias", weights.state_bias, grad.state_bias, loss, random);
}
