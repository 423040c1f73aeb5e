#include "model/decoder.h"

#include "model/attention.h"

namespace s2s {
namespace {

void initial_state_forward(const Parameters& params, const Matrix& final_state, Matrix& initial_state) {
    initial_state.noalias() = params.init_weights * final_state;
    initial_state.colwise() += params.init_bias.col(0);
    initial_state = initial_state.array().tanh().matrix();
}

void output_layer_forward(const Parameters& params, const Matrix& output_input, Matrix& output_hidden) {
    output_hidden.noalias() = params.output_hidden_weights * output_input;
    output_hidden.colwise() += params.output_hidden_bias.col(0);
    output_hidden = output_hidden.array().tanh().matrix();
}

void logits_forward(const Parameters& params, const Matrix& output_hidden, Matrix& logits) {
    logits.noalias() = params.output_weights * output_hidden;
    logits.colwise() += params.output_bias.col(0);
}

}  // namespace

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
    output_layer_forward(params, out.output_input, out.output_hidden);
    draw_dropout_scale(out.output_hidden.rows(), out.output_hidden.cols(), dropout, random, out.output_dropout);
    if (out.output_dropout.size() != 0) {
        logits_forward(params, (out.output_hidden.array() * out.output_dropout.array()).matrix(), out.logits);
    } else {
        logits_forward(params, out.output_hidden, out.logits);
    }
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
    const bool dropped = act.output_dropout.size() != 0;
    if (dropped) {
        grad.output_weights.noalias() +=
            d_logits * (act.output_hidden.array() * act.output_dropout.array()).matrix().transpose();
    } else {
        grad.output_weights.noalias() += d_logits * act.output_hidden.transpose();
    }
    grad.output_bias += d_logits.rowwise().sum();
    Matrix d_hidden = params.output_weights.transpose() * d_logits;  // (P, T * B)
    if (dropped) d_hidden.array() *= act.output_dropout.array();
    d_hidden.array() *= 1.0f - act.output_hidden.array().square();
    grad.output_hidden_weights.noalias() += d_hidden * act.output_input.transpose();
    grad.output_hidden_bias += d_hidden.rowwise().sum();
    const Matrix d_output_input = params.output_hidden_weights.transpose() * d_hidden;  // (D + C + E, T * B)

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

EncodedSource encode_source(const Parameters& params, const ModelConfig& config, const std::vector<int>& tokens) {
    TokenBatch source;
    source.length = static_cast<int>(tokens.size());
    source.batch = 1;
    source.tokens = tokens;
    source.mask.assign(tokens.size(), 1.0f);
    EncoderActivations encoder;
    encoder_forward(params, config, source, 0.0f, nullptr, encoder);
    EncodedSource out;
    out.length = source.length;
    out.states = std::move(encoder.states);
    out.final_state = std::move(encoder.final_state);
    if (config.attention != AttentionKind::kNone) attention_keys_forward(params, config, out.states, out.keys);
    initial_state_forward(params, out.final_state, out.initial_state);
    return out;
}

void decoder_step(const Parameters& params, const ModelConfig& config, const EncodedSource& source,
                  const std::vector<int>& previous_tokens, const Matrix& previous_states, DecoderStep& out) {
    const int K = static_cast<int>(previous_tokens.size());
    const int S = source.length;
    const int E = config.embedding_size, C = config.context_size(), D = config.decoder_hidden_size;

    Matrix embedded(E, K);
    for (int k = 0; k < K; ++k) embedded.col(k) = params.target_embedding.col(previous_tokens[k]);

    Matrix contexts(C, K);
    if (config.attention != AttentionKind::kNone) {
        out.attention.resize(S, K);
        // The training code works on time-major batches; lay the one source
        // out as K identical sentences.
        Matrix states(C, S * K), keys(source.keys.rows(), S * K);
        for (int i = 0; i < S; ++i) {
            time_block(states, i, K).colwise() = source.states.col(i);
            time_block(keys, i, K).colwise() = source.keys.col(i);
        }
        const std::vector<float> mask(static_cast<size_t>(S) * K, 1.0f);
        AttentionStepInputs in{&states, &keys, mask.data(), S, K};
        Matrix hidden;
        if (config.attention == AttentionKind::kAdditive) hidden.resize(config.attention_size, S * K);
        attention_step_forward(params, config, in, previous_states, out.attention, contexts, &hidden);
    } else {
        out.attention.resize(0, K);  // the baseline attends to nothing
        contexts.colwise() = source.final_state.col(0);
    }

    Matrix projection = params.decoder.input_weights.leftCols(E) * embedded;
    projection.noalias() += params.decoder.input_weights.rightCols(C) * contexts;
    projection.colwise() += params.decoder.input_bias.col(0);
    Matrix gates(3 * D, K), state_product(D, K);
    out.states.resize(D, K);
    gru_step_forward(params.decoder, projection, previous_states, nullptr, out.states, {gates, state_product});

    Matrix output_input(D + C + E, K);
    output_input.topRows(D) = out.states;
    output_input.middleRows(D, C) = contexts;
    output_input.bottomRows(E) = embedded;
    Matrix output_hidden;
    output_layer_forward(params, output_input, output_hidden);
    logits_forward(params, output_hidden, out.log_probs);
    for (int k = 0; k < K; ++k) {
        auto column = out.log_probs.col(k);
        const float max_logit = column.maxCoeff();
        const float log_total = std::log((column.array() - max_logit).exp().sum()) + max_logit;
        column.array() -= log_total;
    }
}

}  // namespace s2s
