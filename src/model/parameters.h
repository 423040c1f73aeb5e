// Every trainable tensor of the model in one struct. Parameters, their
// gradients and Adam's two moments are all of this type, so zeroing, the
// optimizer step, saving and loading are each one loop over for_each_tensor.
#pragma once

#include "common/random.h"  // Random, for the callers that draw parameters
#include "model/config.h"
#include "kernels/tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace s2s {

// One GRU layer, gates packed [r | z | n] (reset, update, candidate) along
// the rows, so a step is one matrix product for the input and one for the
// state (see gru.h for the equations).
struct GruWeights {
    Matrix input_weights;   // W_x (3 * hidden, input)
    Matrix state_weights;   // W_h (3 * hidden, hidden)
    Matrix input_bias;      // b_x (3 * hidden, 1)
    Matrix state_bias;      // b_h (3 * hidden, 1)
};

struct Parameters {
    Matrix source_embedding;    // (E, Vs), column = token id
    Matrix target_embedding;    // (E, Vt)
    GruWeights encoder_forward;   // input E, hidden H
    GruWeights encoder_backward;  // input E, hidden H
    // s_0 = tanh(W_init [h_fwd_S; h_bwd_1] + b_init) (Bahdanau et al., 2015, A.2.2)
    Matrix init_weights;        // (D, C)
    Matrix init_bias;           // (D, 1)
    // Attention (empty when unused by the configured variant).
    Matrix attention_query;     // W_q (A, D): additive only
    Matrix attention_key;       // W_k (A, C) additive, (D, C) general
    Matrix attention_vector;    // v (A, 1): additive only
    GruWeights decoder;         // input E + C ([emb(y_{t-1}); c_t]), hidden D
    // Deep output: o_t = tanh(W_p [s_t; c_t; emb(y_{t-1})] + b_p),
    // logits = W_o o_t + b_o (Bahdanau et al., 2015, A.2.2, tanh for maxout).
    Matrix output_hidden_weights;  // W_p (P, D + C + E)
    Matrix output_hidden_bias;     // b_p (P, 1)
    Matrix output_weights;         // W_o (Vt, P)
    Matrix output_bias;            // b_o (Vt, 1)
    // Calls f(name, tensor) for every tensor, in a fixed order (the order of
    // the model file). Empty tensors are included; callers skip them.
    template <typename F>
    void for_each_tensor(F&& f) {
        f("source_embedding", source_embedding);
        f("target_embedding", target_embedding);
        visit_gru("encoder_forward", encoder_forward, f);
        visit_gru("encoder_backward", encoder_backward, f);
        f("init_weights", init_weights);
        f("init_bias", init_bias);
        f("attention_query", attention_query);
        f("attention_key", attention_key);
        f("attention_vector", attention_vector);
        visit_gru("decoder", decoder, f);
        f("output_hidden_weights", output_hidden_weights);
        f("output_hidden_bias", output_hidden_bias);
        f("output_weights", output_weights);
        f("output_bias", output_bias);
    }
    template <typename F>
    void for_each_tensor(F&& f) const {
        const_cast<Parameters*>(this)->for_each_tensor(
            [&](const std::string& name, Matrix& m) { f(name, static_cast<const Matrix&>(m)); });
    }

    long count() const;  // number of scalars

private:
    template <typename F>
    static void visit_gru(const std::string& prefix, GruWeights& gru, F& f) {
        f(prefix + ".input_weights", gru.input_weights);
        f(prefix + ".state_weights", gru.state_weights);
        f(prefix + ".input_bias", gru.input_bias);
        f(prefix + ".state_bias", gru.state_bias);
    }
};

struct TensorShape {
    std::string name;  // as in for_each_tensor
    int rows = 0;
    int cols = 0;
};

// The non-empty tensors a model of `config` has, in for_each_tensor order:
// the one place that knows every shape. The loader checks a file against it
// before allocating anything.
std::vector<TensorShape> parameter_shapes(const ModelConfig& config);

// Zero tensors of the right shapes for `config` (for gradients and moments).
Parameters zero_parameters(const ModelConfig& config);

// Random initialization: weights uniform in +-sqrt(6 / (fan_in + fan_out))
// (Glorot & Bengio, 2010), embeddings uniform in +-0.1, biases zero, and the
// GRU update-gate input bias at +1 so that early training keeps state
// (Jozefowicz et al., 2015). Deterministic for a given seed on any platform.
Parameters random_parameters(const ModelConfig& config, uint64_t seed);

}  // namespace s2s
