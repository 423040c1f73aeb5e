// The encoder (encoder.h): embedding with dropout and the bidirectional GRU
// over a padded batch, forward and backward.
#include "model/encoder.h"

#include "kernels/kernels.h"

namespace s2s {

void embed_tokens(const Matrix& embedding, const std::vector<int>& tokens, float dropout, Random* random,
                  Matrix& embedded, Matrix& dropout_scale) {
    const int E = static_cast<int>(embedding.rows());
    embedded.resize(E, static_cast<Eigen::Index>(tokens.size()));
    for (size_t k = 0; k < tokens.size(); ++k) embedded.col(k) = embedding.col(tokens[k]);
    draw_dropout_scale(embedded.rows(), embedded.cols(), dropout, random, dropout_scale);
    if (dropout_scale.size() != 0) embedded.array() *= dropout_scale.array();
}

void draw_dropout_scale(Eigen::Index rows, Eigen::Index cols, float dropout, Random* random, Matrix& scale) {
    if (random == nullptr || dropout <= 0.0f) {
        scale.resize(0, 0);
        return;
    }
    // Inverted dropout (Srivastava et al., 2014): scale at training time so
    // inference needs no change.
    scale.resize(rows, cols);
    const float keep_scale = 1.0f / (1.0f - dropout);
    for (Eigen::Index i = 0; i < scale.size(); ++i) scale.data()[i] = random->uniform() < dropout ? 0.0f : keep_scale;
}

void embed_tokens_backward(const std::vector<int>& tokens, const Matrix& dropout_scale, Matrix d_embedded,
                           Matrix& d_embedding) {
    if (dropout_scale.size() != 0) d_embedded.array() *= dropout_scale.array();
    for (size_t k = 0; k < tokens.size(); ++k) d_embedding.col(tokens[k]) += d_embedded.col(k);
}

namespace {

// Runs one GRU direction over the whole sequence. The backward direction
// starts at the last padded position: padding keeps its zero state, so the
// state entering a sentence's last real token is zero, as for the sentence
// alone.
void gru_sequence_forward(const GruWeights& weights, const Matrix& inputs, const TokenBatch& seq, bool reverse,
                          GruSequenceActivations& act) {
    const int S = seq.length, B = seq.batch;
    const int H = static_cast<int>(weights.state_weights.cols());
    affine_columns(weights.input_weights, inputs, &weights.input_bias, act.input_projection);
    act.gates.resize(3 * H, S * B);
    act.state_product.resize(H, S * B);
    act.states.resize(H, S * B);
    const Matrix zero = Matrix::Zero(H, B);
    for (int step = 0; step < S; ++step) {
        const int t = reverse ? S - 1 - step : step;
        const int previous = reverse ? t + 1 : t - 1;
        const bool first = step == 0;
        gru_step_forward(weights, time_block(act.input_projection, t, B),
                         first ? ConstMatrixRef(zero) : ConstMatrixRef(time_block(act.states, previous, B)), seq.mask.data() + t * B,
                         time_block(act.states, t, B),
                         {time_block(act.gates, t, B), time_block(act.state_product, t, B)});
    }
}

// d_states (H, S * B) includes the final state's gradient. Returns dL/dx.
Matrix gru_sequence_backward(const GruWeights& weights, const Matrix& inputs, const TokenBatch& seq, bool reverse,
                             const GruSequenceActivations& act, Matrix d_states, GruWeights& grad) {
    const int S = seq.length, B = seq.batch;
    const int H = static_cast<int>(weights.state_weights.cols());
    Matrix d_input_projection(3 * H, S * B);
    Matrix d_state_in(H, B);
    const Matrix zero = Matrix::Zero(H, B);
    for (int step = S - 1; step >= 0; --step) {
        const int t = reverse ? S - 1 - step : step;
        const int previous = reverse ? t + 1 : t - 1;
        const bool first = step == 0;
        gru_step_backward(weights, first ? ConstMatrixRef(zero) : ConstMatrixRef(time_block(act.states, previous, B)), seq.mask.data() + t * B,
                          time_block(act.gates, t, B), time_block(act.state_product, t, B), time_block(d_states, t, B),
                          time_block(d_input_projection, t, B), d_state_in, grad);
        if (!first) time_block(d_states, previous, B) += d_state_in;
    }
    grad.input_weights.noalias() += d_input_projection * inputs.transpose();
    grad.input_bias += d_input_projection.rowwise().sum();
    return weights.input_weights.transpose() * d_input_projection;
}

}  // namespace

void encoder_forward(const Parameters& params, const ModelConfig& config, const TokenBatch& source, float dropout,
                     Random* random, EncoderActivations& out, const Int8Embedding* int8_embedding) {
    const int S = source.length, B = source.batch, H = config.encoder_hidden_size;
    out.source = &source;
    if (int8_embedding != nullptr && !int8_embedding->empty()) {
        out.embedded.resize(int8_embedding->rows, static_cast<Eigen::Index>(source.tokens.size()));
        for (size_t k = 0; k < source.tokens.size(); ++k) int8_embedding->column(source.tokens[k], out.embedded.col(k).data());
        out.dropout_scale.resize(0, 0);
    } else {
        embed_tokens(params.source_embedding, source.tokens, dropout, random, out.embedded, out.dropout_scale);
    }
    gru_sequence_forward(params.encoder_forward, out.embedded, source, /*reverse=*/false, out.forward);
    gru_sequence_forward(params.encoder_backward, out.embedded, source, /*reverse=*/true, out.backward);
    out.states.resize(2 * H, S * B);
    out.states.topRows(H) = out.forward.states;
    out.states.bottomRows(H) = out.backward.states;
    // The forward state carries through padding, so its last column block
    // holds each sentence's state at its last real token.
    out.final_state.resize(2 * H, B);
    out.final_state.topRows(H) = time_block(out.forward.states, S - 1, B);
    out.final_state.bottomRows(H) = time_block(out.backward.states, 0, B);
}

void encoder_backward(const Parameters& params, const ModelConfig& config, const EncoderActivations& act,
                      const Matrix& d_states, const Matrix& d_final_state, Parameters& grad) {
    const TokenBatch& source = *act.source;
    const int S = source.length, B = source.batch, H = config.encoder_hidden_size;
    Matrix d_forward = d_states.topRows(H);
    Matrix d_backward = d_states.bottomRows(H);
    time_block(d_forward, S - 1, B) += d_final_state.topRows(H);
    time_block(d_backward, 0, B) += d_final_state.bottomRows(H);
    Matrix d_embedded = gru_sequence_backward(params.encoder_forward, act.embedded, source, false, act.forward,
                                              std::move(d_forward), grad.encoder_forward);
    d_embedded += gru_sequence_backward(params.encoder_backward, act.embedded, source, true, act.backward,
                                        std::move(d_backward), grad.encoder_backward);
    embed_tokens_backward(source.tokens, act.dropout_scale, std::move(d_embedded), grad.source_embedding);
}

}  // namespace s2s
