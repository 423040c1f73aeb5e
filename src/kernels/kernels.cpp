// The inference kernels of kernels.h as callers use them: Eigen's own
// expressions where Eigen vectorizes (native builds), the portable
// vector-extension kernels (kernels_portable.cpp) where it does not
// (WebAssembly).
#include "kernels/kernels.h"

#include <cmath>

namespace s2s {

#ifdef EIGEN_VECTORIZE

void log_softmax_columns(Matrix& logits) {
    for (Eigen::Index k = 0; k < logits.cols(); ++k) {
        auto column = logits.col(k);
        const float max_logit = column.maxCoeff();
        const float log_total = std::log((column.array() - max_logit).exp().sum()) + max_logit;
        column.array() -= log_total;
    }
}

void softmax_columns(Matrix& scores) {
    for (Eigen::Index k = 0; k < scores.cols(); ++k) {
        auto column = scores.col(k);
        const float max_score = column.maxCoeff();
        float total = 0.0f;
        for (Eigen::Index i = 0; i < column.size(); ++i) {
            const float w = std::exp(column(i) - max_score);
            column(i) = w;
            total += w;
        }
        column /= total;  // total >= 1: the largest score contributes exp(0)
    }
}

void affine_columns(const Matrix& a, const ConstMatrixRef& x, const Matrix* bias, Matrix& y) {
    y.noalias() = a * x;
    if (bias != nullptr) y.colwise() += bias->col(0);
}

void tanh_in_place(Matrix& m) { m = m.array().tanh().matrix(); }

void gru_cell_columns(const ConstMatrixRef& input_projection, const Matrix& state_projection,
                      const ConstMatrixRef& state_in, MatrixRef state_out, MatrixRef* gates) {
    const Eigen::Index hidden = state_in.rows();
    const auto x = input_projection.array();
    const auto h = state_projection.array();
    const auto reset = (1.0f + (-(x.topRows(hidden) + h.topRows(hidden))).exp()).inverse();
    const auto update = (1.0f + (-(x.middleRows(hidden, hidden) + h.middleRows(hidden, hidden))).exp()).inverse();
    if (gates != nullptr) {
        auto g = gates->array();
        g.topRows(hidden) = reset;
        g.middleRows(hidden, hidden) = update;
        g.bottomRows(hidden) = (x.bottomRows(hidden) + g.topRows(hidden) * h.bottomRows(hidden)).tanh();
        state_out.array() = g.bottomRows(hidden) + g.middleRows(hidden, hidden) * (state_in.array() - g.bottomRows(hidden));
    } else {
        // The candidate lands in state_out first.
        state_out.array() = (x.bottomRows(hidden) + reset * h.bottomRows(hidden)).tanh();
        state_out.array() += update * (state_in.array() - state_out.array());
    }
}

void additive_scores(const Matrix& keys, const Matrix& query, const Matrix& v, Matrix& scores) {
    scores.resize(keys.cols(), query.cols());
    for (Eigen::Index k = 0; k < query.cols(); ++k) {
        for (Eigen::Index i = 0; i < keys.cols(); ++i) {
            scores(i, k) = v.col(0).dot((keys.col(i) + query.col(k)).array().tanh().matrix());
        }
    }
}

#else

void log_softmax_columns(Matrix& logits) { log_softmax_columns_portable(logits); }

void softmax_columns(Matrix& scores) { softmax_columns_portable(scores); }

void affine_columns(const Matrix& a, const ConstMatrixRef& x, const Matrix* bias, Matrix& y) {
    affine_columns_portable(a, x, bias, y);
}

void tanh_in_place(Matrix& m) { tanh_in_place_portable(m); }

void gru_cell_columns(const ConstMatrixRef& input_projection, const Matrix& state_projection,
                      const ConstMatrixRef& state_in, MatrixRef state_out, MatrixRef* gates) {
    gru_cell_columns_portable(input_projection, state_projection, state_in, state_out, gates);
}

void additive_scores(const Matrix& keys, const Matrix& query, const Matrix& v, Matrix& scores) {
    additive_scores_portable(keys, query, v, scores);
}

#endif

}  // namespace s2s
