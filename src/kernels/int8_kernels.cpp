// See int8_kernels.h. Compiled with -ffp-contract=off (CMakeLists.txt): the
// float steps after the integer sums must not become fused multiply-adds
// natively, which WebAssembly does not have.
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF  // GCC ignores it: -ffp-contract=off does it there
#endif

#include "kernels/int8_kernels.h"

#include "kernels/kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__AVX2__) || defined(__SSE4_1__)
#include <immintrin.h>
#endif

namespace s2s {
namespace {

constexpr int kBlockRows = kInt8BlockRows;
constexpr int kBlockBytes = kInt8BlockBytes;
// Columns of x per sweep of A: four, so a beam of 4 reads A once (chosen
// by measurement against two: bench/history.md). Integer sums: any split
// gives the same result.
constexpr int kMaxColumnsAtOnce = 4;

typedef float Float4 __attribute__((vector_size(4 * sizeof(float))));
typedef int32_t Int4 __attribute__((vector_size(4 * sizeof(int32_t))));

// The exact int32 sums of one block of 8 rows with kColumns columns of x:
// `w` is the block (pairs x 16 bytes), xq[k] the column k as int16 pairs
// (one int32 each: element 2p in the low half). Writes sums[k][0..7].
// Plain C++: what a build without SIMD128, AVX2 or SSE4.1 runs, and what
// KernelPath::kScalar forces (int8_kernels.h).
template <int kColumns>
void block_sums_scalar(const int8_t* w, int pairs, const int32_t* const* xq, int32_t (*sums)[kBlockRows]) {
    for (int k = 0; k < kColumns; ++k) std::fill(sums[k], sums[k] + kBlockRows, 0);
    for (int p = 0; p < pairs; ++p) {
        const int8_t* pair = w + kBlockBytes * p;
        for (int k = 0; k < kColumns; ++k) {
            int16_t x[2];
            std::memcpy(x, xq[k] + p, sizeof x);
            for (int i = 0; i < kBlockRows; ++i) sums[k][i] += pair[2 * i] * x[0] + pair[2 * i + 1] * x[1];
        }
    }
}

// The same sums with the widest SIMD the build has.
template <int kColumns>
void block_sums_simd(const int8_t* w, int pairs, const int32_t* const* xq, int32_t (*sums)[kBlockRows]) {
#if defined(__wasm_simd128__)
    v128_t low[kColumns], high[kColumns];  // rows 0..3 and 4..7
    for (int k = 0; k < kColumns; ++k) low[k] = high[k] = wasm_i32x4_splat(0);
    for (int p = 0; p < pairs; ++p) {
        const v128_t bytes = wasm_v128_load(w + kBlockBytes * p);
        const v128_t w_low = wasm_i16x8_extend_low_i8x16(bytes);
        const v128_t w_high = wasm_i16x8_extend_high_i8x16(bytes);
        for (int k = 0; k < kColumns; ++k) {
            const v128_t x = wasm_v128_load32_splat(xq[k] + p);
            low[k] = wasm_i32x4_add(low[k], wasm_i32x4_dot_i16x8(w_low, x));
            high[k] = wasm_i32x4_add(high[k], wasm_i32x4_dot_i16x8(w_high, x));
        }
    }
    for (int k = 0; k < kColumns; ++k) {
        wasm_v128_store(sums[k], low[k]);
        wasm_v128_store(sums[k] + 4, high[k]);
    }
#elif defined(__AVX2__)
    __m256i acc[kColumns];
    for (int k = 0; k < kColumns; ++k) acc[k] = _mm256_setzero_si256();
    for (int p = 0; p < pairs; ++p) {
        const __m256i w16 = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + kBlockBytes * p)));
        for (int k = 0; k < kColumns; ++k) {
            acc[k] = _mm256_add_epi32(acc[k], _mm256_madd_epi16(w16, _mm256_set1_epi32(xq[k][p])));
        }
    }
    for (int k = 0; k < kColumns; ++k) _mm256_storeu_si256(reinterpret_cast<__m256i*>(sums[k]), acc[k]);
#elif defined(__SSE4_1__)
    __m128i low[kColumns], high[kColumns];
    for (int k = 0; k < kColumns; ++k) low[k] = high[k] = _mm_setzero_si128();
    for (int p = 0; p < pairs; ++p) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + kBlockBytes * p));
        const __m128i w_low = _mm_cvtepi8_epi16(bytes);
        const __m128i w_high = _mm_cvtepi8_epi16(_mm_srli_si128(bytes, 8));
        for (int k = 0; k < kColumns; ++k) {
            const __m128i x = _mm_set1_epi32(xq[k][p]);
            low[k] = _mm_add_epi32(low[k], _mm_madd_epi16(w_low, x));
            high[k] = _mm_add_epi32(high[k], _mm_madd_epi16(w_high, x));
        }
    }
    for (int k = 0; k < kColumns; ++k) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(sums[k]), low[k]);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(sums[k] + 4), high[k]);
    }
#else
    block_sums_scalar<kColumns>(w, pairs, xq, sums);
#endif
}

template <int kColumns, bool kSimd>
void block_sums(const int8_t* w, int pairs, const int32_t* const* xq, int32_t (*sums)[kBlockRows]) {
    if constexpr (kSimd) {
        block_sums_simd<kColumns>(w, pairs, xq, sums);
    } else {
        block_sums_scalar<kColumns>(w, pairs, xq, sums);
    }
}

// block_sums for two blocks at once, far apart in A: two streams through
// memory and twice the independent sums in flight, faster in WebAssembly
// for one or two columns of x (bench/history.md). Natively, and on the
// scalar path, the same sums one block after the other.
template <int kColumns, bool kSimd>
void block_sums_two(const int8_t* w0, const int8_t* w1, int pairs, const int32_t* const* xq,
                    int32_t (*sums0)[kBlockRows], int32_t (*sums1)[kBlockRows]) {
#if defined(__wasm_simd128__)
    if constexpr (kSimd) {
        v128_t acc[2][2][kColumns];  // [block][rows 0..3, 4..7][column]
        for (int s = 0; s < 2; ++s) {
            for (int h = 0; h < 2; ++h) {
                for (int k = 0; k < kColumns; ++k) acc[s][h][k] = wasm_i32x4_splat(0);
            }
        }
        for (int p = 0; p < pairs; ++p) {
            const v128_t bytes0 = wasm_v128_load(w0 + kBlockBytes * p);
            const v128_t bytes1 = wasm_v128_load(w1 + kBlockBytes * p);
            const v128_t w[2][2] = {{wasm_i16x8_extend_low_i8x16(bytes0), wasm_i16x8_extend_high_i8x16(bytes0)},
                                    {wasm_i16x8_extend_low_i8x16(bytes1), wasm_i16x8_extend_high_i8x16(bytes1)}};
            for (int k = 0; k < kColumns; ++k) {
                const v128_t x = wasm_v128_load32_splat(xq[k] + p);
                for (int s = 0; s < 2; ++s) {
                    for (int h = 0; h < 2; ++h) acc[s][h][k] = wasm_i32x4_add(acc[s][h][k], wasm_i32x4_dot_i16x8(w[s][h], x));
                }
            }
        }
        for (int k = 0; k < kColumns; ++k) {
            wasm_v128_store(sums0[k], acc[0][0][k]);
            wasm_v128_store(sums0[k] + 4, acc[0][1][k]);
            wasm_v128_store(sums1[k], acc[1][0][k]);
            wasm_v128_store(sums1[k] + 4, acc[1][1][k]);
        }
        return;
    }
#endif
    block_sums<kColumns, kSimd>(w0, pairs, xq, sums0);
    block_sums<kColumns, kSimd>(w1, pairs, xq, sums1);
}

// Columns k0 .. k0 + kColumns of y. block_list: null for every block of A
// (block i's rows at rows 8i of y), else the blocks to compute, increasing,
// `blocks` of them (the i-th's rows at rows 8i of y: only the last block of
// A can be short, so the rows stay packed).
template <int kColumns, bool kSimd>
void sweep(const Int8Matrix& a, const std::vector<int32_t>& xq, const std::vector<float>& x_scales, int k0,
           const float* bias, Matrix& y, const int* block_list = nullptr, int listed = 0) {
    const int pairs = (a.cols + 1) / 2;
    const int32_t* columns[kColumns];
    for (int k = 0; k < kColumns; ++k) columns[k] = xq.data() + static_cast<size_t>(k0 + k) * pairs;
    const int blocks = block_list != nullptr ? listed : (a.rows + kBlockRows - 1) / kBlockRows;
    const size_t block_bytes = static_cast<size_t>(kBlockBytes) * pairs;
    const auto block_of = [&](int i) { return block_list != nullptr ? block_list[i] : i; };
    const auto finish = [&](int slot, int32_t (*sums)[kBlockRows]) {
        const int r0 = kBlockRows * block_of(slot);
        const int n = std::min(kBlockRows, a.rows - r0);
        for (int k = 0; k < kColumns; ++k) {
            const float s_x = x_scales[k0 + k];
            float* out = y.col(k0 + k).data() + kBlockRows * slot;
            if (n == kBlockRows) {  // four rows at a time: the same operations as below, lane by lane
                const Float4 s_x4 = {s_x, s_x, s_x, s_x};
                for (int i = 0; i < kBlockRows; i += 4) {
                    Int4 sum;
                    Float4 row_scale, b4 = {}, result;
                    std::memcpy(&sum, sums[k] + i, sizeof sum);
                    std::memcpy(&row_scale, a.scales + r0 + i, sizeof row_scale);
                    const Float4 scale = row_scale * s_x4;
                    const Float4 product = __builtin_convertvector(sum, Float4) * scale;
                    if (bias != nullptr) std::memcpy(&b4, bias + r0 + i, sizeof b4);
                    result = bias != nullptr ? product + b4 : product;
                    std::memcpy(out + i, &result, sizeof result);
                }
                continue;
            }
            for (int i = 0; i < n; ++i) {
                const float scale = a.scales[r0 + i] * s_x;
                const float product = static_cast<float>(sums[k][i]) * scale;
                out[i] = bias != nullptr ? product + bias[r0 + i] : product;
            }
        }
    };
    int32_t sums0[kColumns][kBlockRows], sums1[kColumns][kBlockRows];
    // Blocks b and b + half together while a block's sums for one or two
    // columns leave registers to spare (four columns use them all).
    const int half = kColumns <= 2 ? blocks / 2 : 0;
    for (int b = 0; b < half; ++b) {
        block_sums_two<kColumns, kSimd>(a.packed + block_bytes * block_of(b), a.packed + block_bytes * block_of(b + half),
                                        pairs, columns, sums0, sums1);
        finish(b, sums0);
        finish(b + half, sums1);
    }
    for (int b = 2 * half; b < blocks; ++b) {
        block_sums<kColumns, kSimd>(a.packed + block_bytes * block_of(b), pairs, columns, sums0);
        finish(b, sums0);
    }
}

}  // namespace

float quantize_int16(const float* x, int n, int levels, int16_t* q, KernelPath path) {
    // Four values at a time where there is SIMD, the same operations as the
    // scalar loops (which do the rest): |x|'s max skips NaN as std::max does,
    // x / scale rounds half to even (f32x4.nearest, roundps) and the clamped
    // integer narrows to int16.
    int j = 0;
    float largest = 0.0f;
    if (path == KernelPath::kBest) {
#if defined(__wasm_simd128__)
        v128_t wide_largest = wasm_f32x4_splat(0.0f);
        for (; j + 4 <= n; j += 4) wide_largest = wasm_f32x4_pmax(wide_largest, wasm_f32x4_abs(wasm_v128_load(x + j)));
        float lanes[4];
        wasm_v128_store(lanes, wide_largest);
        for (float lane : lanes) largest = std::max(largest, lane);
#elif defined(__SSE4_1__)
        const __m128i sign_off = _mm_set1_epi32(0x7fffffff);
        __m128 wide_largest = _mm_setzero_ps();
        for (; j + 4 <= n; j += 4) {
            const __m128 magnitude = _mm_and_ps(_mm_loadu_ps(x + j), _mm_castsi128_ps(sign_off));
            wide_largest = _mm_max_ps(magnitude, wide_largest);  // the second operand when either is NaN
        }
        float lanes[4];
        _mm_storeu_ps(lanes, wide_largest);
        for (float lane : lanes) largest = std::max(largest, lane);
#endif
    }
    for (; j < n; ++j) largest = std::max(largest, std::fabs(x[j]));
    if (!(largest > 0.0f)) {  // zeros (or NaN, which nothing here can fix)
        std::fill(q, q + n, 0);
        return 0.0f;
    }
    const float scale = largest / static_cast<float>(levels);
    const float top = static_cast<float>(levels);
    j = 0;
    if (path == KernelPath::kBest) {
#if defined(__wasm_simd128__)
        const v128_t scale4 = wasm_f32x4_splat(scale), top4 = wasm_f32x4_splat(top), bottom4 = wasm_f32x4_splat(-top);
        for (; j + 8 <= n; j += 8) {
            v128_t halves[2];
            for (int h = 0; h < 2; ++h) {
                const v128_t v = wasm_f32x4_nearest(wasm_f32x4_div(wasm_v128_load(x + j + 4 * h), scale4));
                halves[h] = wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_pmin(wasm_f32x4_pmax(v, bottom4), top4));
            }
            wasm_v128_store(q + j, wasm_i16x8_narrow_i32x4(halves[0], halves[1]));
        }
#elif defined(__SSE4_1__)
        const __m128 scale4 = _mm_set1_ps(scale), top4 = _mm_set1_ps(top), bottom4 = _mm_set1_ps(-top);
        for (; j + 8 <= n; j += 8) {
            __m128i halves[2];
            for (int h = 0; h < 2; ++h) {
                const __m128 v = _mm_round_ps(_mm_div_ps(_mm_loadu_ps(x + j + 4 * h), scale4),
                                              _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
                halves[h] = _mm_cvttps_epi32(_mm_min_ps(_mm_max_ps(v, bottom4), top4));
            }
            _mm_storeu_si128(reinterpret_cast<__m128i*>(q + j), _mm_packs_epi32(halves[0], halves[1]));
        }
#endif
    }
    for (; j < n; ++j) {
        const float v = std::nearbyint(x[j] / scale);  // half to even: the default rounding mode
        // A NaN (only a damaged model file makes one) is 0, as WASM's
        // saturating conversion makes it: casting it would be undefined.
        q[j] = std::isnan(v) ? int16_t{0} : static_cast<int16_t>(std::clamp(v, -top, top));
    }
    return scale;
}

namespace {

// The whole product on one path. kSimd = false is reached only through the
// out-of-line function below, so that affine_columns_int8 inlines the SIMD
// path alone: with both inlined, GCC compiled the one-hypothesis products
// differently and they ran up to 1.5x slower natively (bench/history.md).
template <bool kSimd>
void affine_columns_on(const Int8Matrix& a, const ConstMatrixRef& x, const Matrix* bias, Matrix& y,
                       const int* block_list = nullptr, int listed = 0) {
    const int K = static_cast<int>(x.cols()), pairs = (a.cols + 1) / 2;
    if (block_list != nullptr) {
        const int last = listed > 0 ? block_list[listed - 1] : 0;
        y.resize(listed > 0 ? kBlockRows * (listed - 1) + std::min(kBlockRows, a.rows - kBlockRows * last) : 0, K);
    } else {
        y.resize(a.rows, K);
    }
    // x as int16 pairs, one column after the other. Scratch of this call
    // only: a buffer kept past it (thread_local) would stay allocated after
    // every model is disposed, which the WASM memory tests refuse; three
    // small allocations are nothing beside the product.
    std::vector<int32_t> xq(static_cast<size_t>(K) * pairs, 0);
    std::vector<float> x_scales(K);
    std::vector<int16_t> column(2 * static_cast<size_t>(pairs), 0);
    for (int k = 0; k < K; ++k) {
        x_scales[k] = quantize_int16(x.col(k).data(), a.cols, a.x_levels, column.data(),
                                     kSimd ? KernelPath::kBest : KernelPath::kScalar);
        std::memcpy(xq.data() + static_cast<size_t>(k) * pairs, column.data(), sizeof(int32_t) * pairs);
    }
    const float* b = bias != nullptr ? bias->data() : nullptr;
    int k0 = 0;
    for (; k0 + kMaxColumnsAtOnce <= K; k0 += kMaxColumnsAtOnce) {
        sweep<kMaxColumnsAtOnce, kSimd>(a, xq, x_scales, k0, b, y, block_list, listed);
    }
    switch (K - k0) {
        case 3: sweep<3, kSimd>(a, xq, x_scales, k0, b, y, block_list, listed); break;
        case 2: sweep<2, kSimd>(a, xq, x_scales, k0, b, y, block_list, listed); break;
        case 1: sweep<1, kSimd>(a, xq, x_scales, k0, b, y, block_list, listed); break;
        default: break;
    }
}

__attribute__((noinline)) void affine_columns_scalar(const Int8Matrix& a, const ConstMatrixRef& x, const Matrix* bias,
                                                     Matrix& y, const int* block_list = nullptr, int listed = 0) {
    affine_columns_on<false>(a, x, bias, y, block_list, listed);
}

}  // namespace

void affine_columns_int8(const Int8Matrix& a, const ConstMatrixRef& x, const Matrix* bias, Matrix& y, KernelPath path) {
    if (path == KernelPath::kScalar) {
        affine_columns_scalar(a, x, bias, y);
    } else {
        affine_columns_on<true>(a, x, bias, y);
    }
}

void affine_columns_int8_blocks(const Int8Matrix& a, const ConstMatrixRef& x, const Matrix* bias,
                                const std::vector<int>& blocks, Matrix& y, KernelPath path) {
    const int all = (a.rows + kBlockRows - 1) / kBlockRows;
    for (size_t i = 0; i < blocks.size(); ++i) {
        if (blocks[i] < 0 || blocks[i] >= all || (i > 0 && blocks[i] <= blocks[i - 1])) {
            throw std::invalid_argument("affine_columns_int8_blocks: the block list must increase within 0.." +
                                        std::to_string(all - 1));
        }
    }
    const int listed = static_cast<int>(blocks.size());
    if (path == KernelPath::kScalar) {
        affine_columns_scalar(a, x, bias, y, blocks.data(), listed);
    } else {
        affine_columns_on<true>(a, x, bias, y, blocks.data(), listed);
    }
}

void affine_columns_int8_or_float(const Int8Matrix* a_int8, const Matrix& a, const ConstMatrixRef& x, const Matrix* bias,
                                  Matrix& y) {
    if (a_int8 != nullptr && !a_int8->empty()) {
        affine_columns_int8(*a_int8, x, bias, y);
    } else {
        affine_columns(a, x, bias, y);
    }
}

}  // namespace s2s
