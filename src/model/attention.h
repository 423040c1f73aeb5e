// Attention: at decoder step t, score every encoder state H_i against the
// query s_{t-1}, turn the scores into weights with a softmax masked to the
// real source positions, and read the context c_t = sum_i a_ti H_i
// (Bahdanau et al., 2015, "Neural Machine Translation by Jointly Learning to
// Align and Translate", eq. 5-6). The scoring functions are listed in
// config.h. The key projection W_k H is computed once per sentence
// (attention_keys_forward), not once per step.
#pragma once

#include "model/gru.h"
#include "model/parameters.h"

namespace s2s {

// keys: (K, S * B) where K = A (additive), D (general) or C (dot, scaled dot:
// the keys are the states themselves). states: H (C, S * B).
void attention_keys_forward(const Parameters& params, const ModelConfig& config, const Matrix& states, Matrix& keys);
// Accumulates the key projection's gradient and adds d_keys' share into d_states.
void attention_keys_backward(const Parameters& params, const ModelConfig& config, const Matrix& states,
                             const Matrix& d_keys, Matrix& d_states, Parameters& grad);

struct AttentionStepInputs {
    const Matrix* states;       // H (C, S * B)
    const Matrix* keys;         // (K, S * B)
    const float* source_mask;   // S * B entries, time major: 1 real, 0 padding
    int source_length;          // S
    int batch;                  // B
};

// query: s_{t-1} (D, B). Writes weights a_t (S, B; each column sums to 1
// over real positions, 0 on padding) and context c_t (C, B). For additive
// attention, `hidden` (A, S * B) receives tanh(W_q s + W_k H_i), kept for
// the backward pass.
void attention_step_forward(const Parameters& params, const ModelConfig& config, const AttentionStepInputs& in,
                            const ConstMatrixRef& query, MatrixRef weights, MatrixRef context, Matrix* hidden);

// d_context: (C, B). Accumulates (+=) into d_query (D, B), d_keys (K, S * B),
// d_states (C, S * B) and the step's parameter gradients.
void attention_step_backward(const Parameters& params, const ModelConfig& config, const AttentionStepInputs& in,
                             const ConstMatrixRef& query, const ConstMatrixRef& weights, const Matrix* hidden,
                             const ConstMatrixRef& d_context, MatrixRef d_query, Matrix& d_keys, Matrix& d_states,
                             Parameters& grad);

}  // namespace s2s
