// The decoder step's kernels one by one, at en-fr's sizes, for 1 and 4
// hypotheses: `npm run bench:kernels` (bench/kernels.mjs) builds this file
// three ways (-march=native, -msse4.2, WebAssembly SIMD128), runs each and
// writes bench/kernels.md. Prints JSON: {"engine", "kernels": [{name, k, us}]}.
// The weights are random (the time of these kernels does not depend on the
// values); the sizes are en-fr's (models/en-fr.s2s) with a 20-word source.
#include "kernels/int8_kernels.h"
#include "kernels/kernels.h"

#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace s2s;

namespace {

// Mean microseconds per call over at least 0.2 s, after 20 calls of warm-up.
double time_us(const std::function<void()>& f) {
    for (int i = 0; i < 20; ++i) f();
    const auto start = std::chrono::steady_clock::now();
    long calls = 0;
    double seconds = 0.0;
    do {
        for (int i = 0; i < 10; ++i) f();
        calls += 10;
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    } while (seconds < 0.2);
    return 1e6 * seconds / static_cast<double>(calls);
}

std::mt19937 rng(1);

Matrix gaussian(int rows, int cols, float sigma) {
    std::normal_distribution<float> normal(0.0f, sigma);
    Matrix m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
    return m;
}

Int8Matrix int8_matrix(int rows, int cols) {
    std::uniform_int_distribution<int> value(-63, 63);
    std::vector<int8_t> w(static_cast<size_t>(rows) * cols);
    for (auto& v : w) v = static_cast<int8_t>(value(rng));
    const std::vector<float> scales(rows, 0.01f);
    return pack_int8_rows(rows, cols, w.data(), scales.data());
}

}  // namespace

int main(int argc, char** argv) {
    const std::string engine = argc > 1 ? argv[1] : "native";  // a label, printed back
    // en-fr: E 64, C 256, D 256, A 128, P 128, 10,000 target words; a source of 20 tokens.
    const int E = 64, C = 256, D = 256, A = 128, P = 128, V = 10000, S = 20;
    const Int8Matrix output = int8_matrix(V, P), gru_input = int8_matrix(3 * D, E + C), gru_state = int8_matrix(3 * D, D),
                     deep_output = int8_matrix(P, D + C + E), query = int8_matrix(A, D);
    const Matrix output_bias = gaussian(V, 1, 0.1f), keys = gaussian(A, S, 1.0f), v = gaussian(A, 1, 0.3f);
    const Matrix states = gaussian(C, S, 0.5f);
    std::printf("{\"engine\": \"%s\", \"kernels\": [\n", engine.c_str());
    bool first = true;
    for (int K : {1, 4}) {
        const Matrix hidden = gaussian(P, K, 0.5f), step_input = gaussian(E + C, K, 0.5f), state = gaussian(D, K, 0.5f),
                     output_input = gaussian(D + C + E, K, 0.5f), logits = gaussian(V, K, 4.0f);
        const Matrix projected_query = gaussian(A, K, 1.0f);
        Matrix y, log_probs = logits, scores, contexts, projected;
        Matrix gates_x = gaussian(3 * D, K, 1.0f), gates_h = gaussian(3 * D, K, 1.0f), new_state(D, K);
        const Matrix attention = [&] { Matrix a = gaussian(S, K, 1.0f); softmax_columns(a); return a; }();
        const std::vector<std::pair<const char*, std::function<void()>>> kernels = {
            {"output layer, int8 (10000 x 128)", [&] { affine_columns_int8(output, hidden, &output_bias, y); }},
            // In place, again and again: log softmax of a log softmax is itself.
            {"log softmax over 10000 words", [&] { log_softmax_columns(log_probs); }},
            {"GRU input product, int8 (768 x 320)", [&] { affine_columns_int8(gru_input, step_input, nullptr, y); }},
            {"GRU state product, int8 (768 x 256)", [&] { affine_columns_int8(gru_state, state, nullptr, y); }},
            {"GRU cell (gates and new state, 256 units)", [&] { gru_cell_columns(gates_x, gates_h, state, new_state, nullptr); }},
            {"deep output, int8 (128 x 576)", [&] { affine_columns_int8(deep_output, output_input, nullptr, y); }},
            {"attention query, int8 (128 x 256)", [&] { affine_columns_int8(query, state, nullptr, projected); }},
            {"additive scores (20 source words x 128)", [&] { additive_scores(keys, projected_query, v, scores); }},
            {"context: 256 x 20 states times the weights", [&] { affine_columns(states, attention, nullptr, contexts); }},
        };
        for (const auto& [name, f] : kernels) {
            std::printf("%s  {\"name\": \"%s\", \"k\": %d, \"us\": %.3f}", first ? "" : ",\n", name, K, time_us(f));
            first = false;
        }
    }
    std::printf("\n]}\n");
}
