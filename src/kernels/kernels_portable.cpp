// The portable inference kernels of kernels.h (the *_portable functions):
// written once with GCC/clang vector extensions, WebAssembly's path, and
// compiled natively too so that the tests check them against Eigen.
// kernels.cpp chooses between them and Eigen.
#include "kernels/kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace s2s {
namespace {

constexpr int kLanes = 8;
typedef float Float8 __attribute__((vector_size(kLanes * sizeof(float))));
typedef int32_t Int8x32 __attribute__((vector_size(kLanes * sizeof(int32_t))));

// Unaligned loads and stores (Eigen aligns columns only to 16 bytes in WASM,
// and a column block starts anywhere).
inline Float8 load(const float* p) {
    Float8 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
inline void store(float* p, Float8 v) { std::memcpy(p, &v, sizeof v); }
inline Float8 splat(float x) { return Float8{} + x; }

// b < a ? b : a and a < b ? b : a, lane by lane (so NaN in `a` goes through),
// and |x|. In WebAssembly the SIMD128 instructions that compute exactly
// these (f32x4.pmin, f32x4.pmax, f32x4.abs), one instruction each where a
// comparison and a select compiled to four (bench/history.md).
#if defined(__wasm_simd128__)
template <typename Op>
inline Float8 halves(Float8 a, Float8 b, Op op) {
    v128_t a2[2], b2[2];
    std::memcpy(a2, &a, sizeof a);
    std::memcpy(b2, &b, sizeof b);
    a2[0] = op(a2[0], b2[0]);
    a2[1] = op(a2[1], b2[1]);
    Float8 out;
    std::memcpy(&out, a2, sizeof out);
    return out;
}
inline Float8 pmin(Float8 a, Float8 b) { return halves(a, b, [](v128_t x, v128_t y) { return wasm_f32x4_pmin(x, y); }); }
inline Float8 pmax(Float8 a, Float8 b) { return halves(a, b, [](v128_t x, v128_t y) { return wasm_f32x4_pmax(x, y); }); }
inline Float8 abs(Float8 x) { return halves(x, x, [](v128_t y, v128_t) { return wasm_f32x4_abs(y); }); }
#else
inline Float8 pmin(Float8 a, Float8 b) { return b < a ? b : a; }
inline Float8 pmax(Float8 a, Float8 b) { return a < b ? b : a; }
inline Float8 abs(Float8 x) { return x < splat(0.0f) ? -x : x; }  // -0 stays -0: only compared, or negated into exp
#endif

// exp(x) for x <= 0 (Cephes expf: x = n ln2 + r, |r| <= ln2 / 2, a degree-6
// polynomial in r, times 2^n). Below -87.3 it returns exp(-87.3) ~ 1e-38
// rather than 0, which no sum of probabilities can notice.
inline Float8 exp_nonpositive(Float8 x) {
    const Float8 lowest = splat(-87.3f);
    x = pmax(x, lowest);
    // n = round(x / ln2) by the 1.5 * 2^23 trick: the integer lands in the low
    // mantissa bits of `shifted`.
    const float kRound = 12582912.0f;
    const Float8 shifted = x * splat(1.44269504088896341f) + splat(kRound);
    const Float8 n = shifted - splat(kRound);
    Float8 r = x - n * splat(0.693359375f);
    r = r - n * splat(-2.12194440e-4f);
    Float8 p = splat(1.9875691500e-4f);
    p = p * r + splat(1.3981999507e-3f);
    p = p * r + splat(8.3334519073e-3f);
    p = p * r + splat(4.1665795894e-2f);
    p = p * r + splat(1.6666665459e-1f);
    p = p * r + splat(5.0000001201e-1f);
    const Float8 y = p * (r * r) + r + splat(1.0f);
    // 2^n as a float: n + 127 in the exponent field (n >= -126 here).
    Int8x32 shifted_bits;
    std::memcpy(&shifted_bits, &shifted, sizeof shifted_bits);
    int32_t round_bits;
    std::memcpy(&round_bits, &kRound, sizeof round_bits);
    const Int8x32 exponent = (shifted_bits - round_bits + 127) << 23;
    Float8 two_to_n;
    std::memcpy(&two_to_n, &exponent, sizeof two_to_n);
    return y * two_to_n;
}

float exp_nonpositive(float x) {
    float lanes[kLanes] = {x};
    store(lanes, exp_nonpositive(load(lanes)));
    return lanes[0];
}

// Eigen's generic_fast_tanh_float (a 13/6 rational, exact to a few ulp), with
// the clamp of its variant without FMA (WebAssembly has none).
inline Float8 tanh(Float8 a) {
    const Float8 clamp = splat(7.90531110763549805f);
    const Float8 x = pmax(pmin(a, clamp), -clamp);
    const Float8 x2 = x * x;
    Float8 p = x2 * splat(-2.76076847742355e-16f) + splat(2.00018790482477e-13f);
    p = x2 * p + splat(-8.60467152213735e-11f);
    p = x2 * p + splat(5.12229709037114e-08f);
    p = x2 * p + splat(1.48572235717979e-05f);
    p = x2 * p + splat(6.37261928875436e-04f);
    p = x2 * p + splat(4.89352455891786e-03f);
    p = x * p;
    Float8 q = x2 * splat(1.19825839466702e-06f) + splat(1.18534705686654e-04f);
    q = x2 * q + splat(2.26843463243900e-03f);
    q = x2 * q + splat(4.89352518554385e-03f);
    return abs(a) < splat(0.0004f) ? x : p / q;
}

// 1 / (1 + exp(-x)), with exp of -|x| only (no overflow): e / (1 + e) below 0.
inline Float8 sigmoid(Float8 x) {
    const Float8 e = exp_nonpositive(-abs(x));
    const Float8 s = splat(1.0f) / (splat(1.0f) + e);
    return x < splat(0.0f) ? e * s : s;
}

inline float horizontal_sum(Float8 v) {
    float total = 0.0f;
    for (int lane = 0; lane < kLanes; ++lane) total += v[lane];
    return total;
}

// Eight units of the GRU cell (gru_cell_columns): the gates' rows of x and p
// are `stride` apart; gates may be null.
inline void gru_cell_block(const float* x, const float* p, const float* h, Eigen::Index stride, float* gates,
                           float* out) {
    const Float8 r = sigmoid(load(x) + load(p));
    const Float8 z = sigmoid(load(x + stride) + load(p + stride));
    const Float8 n = tanh(load(x + 2 * stride) + r * load(p + 2 * stride));
    const Float8 hn = load(h);
    store(out, n + z * (hn - n));
    if (gates != nullptr) {
        store(gates, r);
        store(gates + stride, z);
        store(gates + 2 * stride, n);
    }
}

// v . tanh(key + query) over n rows.
inline float additive_score(const float* key, const float* query, const float* v, Eigen::Index n) {
    const Eigen::Index whole = n - n % kLanes;
    Float8 acc = {};
    for (Eigen::Index a = 0; a < whole; a += kLanes) acc += load(v + a) * tanh(load(key + a) + load(query + a));
    if (whole < n) {  // the last n % 8 rows, zero-padded (v = 0 adds nothing)
        float k8[kLanes] = {}, q8[kLanes] = {}, v8[kLanes] = {};
        for (Eigen::Index a = whole; a < n; ++a) k8[a - whole] = key[a], q8[a - whole] = query[a], v8[a - whole] = v[a];
        acc += load(v8) * tanh(load(k8) + load(q8));
    }
    return horizontal_sum(acc);
}

void log_softmax(float* x, Eigen::Index n) {
    const Eigen::Index whole = n - n % kLanes;
    float max_value = -INFINITY;
    if (whole > 0) {
        Float8 m = load(x);
        for (Eigen::Index i = kLanes; i < whole; i += kLanes) {
            const Float8 v = load(x + i);
            m = pmax(m, v);
        }
        for (int lane = 0; lane < kLanes; ++lane) max_value = std::max(max_value, m[lane]);
    }
    for (Eigen::Index i = whole; i < n; ++i) max_value = std::max(max_value, x[i]);

    Float8 sums = {};
    const Float8 max8 = splat(max_value);
    for (Eigen::Index i = 0; i < whole; i += kLanes) sums += exp_nonpositive(load(x + i) - max8);
    float total = 0.0f;
    for (int lane = 0; lane < kLanes; ++lane) total += sums[lane];
    for (Eigen::Index i = whole; i < n; ++i) total += exp_nonpositive(x[i] - max_value);

    const float log_total = max_value + std::log(total);
    for (Eigen::Index i = 0; i < n; ++i) x[i] -= log_total;
}

void softmax(float* x, Eigen::Index n) {
    float max_value = -INFINITY;
    for (Eigen::Index i = 0; i < n; ++i) max_value = std::max(max_value, x[i]);
    const Eigen::Index whole = n - n % kLanes;
    const Float8 max8 = splat(max_value);
    Float8 sums = {};
    for (Eigen::Index i = 0; i < whole; i += kLanes) {
        const Float8 w = exp_nonpositive(load(x + i) - max8);
        store(x + i, w);
        sums += w;
    }
    float total = horizontal_sum(sums);
    for (Eigen::Index i = whole; i < n; ++i) {
        x[i] = exp_nonpositive(x[i] - max_value);
        total += x[i];
    }
    for (Eigen::Index i = 0; i < n; ++i) x[i] /= total;  // total >= 1: the largest score contributes exp(0)
}

// Rows r0 .. r0 + 8 * kBlocks of y = A x for one column x, over the columns
// [j0, j1) of A only: the sums start from `init` (the bias or y's sums over
// the columns before j0; null: zero) and go on in the order of j, so tiling
// the columns changes nothing in the result.
template <int kBlocks>
void row_block(const float* a, Eigen::Index lda, Eigen::Index j0, Eigen::Index j1, const float* x, const float* init,
               float* y) {
    Float8 acc[kBlocks];
    for (int b = 0; b < kBlocks; ++b) acc[b] = init != nullptr ? load(init + kLanes * b) : Float8{};
    const float* column = a + j0 * lda;
    for (Eigen::Index j = j0; j < j1; ++j, column += lda) {
        // x[j] in every lane as it is (one v128.load32_splat), not splat()'s
        // 0 + x[j], which costs an add and a shuffle per column. The two
        // differ for x[j] = -0 only, which can change nothing but the sign of
        // a sum that is exactly zero.
        const float xj_value = x[j];
        const Float8 xj = {xj_value, xj_value, xj_value, xj_value, xj_value, xj_value, xj_value, xj_value};
        for (int b = 0; b < kBlocks; ++b) acc[b] += load(column + kLanes * b) * xj;
    }
    for (int b = 0; b < kBlocks; ++b) store(y + kLanes * b, acc[b]);
}

}  // namespace

void log_softmax_columns_portable(Matrix& logits) {
    for (Eigen::Index k = 0; k < logits.cols(); ++k) log_softmax(logits.col(k).data(), logits.rows());
}

void softmax_columns_portable(Matrix& scores) {
    for (Eigen::Index k = 0; k < scores.cols(); ++k) softmax(scores.col(k).data(), scores.rows());
}

void affine_columns_portable(const Matrix& a, const ConstMatrixRef& x, const Matrix* bias, Matrix& y) {
    const Eigen::Index rows = a.rows(), cols = a.cols(), K = x.cols();
    y.resize(rows, K);
    const float* b = bias != nullptr ? bias->data() : nullptr;
    constexpr int kBlock = 4 * kLanes;  // 32 rows: four accumulators
    // A is swept kTile of its columns at a time, every row and every x
    // column: a block of 32 rows x 16 columns (2 KiB) is read from memory once
    // and from L1 for the other columns of x, and the sweep reads kTile
    // columns of A front to back (streams the prefetcher follows) instead of
    // jumping a column's length at every load. y holds the partial sums
    // between tiles. (Why 16: bench/history.md.)
    constexpr Eigen::Index kTile = 16;
    const Eigen::Index whole = rows - rows % kLanes;
    Eigen::Index j0 = 0;
    do {  // at least once: with no columns, y = bias (or 0)
        const Eigen::Index j1 = std::min(cols, j0 + kTile);
        const auto init = [&](Eigen::Index r, float* yk) -> const float* {
            return j0 > 0 ? yk : b != nullptr ? b + r : nullptr;
        };
        Eigen::Index r0 = 0;
        for (; r0 + kBlock <= whole; r0 += kBlock) {
            for (Eigen::Index k = 0; k < K; ++k) {
                float* yk = y.col(k).data() + r0;
                row_block<4>(a.data() + r0, rows, j0, j1, x.col(k).data(), init(r0, yk), yk);
            }
        }
        for (; r0 < whole; r0 += kLanes) {
            for (Eigen::Index k = 0; k < K; ++k) {
                float* yk = y.col(k).data() + r0;
                row_block<1>(a.data() + r0, rows, j0, j1, x.col(k).data(), init(r0, yk), yk);
            }
        }
        j0 = j1;
    } while (j0 < cols);
    for (Eigen::Index r0 = whole; r0 < rows; ++r0) {  // the last rows % 8, summed in the same order as the blocks
        for (Eigen::Index k = 0; k < K; ++k) {
            float acc = b ? b[r0] : 0.0f;
            for (Eigen::Index j = 0; j < cols; ++j) acc += a(r0, j) * x(j, k);
            y(r0, k) = acc;
        }
    }
}

void tanh_in_place_portable(Matrix& m) {
    float* data = m.data();
    const Eigen::Index n = m.size(), whole = n - n % kLanes;
    for (Eigen::Index i = 0; i < whole; i += kLanes) store(data + i, tanh(load(data + i)));
    if (whole < n) {
        float lanes[kLanes] = {};
        std::memcpy(lanes, data + whole, (n - whole) * sizeof(float));
        store(lanes, tanh(load(lanes)));
        std::memcpy(data + whole, lanes, (n - whole) * sizeof(float));
    }
}

void gru_cell_columns_portable(const ConstMatrixRef& input_projection, const Matrix& state_projection,
                               const ConstMatrixRef& state_in, MatrixRef state_out, MatrixRef* gates) {
    const Eigen::Index H = state_in.rows(), whole = H - H % kLanes;
    for (Eigen::Index k = 0; k < state_in.cols(); ++k) {
        const float* x = input_projection.col(k).data();
        const float* p = state_projection.col(k).data();
        const float* h = state_in.col(k).data();
        float* g = gates != nullptr ? gates->col(k).data() : nullptr;
        float* out = state_out.col(k).data();
        for (Eigen::Index i = 0; i < whole; i += kLanes) {
            gru_cell_block(x + i, p + i, h + i, H, g ? g + i : nullptr, out + i);
        }
        if (whole < H) {  // the last H % 8 units, through zero-padded copies
            float x8[3 * kLanes] = {}, p8[3 * kLanes] = {}, h8[kLanes] = {}, g8[3 * kLanes], out8[kLanes];
            for (Eigen::Index i = whole; i < H; ++i) {
                for (int gate = 0; gate < 3; ++gate) {
                    x8[gate * kLanes + i - whole] = x[gate * H + i];
                    p8[gate * kLanes + i - whole] = p[gate * H + i];
                }
                h8[i - whole] = h[i];
            }
            gru_cell_block(x8, p8, h8, kLanes, g8, out8);
            for (Eigen::Index i = whole; i < H; ++i) {
                out[i] = out8[i - whole];
                if (g) {
                    for (int gate = 0; gate < 3; ++gate) g[gate * H + i] = g8[gate * kLanes + i - whole];
                }
            }
        }
    }
}

void additive_scores_portable(const Matrix& keys, const Matrix& query, const Matrix& v, Matrix& scores) {
    const Eigen::Index A = keys.rows(), S = keys.cols(), K = query.cols();
    scores.resize(S, K);
    for (Eigen::Index k = 0; k < K; ++k) {
        for (Eigen::Index i = 0; i < S; ++i) {
            scores(i, k) = additive_score(keys.col(i).data(), query.col(k).data(), v.data(), A);
        }
    }
}

}  // namespace s2s
