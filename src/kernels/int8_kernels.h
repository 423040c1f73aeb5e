// The decoder step's matrix products in integer arithmetic, for models whose
// file stores the weights as int8 (one float scale per row, values
// -127..127: model_file.h): the attention query, the GRU's two products, the
// deep output and the output layer (Int8StepWeights, int8_step_weights.h).
//
// Per decoder step each column x of a product's input is quantized to int16
// with one scale s_x = max|x| / L (q = round half to even of x / s_x; a
// column of zeros stays zeros), where L = 32767 unless the matrix has so
// many columns that 127 * L * columns could overflow an int32 sum (L is then
// the largest level that cannot: 29,356 for the 576 columns of en-fr's deep
// output). The products sum_j w[r, j] q[j] are exact
// int32 sums, and y[r] = float(sum) * (s_w[r] * s_x) + b[r], each operation
// rounded once (this file is compiled without FMA contraction). Integer sums
// do not depend on their order, so the WebAssembly kernel (SIMD128's
// i32x4.dot_i16x8_s), the native one (pmaddwd of AVX2 or SSE4.1, or plain C++) and
// the scalar reference of the tests give the same bits.
//
// The weights are read 4x less than as float32 (1.3 MB instead of 5 MB for
// en-fr's 10,000 x 128 output layer, 0.55 MB instead of 2.2 MB for the
// rest of its step) and eight rows of a pair of columns are one
// 16-byte load, widened once and used for every hypothesis of the beam.
#pragma once

#include "kernels/int8_packing.h"  // Int8Matrix: the packed layout the products read
#include "kernels/tensor.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace s2s {

// Which code computes the integer sums and the quantization: kBest, the
// widest SIMD the build has (SIMD128 in WebAssembly, AVX2 or SSE4.1
// natively; plain C++ without any), or kScalar, the plain C++ loops, forced.
// Both give the same bits (the sums are exact); the tests run both natively,
// so that the loops a build without SIMD runs are checked too.
enum class KernelPath { kBest, kScalar };

// y (rows, K) = A x + bias as described above; bias (rows, 1) or null. y is
// resized (no allocation when its size is unchanged).
void affine_columns_int8(const Int8Matrix& a, const ConstMatrixRef& x, const Matrix* bias, Matrix& y,
                         KernelPath path = KernelPath::kBest);

// Rows 8b .. 8b + 7 of A x + bias for the blocks b of `blocks` only (block
// b = rows 8b..8b+7 of A, the packing's unit), one after the other: y
// (rows, K), rows = 8 per block (fewer for A's last block when its row
// count is not a multiple of 8). `blocks` must increase, each within
// 0 .. ceil(rows(A) / 8) - 1 (std::invalid_argument otherwise). Each value
// has exactly the bits affine_columns_int8 gives for its row, on either
// path (the same integer sums and float steps): the lexical shortlist's
// output layer (src/model/target_shortlist.h, src/decode/shortlist.h).
void affine_columns_int8_blocks(const Int8Matrix& a, const ConstMatrixRef& x, const Matrix* bias,
                                const std::vector<int>& blocks, Matrix& y, KernelPath path = KernelPath::kBest);

// y = A x + bias through a_int8 (A as int8) when it is not null or empty,
// else through the float A (affine_columns, kernels.h): the decoder step's
// products, for int8 and float models alike.
void affine_columns_int8_or_float(const Int8Matrix* a_int8, const Matrix& a, const ConstMatrixRef& x, const Matrix* bias,
                                  Matrix& y);

// The int16 quantization of one column of x (n values) to -levels..levels
// into q: returns s_x.
float quantize_int16(const float* x, int n, int levels, int16_t* q, KernelPath path = KernelPath::kBest);

}  // namespace s2s
