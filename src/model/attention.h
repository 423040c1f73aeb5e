// Attention: at decoder step t, score every encoder state H_i against the
// query s_{t-1}, turn the scores into weights with a softmax masked to the
// real source positions, and read the context c_t = sum_i a_ti H_i
// (Bahdanau et al., 2015, "Neural Machine Translation by Jointly Learning to
// Align and Translate", eq. 5-6). The scoring functions are listed in
// config.h. The key projection W_k H is computed once per sentence
// (attention_keys_forward), not once per step.
//
// The step itself is written twice, on purpose: attention_step_forward
// (training) scores a padded batch of B sentences, each query against its
// own source, masks the padding and keeps tanh(W_q s + W_k H_i) for the
// backward pass; attention_step_inference (decoding) scores K hypotheses
// against one shared source with no padding, through the kernels of
// kernels.h (vectorized for WebAssembly) and the int8 W_q of an int8 model,
// and allocates nothing per step. tests/cpp/test_attention.cpp checks that
// the two give the same weights and contexts to 1e-6.
#pragma once

#include "model/gru.h"
#include "kernels/int8_kernels.h"
#include "model/parameters.h"

namespace s2s {

// The keys' row count, "key size" below: A (additive: W_k H), D (general:
// W_k H) or C (dot, scaled dot: the keys are the states H themselves).
// keys: (key size, S * B); states: H (C, S * B).
void attention_keys_forward(const Parameters& params, const ModelConfig& config, const Matrix& states, Matrix& keys);
// Accumulates the key projection's gradient and adds d_keys' share into d_states.
void attention_keys_backward(const Parameters& params, const ModelConfig& config, const Matrix& states,
                             const Matrix& d_keys, Matrix& d_states, Parameters& grad);

struct AttentionStepInputs {
    const Matrix* states;       // H (C, S * B)
    const Matrix* keys;         // (key size, S * B)
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

// d_context: (C, B). Accumulates (+=) into d_query (D, B), d_keys (key size, S * B),
// d_states (C, S * B) and the step's parameter gradients.
void attention_step_backward(const Parameters& params, const ModelConfig& config, const AttentionStepInputs& in,
                             const ConstMatrixRef& query, const ConstMatrixRef& weights, const Matrix* hidden,
                             const ConstMatrixRef& d_context, MatrixRef d_query, Matrix& d_keys, Matrix& d_states,
                             Parameters& grad);

// Decoding: one step's attention for K hypotheses of one sentence.
// states: H (C, S) and keys (key size, S) of that sentence (encode_source,
// decoder.h); queries: s_{t-1} (D, K). Writes weights a_t (S, K; each column
// sums to 1) and contexts c_t (C, K). projected_query: scratch for W_q s
// (A, K), additive only, computed through query_weights_int8 (W_q as int8)
// when it is not null or empty. For a model without attention, not called.
// temperature: tau in a_t = softmax(e_t / tau); at 1 the scores are not
// divided (the trained model, bit for bit). scores_out: when not null,
// receives the scores e_t (S, K) as computed, before the division and the
// softmax (the decoder trace).
void attention_step_inference(const Parameters& params, const ModelConfig& config, const Matrix& states,
                              const Matrix& keys, const Matrix& queries, const Int8Matrix* query_weights_int8,
                              Matrix& projected_query, Matrix& weights, Matrix& contexts, float temperature = 1.0f,
                              Matrix* scores_out = nullptr);

}  // namespace s2s
