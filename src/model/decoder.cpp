// The decoder (decoder.h): teacher-forced forward and backward for training,
// the deep output layer, and encode_source / decoder_step for decoding.
#include "model/decoder.h"

#include "model/attention.h"
#include "kernels/int8_kernels.h"
#include "kernels/kernels.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace s2s {
namespace {

void initial_state_forward(const Parameters& params, const Matrix& final_state, Matrix& initial_state) {
    affine_columns(params.init_weights, final_state, &params.init_bias, initial_state);
    tanh_in_place(initial_state);
}

void output_hidden_forward(const Parameters& params, const Matrix& output_input, Matrix& output_hidden) {
    output_hidden.noalias() = params.output_hidden_weights * output_input;
    output_hidden.colwise() += params.output_hidden_bias.col(0);
    output_hidden = output_hidden.array().tanh().matrix();
}

void logits_forward(const Parameters& params, const Matrix& output_hidden, Matrix& logits) {
    logits.noalias() = params.output_weights * output_hidden;
    logits.colwise() += params.output_bias.col(0);
}

// The int8 copy `matrix` of `int8`, or null when decoding is float only.
const Int8Matrix* int8_copy(const Int8StepWeights* int8, const Int8Matrix Int8StepWeights::*matrix) {
    return int8 != nullptr ? &(int8->*matrix) : nullptr;
}


}  // namespace

void output_layer_forward(const Parameters& params, const Matrix& output_input, float dropout, Random* random,
                          Matrix& output_hidden, Matrix& output_dropout, Matrix& logits) {
    output_hidden_forward(params, output_input, output_hidden);
    draw_dropout_scale(output_hidden.rows(), output_hidden.cols(), dropout, random, output_dropout);
    if (output_dropout.size() != 0) {
        logits_forward(params, (output_hidden.array() * output_dropout.array()).matrix(), logits);
    } else {
        logits_forward(params, output_hidden, logits);
    }
}

Matrix output_layer_backward(const Parameters& params, const Matrix& output_input, const Matrix& output_hidden,
                             const Matrix& output_dropout, const Matrix& d_logits, Parameters& grad) {
    const bool dropped = output_dropout.size() != 0;
    if (dropped) {
        grad.output_weights.noalias() += d_logits * (output_hidden.array() * output_dropout.array()).matrix().transpose();
    } else {
        grad.output_weights.noalias() += d_logits * output_hidden.transpose();
    }
    grad.output_bias += d_logits.rowwise().sum();
    Matrix d_hidden = params.output_weights.transpose() * d_logits;  // (P, N)
    if (dropped) d_hidden.array() *= output_dropout.array();
    d_hidden.array() *= 1.0f - output_hidden.array().square();
    grad.output_hidden_weights.noalias() += d_hidden * output_input.transpose();
    grad.output_hidden_bias += d_hidden.rowwise().sum();
    return params.output_hidden_weights.transpose() * d_hidden;  // (D + C + E, N)
}

void decoder_forward(const Parameters& params, const ModelConfig& config, const EncoderActivations& encoder,
                     const TokenBatch& inputs, float dropout, Random* random, DecoderActivations& out) {
    const int T = inputs.length, B = inputs.batch;
    const int S = encoder.source->length;
    const int E = config.embedding_size, C = config.context_size(), D = config.decoder_hidden_size;
    const bool attends = config.attention != AttentionKind::kNone;
    const auto context_weights = params.decoder.input_weights.rightCols(C);  // (3D, C)

    out.inputs = &inputs;
    embed_tokens(params.target_embedding, inputs.tokens, dropout, random, out.embedded, out.embedding_dropout);
    initial_state_forward(params, encoder.final_state, out.initial_state);
    // The embedding half of the GRU input is known for all steps: one product.
    out.input_projection.noalias() = params.decoder.input_weights.leftCols(E) * out.embedded;
    out.input_projection.colwise() += params.decoder.input_bias.col(0);
    out.gates.resize(3 * D, T * B);
    out.state_product.resize(D, T * B);
    out.states.resize(D, T * B);
    out.contexts.resize(C, T * B);

    AttentionStepInputs attention_in{&encoder.states, &out.keys, encoder.source->mask.data(), S, B};
    if (attends) {
        attention_keys_forward(params, config, encoder.states, out.keys);
        out.attention_weights.resize(S, T * B);
        out.attention_hidden.assign(config.attention == AttentionKind::kAdditive ? T : 0, Matrix());
    }
    for (int t = 0; t < T; ++t) {
        const Matrix& previous_all = t == 0 ? out.initial_state : out.states;
        const auto previous = previous_all.middleCols(t == 0 ? 0 : (t - 1) * B, B);
        auto context = time_block(out.contexts, t, B);
        if (attends) {
            Matrix* hidden = nullptr;
            if (config.attention == AttentionKind::kAdditive) {
                out.attention_hidden[t].resize(config.attention_size, S * B);
                hidden = &out.attention_hidden[t];
            }
            attention_step_forward(params, config, attention_in, previous, time_block(out.attention_weights, t, B),
                                   context, hidden);
        } else {
            context = encoder.final_state;
        }
        time_block(out.input_projection, t, B).noalias() += context_weights * context;
        gru_step_forward(params.decoder, time_block(out.input_projection, t, B), previous, nullptr,
                         time_block(out.states, t, B),
                         {time_block(out.gates, t, B), time_block(out.state_product, t, B)});
    }

    out.output_input.resize(D + C + E, T * B);
    out.output_input.topRows(D) = out.states;
    out.output_input.middleRows(D, C) = out.contexts;
    out.output_input.bottomRows(E) = out.embedded;
    output_layer_forward(params, out.output_input, dropout, random, out.output_hidden, out.output_dropout, out.logits);
}

void decoder_backward(const Parameters& params, const ModelConfig& config, const EncoderActivations& encoder,
                      const DecoderActivations& act, const Matrix& d_logits, Matrix& d_encoder_states,
                      Matrix& d_encoder_final, Parameters& grad) {
    const int T = act.inputs->length, B = act.inputs->batch;
    const int S = encoder.source->length;
    const int E = config.embedding_size, C = config.context_size(), D = config.decoder_hidden_size;
    const bool attends = config.attention != AttentionKind::kNone;
    const auto context_weights = params.decoder.input_weights.rightCols(C);  // (3D, C)
    auto context_weights_grad = grad.decoder.input_weights.rightCols(C);

    d_encoder_states = Matrix::Zero(C, S * B);
    d_encoder_final = Matrix::Zero(C, B);

    // Output layer, in reverse.
    const Matrix d_output_input =
        output_layer_backward(params, act.output_input, act.output_hidden, act.output_dropout, d_logits, grad);

    // The recurrence, in reverse.
    Matrix d_input_projection(3 * D, T * B);
    Matrix d_keys;
    if (attends) d_keys = Matrix::Zero(act.keys.rows(), act.keys.cols());
    AttentionStepInputs attention_in{&encoder.states, &act.keys, encoder.source->mask.data(), S, B};
    Matrix d_next = Matrix::Zero(D, B);  // dL/ds_t arriving from step t + 1
    Matrix d_previous(D, B);
    Matrix d_context(C, B);
    for (int t = T - 1; t >= 0; --t) {
        const Matrix& previous_all = t == 0 ? act.initial_state : act.states;
        const auto previous = previous_all.middleCols(t == 0 ? 0 : (t - 1) * B, B);
        const auto context = time_block(act.contexts, t, B);
        Matrix d_state = time_block(d_output_input, t, B).topRows(D) + d_next;
        gru_step_backward(params.decoder, previous, nullptr, time_block(act.gates, t, B),
                          time_block(act.state_product, t, B), d_state, time_block(d_input_projection, t, B),
                          d_previous, grad.decoder);
        const auto d_projection_t = time_block(d_input_projection, t, B);
        d_context = time_block(d_output_input, t, B).middleRows(D, C);
        d_context.noalias() += context_weights.transpose() * d_projection_t;
        context_weights_grad.noalias() += d_projection_t * context.transpose();
        if (attends) {
            const Matrix* hidden = config.attention == AttentionKind::kAdditive ? &act.attention_hidden[t] : nullptr;
            attention_step_backward(params, config, attention_in, previous, time_block(act.attention_weights, t, B),
                                    hidden, d_context, d_previous, d_keys, d_encoder_states, grad);
        } else {
            d_encoder_final += d_context;
        }
        d_next = d_previous;
    }
    if (attends) attention_keys_backward(params, config, encoder.states, d_keys, d_encoder_states, grad);

    // s_0 = tanh(W_init final + b_init)
    const Matrix d_initial_pre = (d_next.array() * (1.0f - act.initial_state.array().square())).matrix();
    grad.init_weights.noalias() += d_initial_pre * encoder.final_state.transpose();
    grad.init_bias += d_initial_pre.rowwise().sum();
    d_encoder_final.noalias() += params.init_weights.transpose() * d_initial_pre;

    // The embedding half of the GRU input, and the embedding's share of the
    // output layer.
    grad.decoder.input_weights.leftCols(E).noalias() += d_input_projection * act.embedded.transpose();
    grad.decoder.input_bias += d_input_projection.rowwise().sum();
    Matrix d_embedded = d_output_input.bottomRows(E);
    d_embedded.noalias() += params.decoder.input_weights.leftCols(E).transpose() * d_input_projection;
    embed_tokens_backward(act.inputs->tokens, act.embedding_dropout, std::move(d_embedded), grad.target_embedding);
}

EncodedSource encode_source(const Parameters& params, const ModelConfig& config, const std::vector<int>& tokens,
                            const Int8StepWeights* int8) {
    TokenBatch source;
    source.length = static_cast<int>(tokens.size());
    source.batch = 1;
    source.tokens = tokens;
    source.mask.assign(tokens.size(), 1.0f);
    EncoderActivations encoder;
    encoder_forward(params, config, source, 0.0f, nullptr, encoder, int8 != nullptr ? &int8->source_embedding : nullptr);
    EncodedSource out;
    out.length = source.length;
    out.states = std::move(encoder.states);
    out.final_state = std::move(encoder.final_state);
    if (config.attention != AttentionKind::kNone) attention_keys_forward(params, config, out.states, out.keys);
    initial_state_forward(params, out.final_state, out.initial_state);
    return out;
}

void decoder_step(const Parameters& params, const ModelConfig& config, const EncodedSource& source,
                  const std::vector<int>& previous_tokens, const Matrix& previous_states, DecoderStep& out,
                  const Int8StepWeights* int8) {
    const int K = static_cast<int>(previous_tokens.size());
    const int E = config.embedding_size, C = config.context_size(), D = config.decoder_hidden_size;

    // The GRU input [emb(y_{t-1}); c_t], assembled in place.
    out.input.resize(E + C, K);
    if (int8 != nullptr && !int8->target_embedding.empty()) {
        for (int k = 0; k < K; ++k) int8->target_embedding.column(previous_tokens[k], out.input.col(k).data());
    } else {
        for (int k = 0; k < K; ++k) out.input.col(k).head(E) = params.target_embedding.col(previous_tokens[k]);
    }
    auto contexts = out.input.bottomRows(C);

    if (config.attention != AttentionKind::kNone) {
        attention_step_inference(params, config, source.states, source.keys, previous_states,
                                 int8_copy(int8, &Int8StepWeights::attention_query), out.projected_query, out.attention,
                                 out.contexts, out.attention_temperature, out.record_scores ? &out.scores : nullptr);
        contexts = out.contexts;
    } else {
        out.attention.resize(0, K);  // the baseline attends to nothing
        contexts.colwise() = source.final_state.col(0);
    }

    // GRU (gru.h), gates [r | z | n]: one product for the input, one for the state.
    const GruWeights& gru = params.decoder;
    affine_columns_int8_or_float(int8_copy(int8, &Int8StepWeights::decoder_input), gru.input_weights, out.input,
                                 &gru.input_bias, out.input_projection);
    affine_columns_int8_or_float(int8_copy(int8, &Int8StepWeights::decoder_state), gru.state_weights, previous_states,
                                 &gru.state_bias, out.state_projection);
    out.states.resize(D, K);
    gru_cell_columns(out.input_projection, out.state_projection, previous_states, out.states, nullptr);

    // Deep output and logits (decoder.h).
    out.output_input.resize(D + C + E, K);
    out.output_input.topRows(D) = out.states;
    out.output_input.middleRows(D, C) = contexts;
    out.output_input.bottomRows(E) = out.input.topRows(E);
    affine_columns_int8_or_float(int8_copy(int8, &Int8StepWeights::output_hidden_weights), params.output_hidden_weights,
                                 out.output_input, &params.output_hidden_bias, out.output_hidden);
    tanh_in_place(out.output_hidden);
    const Int8Matrix* output_weights = int8_copy(int8, &Int8StepWeights::output_weights);
    if (out.output_blocks != nullptr && output_weights != nullptr && !output_weights->empty()) {
        // The shortlist: the listed rows only, scattered back among -inf.
        const std::vector<int>& blocks = *out.output_blocks;
        affine_columns_int8_blocks(*output_weights, out.output_hidden, &params.output_bias, blocks,
                                   out.shortlist_logits);
        log_softmax_columns(out.shortlist_logits);
        const int V = output_weights->rows;
        out.log_probs.resize(V, K);
        out.log_probs.setConstant(-std::numeric_limits<float>::infinity());
        for (int k = 0; k < K; ++k) {
            const float* from = out.shortlist_logits.col(k).data();
            float* to = out.log_probs.col(k).data();
            for (size_t i = 0; i < blocks.size(); ++i) {
                const int r0 = 8 * blocks[i], n = std::min(8, V - r0);
                std::copy(from + 8 * i, from + 8 * i + n, to + r0);
            }
        }
        return;
    }
    affine_columns_int8_or_float(output_weights, params.output_weights, out.output_hidden, &params.output_bias,
                                 out.log_probs);
    log_softmax_columns(out.log_probs);
}

}  // namespace s2s
