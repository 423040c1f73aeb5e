// Inference kernels for the encoder and the decoder's hot loop.
//
// Natively Eigen is vectorized (AVX, SSE, NEON) and these calls are Eigen's
// own expressions, the ones the training forward pass used before them (the
// encoder, the GRU step and the attention keys are shared with training, so
// its results stay bit for bit the same). In WebAssembly Eigen has no vector
// backend: its scalar product loops auto-vectorize poorly and its exp and
// tanh run one value at a time. There the kernels below take over, written
// once with GCC/clang vector extensions (8-lane float vectors, lowered to
// pairs of SIMD128 operations), several times faster than Eigen there
// (bench/history.md). Both paths are compiled natively too, so the doctest
// suite checks the WASM path against Eigen.
#pragma once

#include "kernels/tensor.h"

namespace s2s {

// Each column of `logits` (V, K) becomes log softmax: x - log(sum(exp(x))).
void log_softmax_columns(Matrix& logits);

// Each column of `scores` (S, K) becomes softmax: exp(x - max) / sum.
void softmax_columns(Matrix& scores);

// y (rows, K) = A x (+ bias): A (rows, cols), x (cols, K), bias (rows, 1) or
// null. y is resized (no allocation when its size is unchanged).
void affine_columns(const Matrix& a, const ConstMatrixRef& x, const Matrix* bias, Matrix& y);

// m = tanh(m), coefficient-wise.
void tanh_in_place(Matrix& m);

// The GRU cell after its two products (gru.h), for K columns: from
// x = W_x x + b_x and p = W_h h + b_h (3H, K) and the state h (H, K),
// r = sigmoid(x_r + p_r), z = sigmoid(x_z + p_z), n = tanh(x_n + r * p_n),
// h' = n + z * (h - n). Writes h' to state_out (H, K) and, when `gates` is
// not null, [r; z; n] to it (3H, K).
void gru_cell_columns(const ConstMatrixRef& input_projection, const Matrix& state_projection,
                      const ConstMatrixRef& state_in, MatrixRef state_out, MatrixRef* gates);

// Additive attention scores (Bahdanau et al., 2015): scores(i, k) =
// v . tanh(keys_i + query_k) for keys (A, S), query (A, K), v (A, 1).
// scores is resized to (S, K).
void additive_scores(const Matrix& keys, const Matrix& query, const Matrix& v, Matrix& scores);

// The portable kernels behind these calls (used when Eigen does not
// vectorize; public for the tests). exp is a Cephes-style polynomial (about
// 1 ulp); tanh is the rational approximation Eigen itself uses for floats
// (generic_fast_tanh_float), so both paths compute the same function. The
// matrix kernel works on blocks of 32 rows held in registers and reads A
// once per call whatever K is (Eigen's matrix product would repack A on
// every call).
void log_softmax_columns_portable(Matrix& logits);
void softmax_columns_portable(Matrix& scores);
void affine_columns_portable(const Matrix& a, const ConstMatrixRef& x, const Matrix* bias, Matrix& y);
void tanh_in_place_portable(Matrix& m);
void gru_cell_columns_portable(const ConstMatrixRef& input_projection, const Matrix& state_projection,
                               const ConstMatrixRef& state_in, MatrixRef state_out, MatrixRef* gates);
void additive_scores_portable(const Matrix& keys, const Matrix& query, const Matrix& v, Matrix& scores);

}  // namespace s2s
