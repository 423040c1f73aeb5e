// The inference path: the portable kernels (WebAssembly's path, kernels.h)
// against Eigen and double-precision references, and the one-step decoder (decoder_step, which beam search
// runs) against the training forward pass it must equal.
#include "model/decoder.h"
#include "kernels/kernels.h"
#include "test_helpers.h"
#include "text/vocabulary.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace s2s;
using namespace s2s::testing;

namespace {

Matrix reference_log_softmax(const Matrix& logits) {
    Matrix out = logits;
    for (Eigen::Index k = 0; k < out.cols(); ++k) {
        const double max_value = out.col(k).maxCoeff();
        double total = 0.0;
        for (Eigen::Index i = 0; i < out.rows(); ++i) total += std::exp(double(out(i, k)) - max_value);
        for (Eigen::Index i = 0; i < out.rows(); ++i) out(i, k) = float(double(out(i, k)) - max_value - std::log(total));
    }
    return out;
}

}  // namespace

TEST_CASE("kernels: the portable matrix product equals Eigen's, with and without a bias, for any shape") {
    for (int rows : {1, 7, 8, 31, 32, 33, 77, 130}) {
        for (int cols : {1, 5, 64}) {
            const Matrix a = Matrix::Random(rows, cols), bias = Matrix::Random(rows, 1);
            for (int K : {1, 2, 5}) {
                const Matrix x = Matrix::Random(cols, K);
                Matrix y(3, 3);  // resized by the call
                affine_columns_portable(a, x, &bias, y);
                const Matrix expected = (a * x).colwise() + bias.col(0);
                INFO(rows << " x " << cols << ", K " << K);
                REQUIRE(y.rows() == rows);
                REQUIRE(y.cols() == K);
                CHECK((y - expected).cwiseAbs().maxCoeff() <= 1e-5f * cols);
                affine_columns_portable(a, x, nullptr, y);
                CHECK((y - a * x).cwiseAbs().maxCoeff() <= 1e-5f * cols);
                Matrix native;
                affine_columns(a, x, &bias, native);
                CHECK((native - expected).cwiseAbs().maxCoeff() <= 1e-5f * cols);
            }
        }
    }
}

TEST_CASE("kernels: the portable matrix product sweeps A in tiles of columns and still equals Eigen's") {
    // More than one tile of 16 columns of A (y holds the partial sums between
    // tiles), K = 1 (greedy) to 5 hypotheses, row counts around the 32- and
    // 8-row blocks. (That the tiles keep each sum's order, bias first then j
    // ascending, shows in WebAssembly, whose translations stay bit-identical;
    // a native build may contract a * x + acc into an FMA, so not here.)
    for (int rows : {1, 7, 8, 13, 40, 67, 100, 257}) {
        for (int cols : {15, 16, 17, 31, 32, 33, 64, 70, 130}) {
            const Matrix a = Matrix::Random(rows, cols), bias = Matrix::Random(rows, 1);
            for (int K : {1, 2, 3, 4, 5}) {
                const Matrix x = Matrix::Random(cols, K);
                INFO(rows << " x " << cols << ", K " << K);
                Matrix y;
                affine_columns_portable(a, x, &bias, y);
                const Matrix expected = (a * x).colwise() + bias.col(0);
                REQUIRE(y.rows() == rows);
                REQUIRE(y.cols() == K);
                CHECK((y - expected).cwiseAbs().maxCoeff() <= 1e-5f);
                affine_columns_portable(a, x, nullptr, y);
                CHECK((y - a * x).cwiseAbs().maxCoeff() <= 1e-5f);
            }
        }
    }
}

TEST_CASE("kernels: log softmax matches a double-precision reference, including extreme logits") {
    for (int rows : {1, 3, 8, 9, 1000}) {
        Matrix logits = Matrix::Random(rows, 3) * 20.0f;
        logits(0, 1) = -1e30f;  // how search.cpp forbids a token (after the softmax, but any value must work)
        if (rows > 2) logits(2, 2) = 80.0f;
        if (rows > 3) logits(3, 2) = -150.0f;  // below exp's range: contributes nothing
        const Matrix expected = reference_log_softmax(logits);
        Matrix portable = logits, native = logits;
        log_softmax_columns_portable(portable);
        log_softmax_columns(native);
        INFO("rows " << rows);
        CHECK((portable - expected).cwiseAbs().maxCoeff() <= 2e-5f * (1.0f + expected.cwiseAbs().maxCoeff() * 1e-6f));
        CHECK((native - expected).cwiseAbs().maxCoeff() <= 2e-5f * (1.0f + expected.cwiseAbs().maxCoeff() * 1e-6f));
        for (Eigen::Index k = 0; k < portable.cols(); ++k) {
            CHECK(portable.col(k).array().exp().sum() == doctest::Approx(1.0).epsilon(1e-5));
        }
    }
}

TEST_CASE("kernels: softmax matches a double-precision reference") {
    for (int rows : {1, 3, 8, 13, 40}) {
        Matrix scores = Matrix::Random(rows, 3) * 10.0f;
        if (rows > 2) scores(2, 1) = -150.0f;  // below exp's range
        Matrix expected = scores;
        for (Eigen::Index k = 0; k < scores.cols(); ++k) {
            const double max_value = scores.col(k).maxCoeff();
            double total = 0.0;
            for (Eigen::Index i = 0; i < rows; ++i) total += std::exp(double(scores(i, k)) - max_value);
            for (Eigen::Index i = 0; i < rows; ++i) expected(i, k) = float(std::exp(double(scores(i, k)) - max_value) / total);
        }
        Matrix portable = scores, native = scores;
        softmax_columns_portable(portable);
        softmax_columns(native);
        INFO("rows " << rows);
        CHECK((portable - expected).cwiseAbs().maxCoeff() <= 1e-6f);
        CHECK((native - expected).cwiseAbs().maxCoeff() <= 1e-6f);
    }
}

TEST_CASE("kernels: tanh equals Eigen's and std::tanh, over the whole range and any size") {
    for (int rows : {1, 7, 8, 9, 100}) {
        Matrix m = Matrix::Random(rows, 3) * 6.0f;
        m(0, 0) = 0.0f;
        m(0, 1) = 1e-5f;  // below 0.0004 tanh(x) = x
        m(0, 2) = -30.0f;
        if (rows > 1) m(1, 0) = 30.0f;
        Matrix portable = m, native = m;
        tanh_in_place_portable(portable);
        tanh_in_place(native);
        INFO("rows " << rows);
        CHECK((portable - native).cwiseAbs().maxCoeff() <= 1e-6f);
        for (Eigen::Index i = 0; i < m.size(); ++i) CHECK(portable.data()[i] == doctest::Approx(std::tanh(m.data()[i])).epsilon(1e-6));
        CHECK(portable.cwiseAbs().maxCoeff() <= 1.0f);
    }
}

TEST_CASE("kernels: the portable GRU cell equals Eigen's, with and without its gates") {
    for (int hidden : {1, 5, 8, 13, 64}) {
        for (int K : {1, 3}) {
            const Matrix x = Matrix::Random(3 * hidden, K) * 4.0f, p = Matrix::Random(3 * hidden, K) * 4.0f;
            const Matrix h = Matrix::Random(hidden, K);
            Matrix native_out(hidden, K), native_gates(3 * hidden, K), out(hidden, K), gates(3 * hidden, K);
            MatrixRef native_gates_ref(native_gates), gates_ref(gates);
            gru_cell_columns(x, p, h, native_out, &native_gates_ref);
            gru_cell_columns_portable(x, p, h, out, &gates_ref);
            INFO("hidden " << hidden << ", K " << K);
            CHECK((out - native_out).cwiseAbs().maxCoeff() <= 1e-6f);
            CHECK((gates - native_gates).cwiseAbs().maxCoeff() <= 1e-6f);
            Matrix without_gates(hidden, K);
            gru_cell_columns_portable(x, p, h, without_gates, nullptr);
            CHECK((without_gates - out).cwiseAbs().maxCoeff() == 0.0f);
            // Against the equations of gru.h, in double precision.
            for (int k = 0; k < K; ++k) {
                for (int i = 0; i < hidden; ++i) {
                    const double r = 1.0 / (1.0 + std::exp(-double(x(i, k) + p(i, k))));
                    const double z = 1.0 / (1.0 + std::exp(-double(x(hidden + i, k) + p(hidden + i, k))));
                    const double n = std::tanh(double(x(2 * hidden + i, k)) + r * p(2 * hidden + i, k));
                    CHECK(out(i, k) == doctest::Approx(n + z * (h(i, k) - n)).epsilon(1e-5));
                }
            }
        }
    }
}

TEST_CASE("kernels: the portable additive attention scores equal Eigen's") {
    for (int A : {1, 5, 8, 13, 128}) {
        for (int S : {1, 7}) {
            const Matrix keys = Matrix::Random(A, S) * 3.0f, query = Matrix::Random(A, 3) * 3.0f;
            const Matrix v = Matrix::Random(A, 1);
            Matrix portable, native;
            additive_scores_portable(keys, query, v, portable);
            additive_scores(keys, query, v, native);
            INFO("A " << A << ", S " << S);
            REQUIRE(portable.rows() == S);
            REQUIRE(portable.cols() == 3);
            CHECK((portable - native).cwiseAbs().maxCoeff() <= 1e-6f * A);
            for (int k = 0; k < 3; ++k) {
                for (int i = 0; i < S; ++i) {
                    double expected = 0.0;
                    for (int a = 0; a < A; ++a) expected += double(v(a)) * std::tanh(double(keys(a, i)) + query(a, k));
                    CHECK(portable(i, k) == doctest::Approx(expected).epsilon(1e-5).scale(1.0));
                }
            }
        }
    }
}

TEST_CASE("kernels: the matrix product reads x through a block of columns") {
    const Matrix a = Matrix::Random(40, 16), bias = Matrix::Random(40, 1), sequence = Matrix::Random(16, 9);
    Matrix portable, native;
    affine_columns_portable(a, sequence.middleCols(3, 2), &bias, portable);
    affine_columns(a, sequence.middleCols(3, 2), &bias, native);
    const Matrix expected = (a * sequence.middleCols(3, 2)).colwise() + bias.col(0);
    CHECK((portable - expected).cwiseAbs().maxCoeff() <= 1e-5f * 16);
    CHECK((native - expected).cwiseAbs().maxCoeff() <= 1e-5f * 16);
}

TEST_CASE("decoder_step equals the training forward pass, step by step, for K hypotheses at once") {
    for (AttentionKind attention : {AttentionKind::kAdditive, AttentionKind::kDot, AttentionKind::kScaledDot,
                                    AttentionKind::kGeneral, AttentionKind::kNone}) {
        INFO(attention_kind_name(attention));
        const ModelConfig config = tiny_config(attention);
        Parameters params = random_parameters(config, 17);
        params.output_weights *= 3.0f;
        const std::vector<int> source = {4, 7, 5, 9, 3};
        // Two hypotheses with different histories, decoded side by side.
        const std::vector<std::vector<int>> targets = {{5, 8, 6, 3}, {9, 4, 10, 3}};

        std::vector<Matrix> expected_log_probs, expected_attention;
        for (const auto& target : targets) {
            TokenBatch src{static_cast<int>(source.size()), 1, source, std::vector<float>(source.size(), 1.0f)};
            std::vector<int> inputs = {Vocabulary::kBos};
            inputs.insert(inputs.end(), target.begin(), target.end() - 1);
            TokenBatch in{static_cast<int>(inputs.size()), 1, inputs, std::vector<float>(inputs.size(), 1.0f)};
            EncoderActivations encoder;
            encoder_forward(params, config, src, 0.0f, nullptr, encoder);
            DecoderActivations decoder;
            decoder_forward(params, config, encoder, in, 0.0f, nullptr, decoder);
            expected_log_probs.push_back(reference_log_softmax(decoder.logits));
            expected_attention.push_back(decoder.attention_weights);
        }

        const EncodedSource encoded = encode_source(params, config, source);
        Matrix states(config.decoder_hidden_size, 2);
        states.col(0) = encoded.initial_state;
        states.col(1) = encoded.initial_state;
        DecoderStep step;
        for (size_t t = 0; t < targets[0].size(); ++t) {
            std::vector<int> previous;
            for (const auto& target : targets) previous.push_back(t == 0 ? Vocabulary::kBos : target[t - 1]);
            decoder_step(params, config, encoded, previous, states, step);
            for (int k = 0; k < 2; ++k) {
                INFO("step " << t << ", hypothesis " << k);
                CHECK((step.log_probs.col(k) - expected_log_probs[k].col(t)).cwiseAbs().maxCoeff() <= 1e-4f);
                if (attention == AttentionKind::kNone) {
                    CHECK(step.attention.rows() == 0);
                } else {
                    CHECK((step.attention.col(k) - expected_attention[k].col(t)).cwiseAbs().maxCoeff() <= 1e-5f);
                }
            }
            states = step.states;
        }
    }
}
