// The int8 matrices of the decoder step (int8_kernels.h) laid out for its
// products: the packing, from the row-major values an int8 model file
// stores (model_file.h), into a buffer of their own or in place in the
// file's bytes. Packing only moves bytes; the arithmetic, and its numeric
// contract, is int8_kernels.h's.
#pragma once

#include <cstdint>
#include <memory>

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
    int x_levels = 0;                // L (int8_kernels.h): the inputs are quantized to -L..L
    std::shared_ptr<const void> storage;
    bool empty() const { return rows == 0; }
};

// The widest matrix packed: its inputs still get 4,129 levels (about 12
// bits), since 127 * 4129 * 4096 < 2^31.
constexpr int kMaxInt8Columns = 4096;

// The packing's unit: a block of 8 rows, 16 bytes per pair of columns.
constexpr int kInt8BlockRows = 8;
constexpr int kInt8BlockBytes = 2 * kInt8BlockRows;

// The input levels L for a matrix of `cols` columns (int8_kernels.h: the
// largest L with 127 * L * cols < 2^31, at most 32767).
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

}  // namespace s2s
