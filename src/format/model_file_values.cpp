// The tensor values of a model file (model_file.h): float32, float16 and
// int8 (symmetric per-row quantization) written from floats and read back
// into floats, row-major or column-major. Reading also checks each value
// the format does not allow (NaN, infinity, int8 -128, a bad int8 scale),
// in the same pass.
#include "format/model_file_internal.h"

#include "common/error.h"
#include "common/hash.h"  // kHashChunk
#include "format/float16.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace s2s {
namespace model_file_detail {
namespace {

// Symmetric per-row quantization to L levels each side (L = 127 for 8
// bits): scale = max |x| / L, q = round(x / scale). A row of zeros has
// scale 0.
float int8_row_scale(const float* row, size_t cols, int levels) {
    float largest = 0.0f;
    for (size_t c = 0; c < cols; ++c) largest = std::max(largest, std::abs(row[c]));
    return std::min(static_cast<float>(static_cast<double>(largest) / levels), kMaxInt8Scale);
}
int8_t quantize_int8(float value, float scale, int levels) {
    if (scale == 0.0f) return 0;
    const double q = std::round(static_cast<double>(value) / static_cast<double>(scale));
    return static_cast<int8_t>(std::clamp(q, -static_cast<double>(levels), static_cast<double>(levels)));
}

}  // namespace

void encode_tensor_values(const TensorToWrite& tensor, uint8_t* out) {
    Writer writer(out);
    const size_t count = static_cast<size_t>(tensor.rows) * static_cast<size_t>(tensor.cols);
    if (tensor.dtype == TensorDtype::kInt8) {
        const auto cols = static_cast<size_t>(tensor.cols);
        std::vector<float> scales(static_cast<size_t>(tensor.rows));
        for (size_t row = 0; row < scales.size(); ++row) {
            scales[row] = int8_row_scale(tensor.data + row * cols, cols, tensor.int8_levels);
            writer.u32(float_bits(scales[row]));
        }
        for (size_t i = 0; i < count; ++i) {
            const int8_t q = quantize_int8(tensor.data[i], scales[i / cols], tensor.int8_levels);
            const auto byte = static_cast<uint8_t>(q);
            writer.bytes(&byte, 1);
        }
        return;
    }
    for (size_t i = 0; i < count; ++i) {
        if (tensor.dtype == TensorDtype::kFloat16) {
            writer.u16(float_to_half(tensor.data[i]));
        } else {
            writer.u32(float_bits(tensor.data[i]));
        }
    }
}

}  // namespace model_file_detail

using namespace model_file_detail;

namespace {

// The value decoders work a row at a time in small functions that are not
// inlined: in WASM a browser first runs code from a quick baseline compiler
// and swaps in optimized code only between calls, so one call per row lets
// the optimized code take over after the first rows of a large tensor.
// The float decoders return the column of the first value they refuse, or `cols`.
[[gnu::noinline]] size_t decode_row_f32(const uint8_t* source, size_t cols, float* out, size_t stride) {
    for (size_t col = 0; col < cols; ++col) {
        const uint32_t bits = load_u32(source + 4 * col);
        if ((bits & 0x7F800000) == 0x7F800000) return col;
        out[col * stride] = bits_float(bits);
    }
    return cols;
}
[[gnu::noinline]] size_t decode_row_f16(const uint8_t* source, size_t cols, float* out, size_t stride) {
    for (size_t col = 0; col < cols; ++col) {
        const uint16_t half = load_u16(source + 2 * col);
        if ((half & 0x7C00) == 0x7C00) return col;
        out[col * stride] = half_to_float(half);
    }
    return cols;
}
[[gnu::noinline]] void decode_row_i8(const int8_t* source, float scale, size_t cols, float* out) {
    for (size_t col = 0; col < cols; ++col) out[col] = static_cast<float>(source[col]) * scale;
}
// int8 into a column-major matrix, `tile_rows` file rows at a time: a file
// row is strided in the matrix, so decoding row by row sent every value to
// another cache line (the largest cost of loading a model in a cold page).
// Tile by tile, each column's values land together. The values were checked
// beforehand (no -128).
// A full tile of 16 rows takes 16 columns at a time: the 16 x 16 bytes are
// transposed in registers (four rounds of interleaves: bytes, then 2, 4 and
// 8 bytes), so that each column's 16 values are one vector, widened to
// floats and multiplied by the 16 rows' scales, four at a time. The same
// products as one value at a time (an int8 converts to float exactly; one
// multiplication each), in a few instructions per value instead of a loop
// step each: the encoder's and the attention's matrices of a first model
// load, in WebAssembly run as baseline code.
typedef int8_t Bytes16 __attribute__((vector_size(16)));
typedef int16_t Shorts8 __attribute__((vector_size(16)));
typedef int32_t Ints4 __attribute__((vector_size(16)));
typedef int64_t Longs2 __attribute__((vector_size(16)));
typedef float Floats4 __attribute__((vector_size(16)));
constexpr size_t kTileSide = 16;

// Columns col0 .. col0 + 15 of 16 rows at `source` (row stride `cols`) into
// the column-major `out` (column stride `rows`), each value times its row's
// scale (`scales`: the 16 rows' scales as four vectors).
void decode_block16_i8(const int8_t* source, size_t cols, size_t col0, const Floats4* scales, float* out, size_t rows) {
    Bytes16 r[kTileSide];
    for (size_t i = 0; i < kTileSide; ++i) std::memcpy(&r[i], source + i * cols + col0, sizeof r[i]);
    // a[i], i < 8: 2-byte unit k = column k of rows 2i, 2i + 1; a[8 + i]: column 8 + k.
    Shorts8 a[kTileSide];
    for (size_t i = 0; i < 8; ++i) {
        a[i] = (Shorts8)__builtin_shufflevector(r[2 * i], r[2 * i + 1], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
        a[8 + i] = (Shorts8)__builtin_shufflevector(r[2 * i], r[2 * i + 1], 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29,
                                                    14, 30, 15, 31);
    }
    // b[8h + 4g + j]: 4-byte unit k = column 8h + 4g + k of rows 4j .. 4j + 3.
    Ints4 b[kTileSide];
    for (size_t h = 0; h < 2; ++h) {
        for (size_t j = 0; j < 4; ++j) {
            const Shorts8 x = a[8 * h + 2 * j], y = a[8 * h + 2 * j + 1];
            b[8 * h + j] = (Ints4)__builtin_shufflevector(x, y, 0, 8, 1, 9, 2, 10, 3, 11);
            b[8 * h + 4 + j] = (Ints4)__builtin_shufflevector(x, y, 4, 12, 5, 13, 6, 14, 7, 15);
        }
    }
    // c[8h + 4g + 2m + o]: 8-byte unit k = column 8h + 4g + 2m + k of rows 8o .. 8o + 7.
    Longs2 c[kTileSide];
    for (size_t hg = 0; hg < 4; ++hg) {
        for (size_t o = 0; o < 2; ++o) {
            const Ints4 x = b[4 * hg + 2 * o], y = b[4 * hg + 2 * o + 1];
            c[4 * hg + o] = (Longs2)__builtin_shufflevector(x, y, 0, 4, 1, 5);
            c[4 * hg + 2 + o] = (Longs2)__builtin_shufflevector(x, y, 2, 6, 3, 7);
        }
    }
    for (size_t pair = 0; pair < 8; ++pair) {  // columns 2 * pair and 2 * pair + 1
        const Longs2 x = c[2 * pair], y = c[2 * pair + 1];
        const Longs2 columns[2] = {__builtin_shufflevector(x, y, 0, 2), __builtin_shufflevector(x, y, 1, 3)};
        for (size_t k = 0; k < 2; ++k) {
            const Bytes16 v = (Bytes16)columns[k];
            const Shorts8 low = __builtin_convertvector(__builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7), Shorts8);
            const Shorts8 high = __builtin_convertvector(__builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15), Shorts8);
            const Floats4 values[4] = {
                __builtin_convertvector(__builtin_convertvector(__builtin_shufflevector(low, low, 0, 1, 2, 3), Ints4), Floats4),
                __builtin_convertvector(__builtin_convertvector(__builtin_shufflevector(low, low, 4, 5, 6, 7), Ints4), Floats4),
                __builtin_convertvector(__builtin_convertvector(__builtin_shufflevector(high, high, 0, 1, 2, 3), Ints4), Floats4),
                __builtin_convertvector(__builtin_convertvector(__builtin_shufflevector(high, high, 4, 5, 6, 7), Ints4), Floats4)};
            float* column = out + (col0 + 2 * pair + k) * rows;
            for (size_t q = 0; q < 4; ++q) {
                const Floats4 product = values[q] * scales[q];
                std::memcpy(column + 4 * q, &product, sizeof product);
            }
        }
    }
}

[[gnu::noinline]] void decode_tile_i8(const int8_t* source, const float* scales, size_t tile_rows, size_t cols,
                                      float* out, size_t rows) {
    size_t col = 0;
    if (tile_rows == kTileSide) {
        Floats4 scale4[4];
        std::memcpy(scale4, scales, sizeof scale4);
        for (; col + kTileSide <= cols; col += kTileSide) decode_block16_i8(source, cols, col, scale4, out, rows);
    }
    for (; col < cols; ++col) {
        float* column = out + col * rows;
        for (size_t r = 0; r < tile_rows; ++r) column[r] = static_cast<float>(source[r * cols + col]) * scales[r];
    }
}

// The index of the first int8 -128 (byte 0x80) among `count` values, or
// `count`. In WASM, 16 bytes a step with SIMD (a library memchr is a byte
// loop there), over one chunk per call (see kHashChunk in common/hash.h:
// optimized code takes over between calls).
[[gnu::noinline]] size_t find_int8_min_chunk(const int8_t* values, size_t count) {
    size_t at = 0;
#if defined(__wasm_simd128__)
    const v128_t min = wasm_i8x16_splat(-128);
    for (; count - at >= 16; at += 16) {
        if (wasm_v128_any_true(wasm_i8x16_eq(wasm_v128_load(values + at), min))) break;
    }
#endif
    const void* found = std::memchr(values + at, 0x80, count - at);
    return found == nullptr ? count : static_cast<size_t>(static_cast<const int8_t*>(found) - values);
}
size_t find_int8_min(const int8_t* values, size_t count) {
    for (size_t at = 0; at < count; at += hash_detail::kHashChunk) {
        const size_t chunk = std::min(count - at, hash_detail::kHashChunk);
        const size_t found = find_int8_min_chunk(values + at, chunk);
        if (found < chunk) return at + found;
    }
    return count;
}

}  // namespace

const int8_t* int8_tensor_values(const uint8_t* bytes, const TensorLayout& entry, float* scales) {
    const uint8_t* source = bytes + entry.offset;
    if (scales != nullptr) {
        for (size_t row = 0; row < entry.rows; ++row) scales[row] = bits_float(load_u32(source + 4 * row));
    }
    return reinterpret_cast<const int8_t*>(source + 4 * static_cast<size_t>(entry.rows));
}

const float* file_int8_scales(const uint8_t* bytes, const TensorLayout& entry) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint8_t* source = bytes + entry.offset;
    if (reinterpret_cast<uintptr_t>(source) % alignof(float) != 0) return nullptr;
    return reinterpret_cast<const float*>(source);
#else
    (void)bytes;
    (void)entry;
    return nullptr;
#endif
}

void check_int8_tensor(const uint8_t* bytes, const TensorLayout& entry) {
    const std::string tensor = "model file tensor " + in_quotes(entry.name);
    const size_t rows = entry.rows, cols = entry.cols;
    std::vector<float> scales(rows);
    const auto* values = int8_tensor_values(bytes, entry, scales.data());  // the row scales come first
    for (size_t row = 0; row < rows; ++row) {
        if (!(scales[row] >= 0.0f && scales[row] <= kMaxInt8Scale)) {  // also refuses NaN
            throw ModelFileError(tensor + " has int8 scale " + std::to_string(scales[row]) + " for row " +
                                 std::to_string(row) + "; scales are finite, at least 0 and at most " +
                                 std::to_string(kMaxInt8Scale) + "; " + kDamaged);
        }
    }
    if (const size_t at = find_int8_min(values, rows * cols); at < rows * cols) {
        throw ModelFileError(tensor + " holds int8 value -128 at row " + std::to_string(at / cols) + ", column " +
                             std::to_string(at % cols) + "; values are -127 to 127; " + kDamaged);
    }
}

void decode_tensor_values(const uint8_t* bytes, const TensorLayout& entry, float* out, bool column_major) {
    const std::string tensor = "model file tensor " + in_quotes(entry.name);
    const size_t rows = entry.rows, cols = entry.cols;
    const uint8_t* source = bytes + entry.offset;
    if (entry.dtype == TensorDtype::kInt8) {
        check_int8_tensor(bytes, entry);
        std::vector<float> scales(rows);
        const auto* values = int8_tensor_values(bytes, entry, scales.data());
        if (!column_major) {
            for (size_t row = 0; row < rows; ++row) decode_row_i8(values + row * cols, scales[row], cols, out + row * cols);
            return;
        }
        constexpr size_t kTile = 16;
        for (size_t row = 0; row < rows; row += kTile) {
            decode_tile_i8(values + row * cols, scales.data() + row, std::min(kTile, rows - row), cols, out + row, rows);
        }
        return;
    }
    for (size_t row = 0; row < rows; ++row) {
        float* destination = column_major ? out + row : out + row * cols;
        const size_t stride = column_major ? rows : 1;
        size_t bad = cols;
        switch (entry.dtype) {
            case TensorDtype::kInt8: break;  // above
            case TensorDtype::kFloat16: bad = decode_row_f16(source + 2 * row * cols, cols, destination, stride); break;
            case TensorDtype::kFloat32: bad = decode_row_f32(source + 4 * row * cols, cols, destination, stride); break;
        }
        if (bad < cols) {
            const bool nan = entry.dtype == TensorDtype::kFloat16
                                 ? (load_u16(source + 2 * (row * cols + bad)) & 0x03FF) != 0
                                 : (load_u32(source + 4 * (row * cols + bad)) & 0x007FFFFF) != 0;
            throw ModelFileError(tensor + " holds " + (nan ? "NaN" : "infinity") + " at row " + std::to_string(row) +
                                 ", column " + std::to_string(bad) + "; the model is unusable (training may have diverged)");
        }
    }
}

}  // namespace s2s
