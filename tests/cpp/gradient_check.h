// Finite differences for the per-component gradient checks (test_gru.cpp,
// test_attention.cpp, test_output_layer.cpp): a component's analytic
// gradient against central differences of a scalar loss, along the gradient
// itself (the most sensitive direction) and along random directions.
#pragma once

#include "model/parameters.h"
#include "kernels/tensor.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace s2s::testing {

// sum(weights * m) in double: a loss whose gradient with respect to m is
// `weights`, so any analytic backward pass can be fed it as its upstream
// gradient.
inline double weighted_sum(const Matrix& weights, const Matrix& m) {
    return (weights.cast<double>().array() * m.cast<double>().array()).sum();
}

// The unit direction of trial `trial`: along the gradient itself first (the
// most sensitive direction), then random ones.
inline Matrix probe_direction(int trial, const Matrix& analytic, Random& random) {
    Matrix direction(analytic.rows(), analytic.cols());
    if (trial == 0 && analytic.norm() > 0) {
        direction = analytic / analytic.norm();
    } else {
        for (Eigen::Index i = 0; i < direction.size(); ++i) direction.data()[i] = random.uniform(-1.0f, 1.0f);
        direction /= direction.norm();
    }
    return direction;
}

// Checks analytic . d against (loss(x + h d) - loss(x - h d)) / 2h for
// `directions` unit directions d, where x is `tensor`, varied in place and
// restored. `loss` recomputes the component's forward pass from the current
// values. Float forward passes need a step that is not tiny; the functions
// are smooth, and the O(h^2) error stays far below the tolerance.
template <typename Loss>
void check_gradient(const std::string& what, Matrix& tensor, const Matrix& analytic, Loss&& loss, Random& random,
                    int directions = 4) {
    REQUIRE(analytic.rows() == tensor.rows());
    REQUIRE(analytic.cols() == tensor.cols());
    const float h = 1e-2f;
    for (int trial = 0; trial < directions; ++trial) {
        const Matrix direction = probe_direction(trial, analytic, random);
        const double expected = (analytic.cast<double>().array() * direction.cast<double>().array()).sum();
        const Matrix saved = tensor;
        tensor = saved + h * direction;
        const double plus = loss();
        tensor = saved - h * direction;
        const double minus = loss();
        tensor = saved;
        const double numeric = (plus - minus) / (2.0 * h);
        INFO(what, " trial ", trial, " analytic ", expected, " numeric ", numeric);
        CHECK(std::abs(expected - numeric) <= 1e-3 + 5e-3 * std::max(std::abs(expected), std::abs(numeric)));
    }
}

// A (rows, cols) matrix of values uniform in [-scale, scale].
inline Matrix random_matrix(Random& random, Eigen::Index rows, Eigen::Index cols, float scale = 1.0f) {
    Matrix m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = random.uniform(-scale, scale);
    return m;
}

}  // namespace s2s::testing
