// Gated recurrent unit (Cho et al., 2014, "Learning Phrase Representations
// using RNN Encoder-Decoder for Statistical Machine Translation", eq. 5-8),
// in the variant that applies the reset gate after the state product
// (as cuDNN and Marian do), so that the state product of all three gates is
// one matrix multiplication:
//   r  = sigmoid(W_xr x + b_xr + W_hr h + b_hr)
//   z  = sigmoid(W_xz x + b_xz + W_hz h + b_hz)
//   n  = tanh(W_xn x + b_xn + r * (W_hn h + b_hn))
//   h' = (1 - z) * n + z * h
// The input projection W_x x + b_x is computed by the caller, for a whole
// sequence at once where the input is known in advance.
// A mask entry of 0 (padding) carries the state through unchanged, so a
// padded batch computes exactly what its sentences would alone.
#pragma once

#include "model/parameters.h"
#include "kernels/tensor.h"

namespace s2s {

// Activations of one step, kept for the backward pass.
struct GruStepActivations {
    MatrixRef gates;          // [r; z; n] after their nonlinearities (3 * hidden, B)
    MatrixRef state_product;  // W_hn h + b_hn, the candidate's state part (hidden, B)
};

// input_projection: W_x x + b_x (3 * hidden, B); state_in: h (hidden, B);
// mask: B entries (1 = real token, 0 = padding) or nullptr for all real.
// Writes state_out: h' (hidden, B).
void gru_step_forward(const GruWeights& weights, const ConstMatrixRef& input_projection, const ConstMatrixRef& state_in,
                      const float* mask, MatrixRef state_out, GruStepActivations activations);

// d_state_out: dL/dh' (hidden, B). Writes d_input_projection (3 * hidden, B)
// and d_state_in (hidden, B); accumulates (+=) the state weights' and state
// bias's gradients into `grad` (the input weights' are the caller's, since
// it owns the input projection).
void gru_step_backward(const GruWeights& weights, const ConstMatrixRef& state_in, const float* mask,
                       const ConstMatrixRef& gates, const ConstMatrixRef& state_product,
                       const ConstMatrixRef& d_state_out, MatrixRef d_input_projection, MatrixRef d_state_in,
                       GruWeights& grad);

}  // namespace s2s
