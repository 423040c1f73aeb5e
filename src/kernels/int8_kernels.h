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

#include "model/tensor.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace s2s {

// An int8 matrix laid out for affine_columns_int8: blocks of 8 rows; within
// a block, for each pair of columns (2p, 2p + 1), 16 bytes
// w(r0, 2p), w(r0, 2p + 1), w(r1, 2p), ..., w(r7, 2p + 1). The rows are
// padded with zeros to a multiple of 8, the columns to an even count.
// `packed` and `scales` point into `storage`: the matrix's own buffer
// (pack_int8_rows), or the model file's bytes themselves, packed where they
// lie (pack_int8_rows_in_place). Copies share the one read-only buffer.
struct Int8Matrix {
    int rows = 0;
    int cols = 0;
    const int8_t* packed = nullptr;  // blocks * pairs * 16 bytes
    const float* scales = nullptr;   // (rows): w = value * scale
    int x_levels = 0;                // L above: the inputs are quantized to -L..L
    std::shared_ptr<const void> storage;
    bool empty() const { return rows == 0; }
};

// The widest matrix packed: its inputs still get 4,129 levels (about 12
// bits), since 127 * 4129 * 4096 < 2^31.
constexpr int kMaxInt8Columns = 4096;

// The input levels L for a matrix of `cols` columns (see above).
int int16_levels_for(int cols);

// From row-major values (rows x cols, -127..127) and their row scales, into
// a buffer of its own. Returns an empty matrix when cols > kMaxInt8Columns
// (the float path then runs).
Int8Matrix pack_int8_rows(int rows, int cols, const int8_t* row_major, const float* scales);

// The same layout made where the values lie: `row_major` (rows x cols) is
// rearranged in place, a block of 8 rows at a time (the packed block takes
// exactly the bytes of its 8 rows), and the matrix points at it and at
// `scales`, both kept alive by `storage`. A model loaded for translation
// packs its file's bytes this way (model.h): no second copy of the
// weights, and no fresh memory to touch for one. Returns an empty matrix,
// touching nothing, when the layout needs padding (rows not a multiple of
// 8, or an odd column count) or cols > kMaxInt8Columns: pack_int8_rows
// then makes a copy.
Int8Matrix pack_int8_rows_in_place(int rows, int cols, int8_t* row_major, const float* scales,
                                   std::shared_ptr<const void> storage);

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
