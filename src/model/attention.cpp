// Attention (attention.h): the key projection, training's step forward and
// backward over a padded batch, and decoding's step for K hypotheses.
#include "model/attention.h"

#include "kernels/kernels.h"

#include <cmath>
#include <limits>

namespace s2s {
namespace {

bool projects_keys(AttentionKind kind) { return kind == AttentionKind::kAdditive || kind == AttentionKind::kGeneral; }

float dot_scale(const ModelConfig& config) {
    // Scaled dot product keeps the scores' variance independent of C
    // (Vaswani et al., 2017, section 3.2.1).
    return config.attention == AttentionKind::kScaledDot ? 1.0f / std::sqrt(static_cast<float>(config.context_size())) : 1.0f;
}

}  // namespace

void attention_keys_forward(const Parameters& params, const ModelConfig& config, const Matrix& states, Matrix& keys) {
    if (projects_keys(config.attention)) {
        affine_columns(params.attention_key, states, nullptr, keys);
    } else {
        keys = states;
    }
}

void attention_keys_backward(const Parameters& params, const ModelConfig& config, const Matrix& states,
                             const Matrix& d_keys, Matrix& d_states, Parameters& grad) {
    if (projects_keys(config.attention)) {
        grad.attention_key.noalias() += d_keys * states.transpose();
        d_states.noalias() += params.attention_key.transpose() * d_keys;
    } else {
        d_states += d_keys;
    }
}

void attention_step_forward(const Parameters& params, const ModelConfig& config, const AttentionStepInputs& in,
                            const ConstMatrixRef& query, MatrixRef weights, MatrixRef context, Matrix* hidden) {
    const int S = in.source_length, B = in.batch;
    const Matrix& keys = *in.keys;

    // Scores e (S, B), written into `weights` and turned into weights below.
    if (config.attention == AttentionKind::kAdditive) {
        const Matrix projected_query = params.attention_query * query;  // (A, B)
        for (int i = 0; i < S; ++i) {
            auto h = hidden->middleCols(i * B, B);                     // (A, B)
            h.array() = (time_block(keys, i, B) + projected_query).array().tanh();
            weights.row(i).noalias() = params.attention_vector.transpose() * h;
        }
    } else {
        const float scale = dot_scale(config);
        for (int i = 0; i < S; ++i) {
            weights.row(i) = (time_block(keys, i, B).array() * query.array()).colwise().sum() * scale;
        }
    }

    // Masked softmax over the source positions of each column.
    for (int b = 0; b < B; ++b) {
        float max_score = -std::numeric_limits<float>::infinity();
        for (int i = 0; i < S; ++i) {
            if (in.source_mask[i * B + b] != 0.0f) max_score = std::max(max_score, weights(i, b));
        }
        float total = 0.0f;
        for (int i = 0; i < S; ++i) {
            float w = in.source_mask[i * B + b] != 0.0f ? std::exp(weights(i, b) - max_score) : 0.0f;
            weights(i, b) = w;
            total += w;
        }
        // Every sentence has at least <eos>, so total > 0; guard anyway.
        if (total > 0.0f) weights.col(b) /= total;
    }

    // c_t = sum_i a_ti H_i
    context.setZero();
    for (int i = 0; i < S; ++i) {
        context.array() += time_block(*in.states, i, B).array().rowwise() * weights.row(i).array();
    }
}

void attention_step_backward(const Parameters& params, const ModelConfig& config, const AttentionStepInputs& in,
                             const ConstMatrixRef& query, const ConstMatrixRef& weights, const Matrix* hidden,
                             const ConstMatrixRef& d_context, MatrixRef d_query, Matrix& d_keys, Matrix& d_states,
                             Parameters& grad) {
    const int S = in.source_length, B = in.batch;

    // Through the weighted sum: d a_ti = H_i . dc, dH_i += a_ti dc.
    Matrix d_weights(S, B);
    for (int i = 0; i < S; ++i) {
        d_weights.row(i) = (time_block(*in.states, i, B).array() * d_context.array()).colwise().sum();
        time_block(d_states, i, B).array() += d_context.array().rowwise() * weights.row(i).array();
    }
    // Through the softmax: de_i = a_i (da_i - sum_j a_j da_j). Masked
    // positions have a = 0 and so get no gradient.
    const RowVector expected = (weights.array() * d_weights.array()).colwise().sum();
    Matrix d_scores = (weights.array() * (d_weights.array().rowwise() - expected.array())).matrix();  // (S, B)

    if (config.attention == AttentionKind::kAdditive) {
        const int A = config.attention_size;
        Matrix d_projected_query = Matrix::Zero(A, B);
        for (int i = 0; i < S; ++i) {
            const auto h = hidden->middleCols(i * B, B);  // (A, B)
            grad.attention_vector.noalias() += h * d_scores.row(i).transpose();
            Matrix d_pre = (params.attention_vector * d_scores.row(i)).array() * (1.0f - h.array().square());
            time_block(d_keys, i, B) += d_pre;
            d_projected_query += d_pre;
        }
        grad.attention_query.noalias() += d_projected_query * query.transpose();
        d_query.noalias() += params.attention_query.transpose() * d_projected_query;
    } else {
        const float scale = dot_scale(config);
        for (int i = 0; i < S; ++i) {
            const auto keys_i = time_block(*in.keys, i, B);
            d_query.array() += keys_i.array().rowwise() * (d_scores.row(i).array() * scale);
            time_block(d_keys, i, B).array() += query.array().rowwise() * (d_scores.row(i).array() * scale);
        }
    }
}

void attention_step_inference(const Parameters& params, const ModelConfig& config, const Matrix& states,
                              const Matrix& keys, const Matrix& queries, const Int8Matrix* query_weights_int8,
                              Matrix& projected_query, Matrix& weights, Matrix& contexts, float temperature,
                              Matrix* scores_out) {
    const Eigen::Index S = keys.cols(), K = queries.cols();
    // Scores e (S, K), turned into weights in place.
    weights.resize(S, K);
    if (config.attention == AttentionKind::kAdditive) {
        affine_columns_int8_or_float(query_weights_int8, params.attention_query, queries, nullptr,
                                     projected_query);  // (A, K)
        additive_scores(keys, projected_query, params.attention_vector, weights);
    } else {
        // dot, scaled dot (the keys are H) and general (the keys are W_k H).
        weights.noalias() = keys.transpose() * queries;
        if (config.attention == AttentionKind::kScaledDot) weights *= dot_scale(config);
    }
    if (scores_out != nullptr) *scores_out = weights;
    if (temperature != 1.0f) weights /= temperature;
    // Softmax over the source positions (all real: one sentence, no padding).
    softmax_columns(weights);
    affine_columns(states, weights, nullptr, contexts);  // c_t = sum_i a_ti H_i
}

}  // namespace s2s
