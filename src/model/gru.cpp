// One GRU step (gru.h), forward and backward, with padding carrying the
// state through.
#include "model/gru.h"

#include "kernels/kernels.h"

namespace s2s {

void gru_step_forward(const GruWeights& weights, const ConstMatrixRef& input_projection, const ConstMatrixRef& state_in,
                      const float* mask, MatrixRef state_out, GruStepActivations activations) {
    const Eigen::Index hidden = state_in.rows();
    const Eigen::Index batch = state_in.cols();
    Matrix state_projection;  // (3 * hidden, B)
    affine_columns(weights.state_weights, state_in, &weights.state_bias, state_projection);
    activations.state_product = state_projection.bottomRows(hidden);
    gru_cell_columns(input_projection, state_projection, state_in, state_out, &activations.gates);

    if (mask != nullptr) {
        for (Eigen::Index b = 0; b < batch; ++b) {
            if (mask[b] == 0.0f) state_out.col(b) = state_in.col(b);
        }
    }
}

void gru_step_backward(const GruWeights& weights, const ConstMatrixRef& state_in, const float* mask,
                       const ConstMatrixRef& gates, const ConstMatrixRef& state_product,
                       const ConstMatrixRef& d_state_out, MatrixRef d_input_projection, MatrixRef d_state_in,
                       GruWeights& grad) {
    const Eigen::Index hidden = state_in.rows();
    const Eigen::Index batch = state_in.cols();
    const auto reset = gates.array().topRows(hidden);
    const auto update = gates.array().middleRows(hidden, hidden);
    const auto candidate = gates.array().bottomRows(hidden);

    // Padding columns pass their gradient straight to the previous state.
    Matrix d_new = d_state_out;  // (hidden, B): the part that went through the cell
    if (mask != nullptr) {
        for (Eigen::Index b = 0; b < batch; ++b) {
            if (mask[b] == 0.0f) d_new.col(b).setZero();
        }
    }
    const auto dh = d_new.array();

    auto d_x = d_input_projection.array();
    // h' = n + z * (h - n)
    auto d_candidate_pre = d_x.bottomRows(hidden);
    d_candidate_pre = dh * (1.0f - update) * (1.0f - candidate.square());
    d_x.middleRows(hidden, hidden) = dh * (state_in.array() - candidate) * update * (1.0f - update);
    // n = tanh(x_n + r * hp_n): d(r) = d_pre * hp_n
    d_x.topRows(hidden) = d_candidate_pre * state_product.array() * reset * (1.0f - reset);

    Matrix d_state_projection(3 * hidden, batch);  // dL/d(W_h h + b_h)
    d_state_projection.topRows(2 * hidden) = d_input_projection.topRows(2 * hidden);
    d_state_projection.bottomRows(hidden).array() = d_candidate_pre * reset;

    grad.state_weights.noalias() += d_state_projection * state_in.transpose();
    grad.state_bias += d_state_projection.rowwise().sum();

    d_state_in.noalias() = weights.state_weights.transpose() * d_state_projection;
    d_state_in.array() += dh * update;
    if (mask != nullptr) {
        for (Eigen::Index b = 0; b < batch; ++b) {
            if (mask[b] == 0.0f) d_state_in.col(b) += d_state_out.col(b);
        }
    }
}

}  // namespace s2s
