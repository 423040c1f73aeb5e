// Encoder: source embedding and a bidirectional GRU that keeps every hidden
// state, H_i = [h_fwd_i; h_bwd_i] (Bahdanau et al., 2015, section 3.2).
#pragma once

#include "model/gru.h"
#include "kernels/int8_step_weights.h"
#include "model/parameters.h"

#include <vector>

namespace s2s {

// A batch of token sequences, time major: entry t * B + b is token t of
// sentence b; mask 1 for real tokens, 0 for padding after the end.
struct TokenBatch {
    int length = 0;              // S or T
    int batch = 0;               // B
    std::vector<int> tokens;     // length * batch
    std::vector<float> mask;     // length * batch
};

// One direction of the encoder GRU over a sequence.
struct GruSequenceActivations {
    Matrix input_projection;  // W_x x + b_x (3H, S * B)
    Matrix gates;             // (3H, S * B)
    Matrix state_product;     // (H, S * B)
    Matrix states;            // h_t (H, S * B)
};

struct EncoderActivations {
    const TokenBatch* source = nullptr;
    Matrix embedded;          // (E, S * B), after dropout
    Matrix dropout_scale;     // (E, S * B): 0 or 1/(1-p); empty without dropout
    GruSequenceActivations forward;
    GruSequenceActivations backward;
    Matrix states;            // H = [h_fwd; h_bwd] (C, S * B)
    Matrix final_state;       // [h_fwd at the last real token; h_bwd_1] (C, B)
};

// Embedding dropout with probability `dropout` when random != nullptr.
// `int8_embedding`, when given and not empty, holds the source embedding in
// place of params.source_embedding (a translation-only model's; no dropout).
void encoder_forward(const Parameters& params, const ModelConfig& config, const TokenBatch& source, float dropout,
                     class Random* random, EncoderActivations& out, const Int8Embedding* int8_embedding = nullptr);

// d_states: dL/dH (C, S * B); d_final_state: (C, B). Accumulates into grad.
void encoder_backward(const Parameters& params, const ModelConfig& config, const EncoderActivations& act,
                      const Matrix& d_states, const Matrix& d_final_state, Parameters& grad);

// Embedding lookup with optional inverted dropout (shared by encoder and decoder).
void embed_tokens(const Matrix& embedding, const std::vector<int>& tokens, float dropout, Random* random,
                  Matrix& embedded, Matrix& dropout_scale);
// A (rows, cols) matrix of 0 and 1/(1-dropout) entries; empty when random is
// null or dropout is 0 (no dropout).
void draw_dropout_scale(Eigen::Index rows, Eigen::Index cols, float dropout, Random* random, Matrix& scale);
// Scatter-adds d_embedded columns into the embedding gradient.
void embed_tokens_backward(const std::vector<int>& tokens, const Matrix& dropout_scale, Matrix d_embedded,
                           Matrix& d_embedding);

}  // namespace s2s
