#include "model/kernels.h"

#include <cmath>
#include <cstdint>
#include <cstring>

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

// exp(x) for x <= 0 (Cephes expf: x = n ln2 + r, |r| <= ln2 / 2, a degree-6
// polynomial in r, times 2^n). Below -87.3 it returns exp(-87.3) ~ 1e-38
// rather than 0, which no sum of probabilities can notice.
inline Float8 exp_nonpositive(Float8 x) {
    const Float8 lowest = splat(-87.3f);
    x = x < lowest ? lowest : x;
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

void log_softmax(float* x, Eigen::Index n) {
    const Eigen::Index whole = n - n % kLanes;
    float max_value = -INFINITY;
    if (whole > 0) {
        Float8 m = load(x);
        for (Eigen::Index i = kLanes; i < whole; i += kLanes) {
            const Float8 v = load(x + i);
            m = v > m ? v : m;
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

// Rows r0 .. r0 + 8 * kBlocks of y = A x (+ bias) for one column x.
template <int kBlocks>
void row_block(const float* a, Eigen::Index lda, Eigen::Index cols, const float* x, const float* bias, float* y) {
    Float8 acc[kBlocks];
    for (int b = 0; b < kBlocks; ++b) acc[b] = bias != nullptr ? load(bias + kLanes * b) : Float8{};
    for (Eigen::Index j = 0; j < cols; ++j) {
        const Float8 xj = splat(x[j]);
        const float* column = a + j * lda;
        for (int b = 0; b < kBlocks; ++b) acc[b] += load(column + kLanes * b) * xj;
    }
    for (int b = 0; b < kBlocks; ++b) store(y + kLanes * b, acc[b]);
}

}  // namespace

void log_softmax_columns_portable(Matrix& logits) {
    for (Eigen::Index k = 0; k < logits.cols(); ++k) log_softmax(logits.col(k).data(), logits.rows());
}

void affine_columns_portable(const Matrix& a, const Matrix& x, const Matrix* bias, Matrix& y) {
    const Eigen::Index rows = a.rows(), cols = a.cols(), K = x.cols();
    y.resize(rows, K);
    const float* b = bias != nullptr ? bias->data() : nullptr;
    constexpr int kBlock = 4 * kLanes;  // 32 rows: four accumulators
    Eigen::Index r0 = 0;
    for (; r0 + kBlock <= rows; r0 += kBlock) {
        for (Eigen::Index k = 0; k < K; ++k) {
            row_block<4>(a.data() + r0, rows, cols, x.col(k).data(), b ? b + r0 : nullptr, y.col(k).data() + r0);
        }
    }
    for (; r0 + kLanes <= rows; r0 += kLanes) {
        for (Eigen::Index k = 0; k < K; ++k) {
            row_block<1>(a.data() + r0, rows, cols, x.col(k).data(), b ? b + r0 : nullptr, y.col(k).data() + r0);
        }
    }
    for (; r0 < rows; ++r0) {  // the last rows % 8, summed in the same order as the blocks
        for (Eigen::Index k = 0; k < K; ++k) {
            float acc = b ? b[r0] : 0.0f;
            for (Eigen::Index j = 0; j < cols; ++j) acc += a(r0, j) * x(j, k);
            y(r0, k) = acc;
        }
    }
}

#ifdef EIGEN_VECTORIZE

void log_softmax_columns(Matrix& logits) {
    for (Eigen::Index k = 0; k < logits.cols(); ++k) {
        auto column = logits.col(k);
        const float max_logit = column.maxCoeff();
        const float log_total = std::log((column.array() - max_logit).exp().sum()) + max_logit;
        column.array() -= log_total;
    }
}

void affine_columns(const Matrix& a, const Matrix& x, const Matrix* bias, Matrix& y) {
    y.noalias() = a * x;
    if (bias != nullptr) y.colwise() += bias->col(0);
}

#else

void log_softmax_columns(Matrix& logits) { log_softmax_columns_portable(logits); }

void affine_columns(const Matrix& a, const Matrix& x, const Matrix* bias, Matrix& y) {
    affine_columns_portable(a, x, bias, y);
}

#endif

}  // namespace s2s
