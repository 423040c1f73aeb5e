// The decoder step's integer products (int8_kernels.h): exact against a plain scalar
// integer implementation, close to the float product within the int16
// quantization's bound, and used by decoder_step for a model loaded from an
// int8 file only.
#include "common/error.h"
#include "common/hash.h"
#include "decode/search.h"
#include "model/decoder.h"
#include "kernels/int8_kernels.h"
#include "model/model.h"
#include "format/model_file.h"
#include "test_helpers.h"
#include "text/vocabulary.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <random>

using namespace s2s;
using namespace s2s::testing;

namespace {

// y = float(sum_j w q) * (s_w * s_x) + b, one column at a time, written out
// plainly: what the SIMD kernels must equal bit for bit.
Matrix scalar_int8_product(int rows, int cols, const std::vector<int8_t>& w, const std::vector<float>& scales,
                           const Matrix& x, const Matrix* bias) {
    Matrix y(rows, x.cols());
    for (Eigen::Index k = 0; k < x.cols(); ++k) {
        float largest = 0.0f;
        for (int j = 0; j < cols; ++j) largest = std::max(largest, std::fabs(x(j, k)));
        const float s_x = largest > 0.0f ? largest / static_cast<float>(int16_levels_for(cols)) : 0.0f;
        std::vector<int32_t> q(cols, 0);
        for (int j = 0; j < cols && s_x > 0.0f; ++j) q[j] = static_cast<int32_t>(std::nearbyint(x(j, k) / s_x));
        for (int r = 0; r < rows; ++r) {
            int32_t sum = 0;
            for (int j = 0; j < cols; ++j) sum += static_cast<int32_t>(w[static_cast<size_t>(r) * cols + j]) * q[j];
            volatile float scale = scales[r] * s_x;  // volatile: no fused multiply-add here either
            volatile float product = static_cast<float>(sum) * scale;
            y(r, k) = bias != nullptr ? product + (*bias)(r, 0) : product;
        }
    }
    return y;
}


}  // namespace

TEST_CASE("int8 products: exact against a scalar integer product, close to the float product, on both paths") {
    std::mt19937 random(5);
    std::uniform_int_distribution<int> value(-127, 127);
    std::uniform_real_distribution<float> scale(0.0f, 0.02f);
    for (int rows : {1, 7, 8, 9, 31, 77, 130}) {
        for (int cols : {1, 2, 5, 64, 128, 321, 577}) {  // 577: inputs get fewer than 32767 levels
            std::vector<int8_t> w(static_cast<size_t>(rows) * cols);
            for (auto& v : w) v = static_cast<int8_t>(value(random));
            std::vector<float> scales(rows);
            for (auto& s : scales) s = scale(random);
            scales[0] = 0.0f;  // a row of zeros has scale 0
            const Int8Matrix packed = pack_int8_rows(rows, cols, w.data(), scales.data());
            REQUIRE(packed.rows == rows);
            Matrix dequantized(rows, cols);
            for (int r = 0; r < rows; ++r) {
                for (int j = 0; j < cols; ++j) dequantized(r, j) = float(w[static_cast<size_t>(r) * cols + j]) * scales[r];
            }
            const Matrix bias = Matrix::Random(rows, 1);
            for (int K = 1; K <= 5; ++K) {
                // The build's SIMD (AVX2 or SSE4.1 here) and the plain C++
                // loops (forced), each checked on its own.
                for (KernelPath path : {KernelPath::kBest, KernelPath::kScalar}) {
                    INFO(rows << " x " << cols << ", K " << K << (path == KernelPath::kScalar ? ", scalar" : ", SIMD"));
                    Matrix x = Matrix::Random(cols, K);
                    if (K == 3) x.col(1).setZero();  // a column of zeros: y = b
                    Matrix y(2, 2);                  // resized by the call
                    affine_columns_int8(packed, x, &bias, y, path);
                    REQUIRE(y.rows() == rows);
                    REQUIRE(y.cols() == K);
                    const Matrix expected = scalar_int8_product(rows, cols, w, scales, x, &bias);
                    CHECK(std::memcmp(y.data(), expected.data(), sizeof(float) * y.size()) == 0);
                    Matrix no_bias;
                    affine_columns_int8(packed, x, nullptr, no_bias, path);
                    const Matrix expected_no_bias = scalar_int8_product(rows, cols, w, scales, x, nullptr);
                    CHECK(std::memcmp(no_bias.data(), expected_no_bias.data(), sizeof(float) * no_bias.size()) == 0);
                    // Against the float product in double precision: x is off by at
                    // most s_x / 2 per value, so y by s_x / 2 * sum_j |w_rj|, plus
                    // float rounding.
                    for (int k = 0; k < K; ++k) {
                        const double s_x = x.col(k).cwiseAbs().maxCoeff() / int16_levels_for(cols);
                        for (int r = 0; r < rows; ++r) {
                            double reference = bias(r, 0), magnitude = std::fabs(bias(r, 0));
                            for (int j = 0; j < cols; ++j) {
                                reference += double(dequantized(r, j)) * double(x(j, k));
                                magnitude += std::fabs(double(dequantized(r, j)) * double(x(j, k)));
                            }
                            const double bound = s_x / 2 * dequantized.row(r).cwiseAbs().cast<double>().sum() + 4e-7 * magnitude;
                            CHECK(std::fabs(double(y(r, k)) - reference) <= bound);
                        }
                    }
                    if (K == 3) CHECK(y.col(1) == bias.col(0));
                }
            }
        }
    }
    std::vector<int8_t> wide(static_cast<size_t>(kMaxInt8Columns + 1), 1);
    const std::vector<float> one_scale = {1.0f};
    CHECK(pack_int8_rows(1, kMaxInt8Columns + 1, wide.data(), one_scale.data()).empty());  // an int32 sum could overflow
}

TEST_CASE("int16 quantization: the SIMD and the plain C++ paths give the same values, halves rounded to even") {
    std::mt19937 random(11);
    std::uniform_real_distribution<float> value(-3.0f, 3.0f);
    for (int n : {1, 3, 4, 7, 8, 9, 16, 33, 577}) {
        for (int levels : {7, 32767}) {
            std::vector<float> x(n);
            for (auto& v : x) v = value(random);
            x[0] = -static_cast<float>(levels);  // max |x| = levels: the scale is 1, so halves below are exact
            if (n > 2) x[1] = 2.5f;              // rounds to 2 (even), not 3
            if (n > 3) x[2] = -0.5f;             // rounds to -0
            std::vector<int16_t> best(n), scalar(n);
            const float best_scale = quantize_int16(x.data(), n, levels, best.data(), KernelPath::kBest);
            const float scalar_scale = quantize_int16(x.data(), n, levels, scalar.data(), KernelPath::kScalar);
            INFO("n ", n, ", levels ", levels);
            CHECK(best_scale == 1.0f);
            CHECK(scalar_scale == best_scale);
            CHECK(best == scalar);
            CHECK(best[0] == -levels);
            if (n > 2) CHECK(best[1] == 2);
            if (n > 3) CHECK(best[2] == 0);
        }
    }
    std::vector<float> zeros(9, 0.0f);
    std::vector<int16_t> q(9, 5);
    CHECK(quantize_int16(zeros.data(), 9, 100, q.data(), KernelPath::kScalar) == 0.0f);
    CHECK(q == std::vector<int16_t>(9, 0));
    // A NaN among finite values (a damaged model's weights can make one):
    // 0 on the plain path, never an undefined conversion (UBSan checks).
    std::vector<float> with_nan = {2.0f, std::nanf(""), -1.0f};
    std::vector<int16_t> nan_q(3, 5);
    CHECK(quantize_int16(with_nan.data(), 3, 100, nan_q.data(), KernelPath::kScalar) == 0.02f);
    CHECK(nan_q == std::vector<int16_t>{100, 0, -50});
}

TEST_CASE("int8 products: decoder_step uses them for an int8 model file only, close to the float path") {
    const Model model = scaled_model(21, 3);  // 21 rows: not a multiple of 8

    const auto float_bytes = serialize_model(model, TensorDtype::kFloat32);
    const auto copies = [](const Int8StepWeights& w) {
        return std::vector<const Int8Matrix*>{&w.attention_query, &w.decoder_input, &w.decoder_state,
                                              &w.output_hidden_weights, &w.output_weights};
    };
    const Model float_loaded = model_from_bytes(float_bytes.data(), float_bytes.size());
    for (const Int8Matrix* copy : copies(float_loaded.int8_step)) CHECK(copy->empty());
    CHECK(float_loaded.int8_step.empty());
    const auto bytes = serialize_model(model, TensorDtype::kInt8);
    const Model loaded = model_from_bytes(bytes.data(), bytes.size());
    for (const Int8Matrix* copy : copies(loaded.int8_step)) REQUIRE_FALSE(copy->empty());
    CHECK(loaded.int8_step.decoder_input.cols == loaded.config.embedding_size + loaded.config.context_size());

    const std::vector<int> source_tokens = {4, 7, 5, 9, 3};
    const EncodedSource encoded = encode_source(loaded.params, loaded.config, source_tokens);
    Matrix states(loaded.config.decoder_hidden_size, 2);
    states.col(0) = encoded.initial_state;
    states.col(1) = encoded.initial_state;
    DecoderStep step, float_step;
    const std::vector<std::vector<int>> previous = {{Vocabulary::kBos, Vocabulary::kBos}, {5, 9}, {8, 4}};
    for (const auto& tokens : previous) {
        // The same (dequantized) weights, through the int8 path and the float one.
        decoder_step(loaded.params, loaded.config, encoded, tokens, states, step, &loaded.int8_step);
        decoder_step(loaded.params, loaded.config, encoded, tokens, states, float_step);
        CHECK(step.log_probs != float_step.log_probs);  // the integer path ran
        CHECK((step.log_probs - float_step.log_probs).cwiseAbs().maxCoeff() <= 1e-3f);
        states = step.states;
    }
}

TEST_CASE("int8 products: a model loaded for translation only keeps the int8 copies alone, translates the same, "
          "refuses to be saved, and still checks every value") {
    const Model model = scaled_model(tiny_config(AttentionKind::kAdditive).target_vocab_size, 4);
    const auto bytes = serialize_model(model, TensorDtype::kInt8);

    const Model full = model_from_bytes(bytes.data(), bytes.size());
    const Model lean = model_from_bytes(bytes.data(), bytes.size(), LoadFor::kTranslation);
    CHECK_FALSE(full.translation_only);
    CHECK(lean.translation_only);
    // The step's matrices hold no float values; the encoder's and the keys' do.
    for (const Matrix* m : {&lean.params.attention_query, &lean.params.decoder.input_weights,
                            &lean.params.decoder.state_weights, &lean.params.output_hidden_weights,
                            &lean.params.output_weights}) {
        CHECK(m->size() == 0);
    }
    // The embeddings are kept as the file stores them: int8 rows and their scales, no float matrix.
    CHECK(lean.params.source_embedding.size() == 0);
    CHECK(lean.params.target_embedding.size() == 0);
    for (const auto& [kept, floats] : {std::pair{&lean.int8_step.source_embedding, &full.params.source_embedding},
                                       std::pair{&lean.int8_step.target_embedding, &full.params.target_embedding}}) {
        REQUIRE(kept->rows == floats->rows());
        REQUIRE(kept->cols == floats->cols());
        std::vector<float> column(static_cast<size_t>(kept->rows));
        for (int t = 0; t < kept->cols; ++t) {
            kept->column(t, column.data());
            CHECK(Eigen::Map<const Eigen::VectorXf>(column.data(), kept->rows) == floats->col(t));  // the same floats
        }
    }
    CHECK(full.int8_step.source_embedding.empty());
    CHECK(lean.params.attention_key.size() == full.params.attention_key.size());
    CHECK(lean.params.encoder_forward.input_weights == full.params.encoder_forward.input_weights);
    CHECK(lean.params.count() < full.params.count());

    for (int beam : {1, 3}) {
        DecodeOptions options;
        options.beam_size = beam;
        options.alternatives = 2;
        const std::vector<int> source_tokens = {4, 7, 5, 9, 3};
        const auto a = decode(full.params, full.config, source_tokens, options, &full.int8_step);
        const auto b = decode(lean.params, lean.config, source_tokens, options, &lean.int8_step);
        REQUIRE(a.size() == b.size());
        for (size_t i = 0; i < a.size(); ++i) {
            CHECK(a[i].tokens == b[i].tokens);
            CHECK(a[i].token_log_probs == b[i].token_log_probs);  // bit for bit: the same integer products
            CHECK(a[i].attention == b[i].attention);
        }
    }

    CHECK_THROWS_AS(serialize_model(lean, TensorDtype::kInt8), UsageError);
    CHECK_THROWS_WITH(serialize_model(lean, TensorDtype::kFloat32), doctest::Contains("translation only"));

    // A float file keeps its float weights: it has no int8 copies to use.
    const auto float_bytes = serialize_model(model, TensorDtype::kFloat32);
    const Model float_lean = model_from_bytes(float_bytes.data(), float_bytes.size(), LoadFor::kTranslation);
    CHECK(float_lean.params.output_weights.size() == full.params.output_weights.size());
    CHECK(float_lean.int8_step.empty());

    // Not decoding a tensor to float does not skip its checks: -128 in W_o.
    const ModelFileLayout layout = read_model_layout(bytes.data(), bytes.size());
    const auto w_o = std::find_if(layout.tensors.begin(), layout.tensors.end(),
                                  [](const TensorLayout& t) { return t.name == "output_weights"; });
    REQUIRE(w_o != layout.tensors.end());
    auto damaged = bytes;
    damaged[w_o->offset + 4 * w_o->rows + 3] = 0x80;  // row 0, column 3
    // Re-seal the checksum (model_file.h): the last 8 bytes, over every byte before them.
    const size_t covered = damaged.size() - 8;
    const uint64_t sum = word_hash64(damaged.data(), covered);
    for (int i = 0; i < 8; ++i) damaged[covered + i] = static_cast<uint8_t>(sum >> (8 * i));
    CHECK_THROWS_WITH_AS(model_from_bytes(damaged.data(), damaged.size(), LoadFor::kTranslation),
                         doctest::Contains("int8 value -128 at row 0, column 3"), ModelFileError);
    // Nor for an embedding kept in place: -128 in the source embedding.
    const auto embedding = std::find_if(layout.tensors.begin(), layout.tensors.end(),
                                        [](const TensorLayout& t) { return t.name == "source_embedding"; });
    REQUIRE(embedding != layout.tensors.end());
    damaged = bytes;
    damaged[embedding->offset + 4 * embedding->rows + embedding->cols + 2] = 0x80;  // row 1, column 2
    const uint64_t resealed = word_hash64(damaged.data(), covered);
    for (int i = 0; i < 8; ++i) damaged[covered + i] = static_cast<uint8_t>(resealed >> (8 * i));
    CHECK_THROWS_WITH_AS(model_from_bytes(damaged.data(), damaged.size(), LoadFor::kTranslation),
                         doctest::Contains("int8 value -128 at row 1, column 2"), ModelFileError);
}

TEST_CASE("int8 products: a model loaded from bytes it owns packs its int8 weights where they lie and translates "
          "bit for bit as a copying load, for as long as any copy of it lives") {
    for (int target_vocab_size : {24, 21}) {  // W_o's rows a multiple of 8 (packed in place) or not (copied)
        CAPTURE(target_vocab_size);
        Model model;
        model.config = tiny_config(AttentionKind::kAdditive);
        model.config.target_vocab_size = target_vocab_size;
        // Every step matrix has a row count that is a multiple of 8 and an even column count.
        set_architecture(model.config, 6, 4, 8, 8, 8, AttentionKind::kAdditive);
        set_placeholder_vocabularies(model);
        model.params = random_parameters(model.config, 9);
        model.params.output_weights *= 3.0f;
        const auto bytes = serialize_model(model, TensorDtype::kInt8);
        const Model copied = model_from_bytes(bytes.data(), bytes.size(), LoadFor::kTranslation);

        std::shared_ptr<uint8_t[]> owned(new uint8_t[bytes.size()]);
        std::memcpy(owned.get(), bytes.data(), bytes.size());
        const uint8_t* begin = owned.get();
        const uint8_t* end = begin + bytes.size();
        const auto inside = [&](const void* p) {
            return static_cast<const uint8_t*>(p) >= begin && static_cast<const uint8_t*>(p) < end;
        };
        std::optional<Model> in_place = model_from_owned_bytes(std::move(owned), bytes.size());
        CHECK(in_place->translation_only);
        const auto matrices = [](const Int8StepWeights& w) {
            return std::vector<const Int8Matrix*>{&w.attention_query, &w.decoder_input, &w.decoder_state,
                                                  &w.output_hidden_weights, &w.output_weights};
        };
        const auto a = matrices(copied.int8_step), b = matrices(in_place->int8_step);
        for (size_t i = 0; i < a.size(); ++i) {
            CAPTURE(i);
            REQUIRE_FALSE(b[i]->empty());
            CHECK_FALSE(inside(a[i]->packed));
            // W_o with 21 rows would need padding: copied, as before.
            const bool padded = b[i] == &in_place->int8_step.output_weights && target_vocab_size % 8 != 0;
            CHECK(inside(b[i]->packed) == !padded);
            CHECK(inside(b[i]->scales) == !padded);
            REQUIRE(a[i]->rows == b[i]->rows);
            REQUIRE(a[i]->cols == b[i]->cols);
            CHECK(a[i]->x_levels == b[i]->x_levels);
            const size_t packed_bytes = static_cast<size_t>((a[i]->rows + 7) / 8) * 8 * ((a[i]->cols + 1) / 2 * 2);
            CHECK(std::memcmp(a[i]->packed, b[i]->packed, packed_bytes) == 0);
            CHECK(std::equal(a[i]->scales, a[i]->scales + a[i]->rows, b[i]->scales));
        }
        for (const Int8Embedding* e : {&in_place->int8_step.source_embedding, &in_place->int8_step.target_embedding}) {
            CHECK(inside(e->values));
            CHECK(inside(e->scales));
        }

        // A copy of the model keeps the bytes alive after the original is gone.
        const Model kept = *in_place;
        in_place.reset();
        for (int beam : {1, 3}) {
            DecodeOptions options;
            options.beam_size = beam;
            options.alternatives = 2;
            const std::vector<int> source_tokens = {4, 7, 5, 9, 3};
            const auto x = decode(copied.params, copied.config, source_tokens, options, &copied.int8_step);
            const auto y = decode(kept.params, kept.config, source_tokens, options, &kept.int8_step);
            REQUIRE(x.size() == y.size());
            for (size_t i = 0; i < x.size(); ++i) {
                CHECK(x[i].tokens == y[i].tokens);
                CHECK(x[i].token_log_probs == y[i].token_log_probs);
                CHECK(x[i].attention == y[i].attention);
            }
        }
    }
}

TEST_CASE("int8 products: packing in place gives pack_int8_rows's layout, and declines a shape that needs padding") {
    std::mt19937 random(11);
    std::uniform_int_distribution<int> value(-127, 127);
    // Pairs are packed eight at a time, then one at a time: 1, 4, 8 + 7,
    // 8 x 8 + 1 and 36 x 8 pairs.
    for (const auto& [rows, cols] : {std::pair{8, 2}, std::pair{16, 64}, std::pair{8, 30}, std::pair{24, 130},
                                     std::pair{16, 576}, std::pair{9, 64}, std::pair{16, 63}}) {
        CAPTURE(rows);
        CAPTURE(cols);
        auto w = std::make_shared<std::vector<int8_t>>(static_cast<size_t>(rows) * cols);
        for (auto& v : *w) v = static_cast<int8_t>(value(random));
        std::vector<float> scales(static_cast<size_t>(rows), 0.01f);
        const Int8Matrix copy = pack_int8_rows(rows, cols, w->data(), scales.data());
        const std::vector<int8_t> before = *w;
        const Int8Matrix in_place = pack_int8_rows_in_place(rows, cols, w->data(), scales.data(), w);
        if (rows % 8 != 0 || cols % 2 != 0) {
            CHECK(in_place.empty());
            CHECK(*w == before);  // declined: nothing touched
            continue;
        }
        REQUIRE_FALSE(in_place.empty());
        CHECK(in_place.packed == w->data());
        CHECK(std::memcmp(copy.packed, in_place.packed, w->size()) == 0);
    }
}
