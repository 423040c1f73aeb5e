// seq2seq bench: translation speed of a model (words/s, latency per
// sentence) and, for reference, the machine's single-thread GEMM rate.
// Ratios between runs are what matter: these machines are shared.
#include "cli/args.h"
#include "cli/commands.h"
#include "common/error.h"
#include "decode/translator.h"
#include "model/tensor.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

namespace s2s::cli {

namespace {
constexpr const char* kHelp = R"(usage: seq2seq bench --model PATH [--sentences FILE] [--beam N] [--repeat N] [--json]

Translates each sentence (default: a built-in set of English sentences)
--repeat times and reports words per second and mean latency, then the
machine's GEMM rate (Eigen, 512x512, one thread) as a reference.
)";

const std::vector<std::string> kDefaultSentences = {
    "go .", "i lost .", "he's calm .", "i'm home .", "i love deep learning .",
    "we have to leave before it gets dark .",
    "she told me that she had never seen such a beautiful city before .",
    "if you want to learn a language well , you have to speak it every day with people who know it .",
};

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double gemm_gflops() {
    const int n = 512;
    const Matrix a = Matrix::Random(n, n), b = Matrix::Random(n, n);
    Matrix c(n, n);
    c.noalias() = a * b;  // warm-up
    int repeats = 0;
    const auto start = std::chrono::steady_clock::now();
    do {
        c.noalias() = a * b;
        ++repeats;
    } while (seconds_since(start) < 0.5);
    return 2.0 * n * n * n * repeats / seconds_since(start) / 1e9;
}
}  // namespace

int run_bench(const std::vector<std::string>& argv) {
    const Args args("bench", argv, {"model", "sentences", "beam", "repeat"}, {"json", "help"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const Model model = load_model(args.required("model"));
    std::vector<std::string> sentences = kDefaultSentences;
    if (args.has("sentences")) {
        std::ifstream in(args.string("sentences", ""));
        if (!in) throw IoError("cannot open " + args.string("sentences", ""));
        sentences.clear();
        for (std::string line; std::getline(in, line);) {
            if (!line.empty()) sentences.push_back(line);
        }
        if (sentences.empty()) throw DataError("no sentences in " + args.string("sentences", ""));
    }
    DecodeOptions options;
    options.beam_size = static_cast<int>(args.integer("beam", 1, 1, DecodeOptions::kMaxBeamSize));
    const long repeat = args.integer("repeat", 20, 1, 1000000);

    long words = 0;
    translate(model, sentences.front(), options);  // warm-up
    const auto start = std::chrono::steady_clock::now();
    for (long r = 0; r < repeat; ++r) {
        for (const auto& s : sentences) {
            const Translation t = translate(model, s, options);
            words += static_cast<long>(t.source_tokens.size()) - 1;
        }
    }
    const double seconds = seconds_since(start);
    const double translations = static_cast<double>(repeat * sentences.size());
    const double gflops = gemm_gflops();
    const nlohmann::json result = {{"beam", options.beam_size},
                                   {"sentences", sentences.size()},
                                   {"repeat", repeat},
                                   {"words_per_second", words / seconds},
                                   {"ms_per_sentence", 1000.0 * seconds / translations},
                                   {"gemm_gflops_one_thread", gflops}};
    if (args.has("json")) {
        std::cout << result.dump(2) << '\n';
    } else {
        std::printf("beam %d: %.0f source words/s, %.2f ms per sentence (%zu sentences x %ld)\n", options.beam_size,
                    words / seconds, 1000.0 * seconds / translations, sentences.size(), repeat);
        std::printf("GEMM 512x512 (one thread): %.1f GFLOPS\n", gflops);
    }
    return 0;
}

}  // namespace s2s::cli
