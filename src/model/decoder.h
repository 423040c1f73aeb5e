// Decoder: a GRU whose input at step t is [emb(y_{t-1}); c_t], where the
// context c_t comes from attention over the encoder states (or is the fixed
// final encoder state for the baseline), followed by the deep output layer:
//   s_t    = GRU([emb(y_{t-1}); c_t], s_{t-1})
//   o_t    = tanh(W_p [s_t; c_t; emb(y_{t-1})] + b_p)
//   logits = W_o o_t + b_o
// (Bahdanau et al., 2015, appendix A.2.2, with tanh in place of maxout.)
#pragma once

#include "model/encoder.h"
#include "kernels/int8_step_weights.h"

#include <vector>

namespace s2s {

// ---- Training: all target steps at once (teacher forcing) ----

struct DecoderActivations {
    const TokenBatch* inputs = nullptr;  // y_{t-1}: <bos> then the target shifted (T * B)
    Matrix embedded;            // (E, T * B), after dropout
    Matrix embedding_dropout;   // (E, T * B) or empty
    Matrix initial_state;       // s_0 (D, B)
    Matrix keys;                // attention keys (key size, S * B; attention.h)
    Matrix input_projection;    // W_x [emb; c] + b_x (3D, T * B)
    Matrix gates;               // (3D, T * B)
    Matrix state_product;       // (D, T * B)
    Matrix states;              // s_t (D, T * B)
    Matrix attention_weights;   // a_t (S, T * B); empty for the baseline
    std::vector<Matrix> attention_hidden;  // per step (A, S * B), additive only
    Matrix contexts;            // c_t (C, T * B)
    Matrix output_input;        // [s_t; c_t; emb] (D + C + E, T * B)
    Matrix output_hidden;       // o_t before dropout (P, T * B)
    Matrix output_dropout;      // (P, T * B) or empty
    Matrix logits;              // (Vt, T * B)
};

void decoder_forward(const Parameters& params, const ModelConfig& config, const EncoderActivations& encoder,
                     const TokenBatch& inputs, float dropout, Random* random, DecoderActivations& out);

// d_logits (Vt, T * B). Writes dL/dH into d_encoder_states (C, S * B) and
// dL/d(final state) into d_encoder_final (C, B); accumulates into grad.
void decoder_backward(const Parameters& params, const ModelConfig& config, const EncoderActivations& encoder,
                      const DecoderActivations& act, const Matrix& d_logits, Matrix& d_encoder_states,
                      Matrix& d_encoder_final, Parameters& grad);

// ---- The deep output layer, forward and backward (training) ----
// o = tanh(W_p x + b_p), logits = W_o (o * dropout) + b_o for N = T * B
// positions. output_input x: [s_t; c_t; emb(y_{t-1})] (D + C + E, N).
// Writes output_hidden o (P, N) before dropout, output_dropout (P, N; empty
// without dropout: draw_dropout_scale, encoder.h) and logits (Vt, N).
void output_layer_forward(const Parameters& params, const Matrix& output_input, float dropout, Random* random,
                          Matrix& output_hidden, Matrix& output_dropout, Matrix& logits);
// d_logits (Vt, N). Accumulates (+=) the gradients of W_p, b_p, W_o and b_o
// into grad; returns dL/d(output_input) (D + C + E, N).
Matrix output_layer_backward(const Parameters& params, const Matrix& output_input, const Matrix& output_hidden,
                             const Matrix& output_dropout, const Matrix& d_logits, Parameters& grad);

// ---- Inference: one sentence, one step at a time for K hypotheses ----

struct EncodedSource {
    int length = 0;        // S
    Matrix states;         // H (C, S)
    Matrix keys;           // attention keys (key size, S; attention.h)
    Matrix final_state;    // (C, 1)
    Matrix initial_state;  // s_0 (D, 1)
};

// tokens: source ids ending with <eos>. int8: a loaded model's int8
// weights (Model::int8_step), whose source embedding, when kept, is read in
// place of the float one.
EncodedSource encode_source(const Parameters& params, const ModelConfig& config, const std::vector<int>& tokens,
                            const Int8StepWeights* int8 = nullptr);

struct DecoderStep {
    Matrix states;        // s_t (D, K)
    Matrix attention;     // a_t (S, K); (0, K) for the baseline, which attends to nothing
    Matrix log_probs;     // log p(y_t | ...) (Vt, K)

    // Temperature tau of the attention softmax, a_t = softmax(e_t / tau);
    // 1 is the trained model (and skips the division). Set by the search.
    float attention_temperature = 1.0f;
    // When set (the decoder trace, src/decode/trace.h), `scores` receives
    // e_t (S, K) before the softmax; else it is left alone.
    bool record_scores = false;
    Matrix scores;
    // The lexical shortlist's blocks of 8 rows of W_o (increasing;
    // src/model/target_shortlist.h), or null for all. With blocks and an int8
    // output layer, the output product and the log-softmax run over those
    // rows only and every other row of log_probs is -infinity; a list of
    // every block gives the bits of null. The float output layer ignores it.
    const std::vector<int>* output_blocks = nullptr;
    Matrix shortlist_logits;  // scratch: the listed rows (8 per block, K)

    // Scratch, kept between steps so that a step allocates nothing while K
    // stays the same: reuse one DecoderStep for a whole sentence.
    Matrix input;             // [emb(y_{t-1}); c_t] (E + C, K)
    Matrix projected_query;   // W_q s_{t-1} (A, K), additive only
    Matrix contexts;          // c_t (C, K), copied into `input`
    Matrix input_projection;  // W_x [emb; c] + b_x (3D, K)
    Matrix state_projection;  // W_h s + b_h (3D, K)
    Matrix output_input;      // [s_t; c_t; emb] (D + C + E, K)
    Matrix output_hidden;     // o_t (P, K)
};

// previous_tokens: y_{t-1} for each of the K hypotheses; previous_states:
// s_{t-1} (D, K). The K hypotheses share the one source: nothing of it is
// copied per hypothesis, and its keys W_k H were projected once, by
// encode_source. Computes what decoder_forward computes for one step (the
// tests compare the two), with the inference-only shortcuts of kernels.h.
// int8: the model's int8 step weights (Model::int8_step), whose non-empty
// matrices replace the float ones in the step's products; null to decode
// with the float parameters alone.
void decoder_step(const Parameters& params, const ModelConfig& config, const EncodedSource& source,
                  const std::vector<int>& previous_tokens, const Matrix& previous_states, DecoderStep& out,
                  const Int8StepWeights* int8 = nullptr);

}  // namespace s2s
