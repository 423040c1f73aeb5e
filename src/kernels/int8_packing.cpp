// Packing an int8 matrix's rows into the blocks the int8 products read
// (int8_packing.h).
#include "kernels/int8_packing.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

namespace s2s {
namespace {

constexpr int kBlockRows = kInt8BlockRows;
constexpr int kBlockBytes = kInt8BlockBytes;

}  // namespace

int int16_levels_for(int cols) {
    const int64_t widest = int64_t{32767};
    const int64_t fits = int64_t{2147483647} / (int64_t{127} * std::max(cols, 1));
    return static_cast<int>(std::min(widest, fits));
}

Int8Matrix pack_int8_rows(int rows, int cols, const int8_t* row_major, const float* scales) {
    Int8Matrix m;
    if (rows <= 0 || cols <= 0 || cols > kMaxInt8Columns) return m;
    m.rows = rows;
    m.cols = cols;
    m.x_levels = int16_levels_for(cols);
    const int blocks = (rows + kBlockRows - 1) / kBlockRows, pairs = (cols + 1) / 2;
    struct Buffers {
        std::vector<int8_t> packed;
        std::vector<float> scales;
    };
    auto own = std::make_shared<Buffers>();
    own->packed.assign(static_cast<size_t>(blocks) * pairs * kBlockBytes, 0);
    own->scales.assign(scales, scales + rows);
    for (int r = 0; r < rows; ++r) {
        int8_t* block = own->packed.data() + static_cast<size_t>(r / kBlockRows) * pairs * kBlockBytes;
        for (int j = 0; j < cols; ++j) {
            block[kBlockBytes * (j / 2) + 2 * (r % kBlockRows) + j % 2] = row_major[static_cast<size_t>(r) * cols + j];
        }
    }
    m.packed = own->packed.data();
    m.scales = own->scales.data();
    m.storage = std::move(own);
    return m;
}

namespace {

// Packing moves whole column pairs: a pair is two bytes that stay together,
// so a block is the 8 x pairs matrix of 16-bit pairs of its rows,
// transposed. kPairsAtOnce pairs of the 8 rows are an 8 x 8 matrix of
// 16-bit units, transposed in registers by three rounds of interleaves
// (the same bytes in the same places as one pair at a time, in a few
// instructions instead of a loop over bytes: a model load packs 1.8 MB of
// en-fr this way, in WebAssembly first run as baseline code).
// Its loops stay loops in the WebAssembly build (clang), not unrolled
// copies: the module's size counts for a page's download.
#if defined(__clang__)
#define S2S_ROLLED _Pragma("clang loop unroll(disable)")
#else
#define S2S_ROLLED
#endif
constexpr int kPairsAtOnce = 8;
typedef int16_t Pairs8 __attribute__((vector_size(16)));
typedef int32_t Quads4 __attribute__((vector_size(16)));
typedef int64_t Octets2 __attribute__((vector_size(16)));

// Pairs p0..p0+7 of the 8 rows at `rows` (each `cols` bytes) into the
// block's bytes 16 * p0 .. 16 * (p0 + 8).
[[gnu::noinline]] void pack_eight_pairs(const int8_t* rows, int cols, int p0, int8_t* block) {
    Pairs8 r[kBlockRows];
    S2S_ROLLED for (int i = 0; i < kBlockRows; ++i) std::memcpy(&r[i], rows + static_cast<size_t>(i) * cols + 2 * p0, sizeof r[i]);
    // Rows 2i and 2i + 1 interleaved pair by pair: pairs 0-3, then 4-7.
    Quads4 a[kBlockRows];
    S2S_ROLLED for (int i = 0; i < kBlockRows / 2; ++i) {
        a[2 * i] = (Quads4)__builtin_shufflevector(r[2 * i], r[2 * i + 1], 0, 8, 1, 9, 2, 10, 3, 11);
        a[2 * i + 1] = (Quads4)__builtin_shufflevector(r[2 * i], r[2 * i + 1], 4, 12, 5, 13, 6, 14, 7, 15);
    }
    // Rows 0-3 (and 4-7) together, two pairs per vector.
    Octets2 b[kBlockRows];
    S2S_ROLLED for (int h = 0; h < 2; ++h) {
        const Quads4* q = a + 4 * h;
        b[4 * h + 0] = (Octets2)__builtin_shufflevector(q[0], q[2], 0, 4, 1, 5);  // pairs 0, 1
        b[4 * h + 1] = (Octets2)__builtin_shufflevector(q[0], q[2], 2, 6, 3, 7);  // pairs 2, 3
        b[4 * h + 2] = (Octets2)__builtin_shufflevector(q[1], q[3], 0, 4, 1, 5);  // pairs 4, 5
        b[4 * h + 3] = (Octets2)__builtin_shufflevector(q[1], q[3], 2, 6, 3, 7);  // pairs 6, 7
    }
    // All 8 rows of one pair per vector.
    S2S_ROLLED for (int k = 0; k < 4; ++k) {
        const Octets2 even = __builtin_shufflevector(b[k], b[4 + k], 0, 2);
        const Octets2 odd = __builtin_shufflevector(b[k], b[4 + k], 1, 3);
        std::memcpy(block + kBlockBytes * (p0 + 2 * k), &even, sizeof even);
        std::memcpy(block + kBlockBytes * (p0 + 2 * k + 1), &odd, sizeof odd);
    }
}

}  // namespace

Int8Matrix pack_int8_rows_in_place(int rows, int cols, int8_t* row_major, const float* scales,
                                   std::shared_ptr<const void> storage) {
    Int8Matrix m;
    if (rows <= 0 || cols <= 0 || cols > kMaxInt8Columns || rows % kBlockRows != 0 || cols % 2 != 0) return m;
    const size_t block_size = static_cast<size_t>(kBlockRows) * static_cast<size_t>(cols);
    std::vector<int8_t> rows_of_block(block_size);  // one block's rows, as they were
    const int pairs = cols / 2;
    for (int b = 0; b < rows / kBlockRows; ++b) {
        int8_t* block = row_major + block_size * static_cast<size_t>(b);
        std::memcpy(rows_of_block.data(), block, block_size);
        int p = 0;
        for (; p + kPairsAtOnce <= pairs; p += kPairsAtOnce) pack_eight_pairs(rows_of_block.data(), cols, p, block);
        for (int r = 0; r < kBlockRows; ++r) {
            const int8_t* row = rows_of_block.data() + static_cast<size_t>(r) * cols;
            for (int q = p; q < pairs; ++q) {
                block[kBlockBytes * q + 2 * r] = row[2 * q];
                block[kBlockBytes * q + 2 * r + 1] = row[2 * q + 1];
            }
        }
    }
    m.rows = rows;
    m.cols = cols;
    m.x_levels = int16_levels_for(cols);
    m.packed = row_major;
    m.scales = scales;
    m.storage = std::move(storage);
    return m;
}

}  // namespace s2s
