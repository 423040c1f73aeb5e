// seq2seq bench: translation speed of a model (words/s, latency per
// sentence), the machine's GEMM rate, and the trainer's throughput in
// tokens/s and achieved GFLOPS. Ratios between runs are what matter: these
// machines are shared. `npm run bench` (bench/run.mjs) drives all three
// modes and puts them beside the WASM and TensorFlow.js figures.
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/decode_flags.h"
#include "common/error.h"
#include "decode/shortlist.h"
#include "decode/translator.h"
#include "kernels/tensor.h"
#include "corpus/parallel_corpus.h"
#include "text/tokenizer.h"
#include "train/trainer.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>

namespace s2s::cli {

namespace {
constexpr const char* kHelp = R"(usage: seq2seq bench --model PATH [--sentences FILE] [--beam N] [--repeat N] [--shortlist on|off] [--json]
       seq2seq bench --gemm-only [--gemm-size N] [--threads N] [--json]
       seq2seq bench --model PATH --train-data TSV [--steps N] [--threads N] [--batch-size N] [--json]

Translation (the default): translates each sentence (default: a built-in set
of English sentences) --repeat times and reports words per second and mean
latency, then the machine's GEMM rate (Eigen, --gemm-size, default 512, on
--threads threads, default 1) as a reference.

--gemm-only: only the GEMM rate (a --gemm-size square product; with
--threads N the columns of the result are split over N threads).

--train-data: trains the model's architecture (starting from its weights,
with its vocabularies) on the pairs of TSV for --steps steps (default 100,
after 5 warm-up steps) and reports tokens/s and the achieved GFLOPS, counted
analytically from the model's sizes and each batch's real sentence lengths:
forward multiply-adds x 2, times 3 for forward + backward. Padding is not
counted. Nothing is written.

--shortlist on|off: translation with or without the model's lexical
shortlist, when it has one (default on; docs/cli.md).

Every mode reports the process's peak resident memory (peak_rss_bytes).
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

long peak_rss_bytes() {
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss * 1024L;  // Linux reports kilobytes
}

// C = A * B for n x n matrices; with several threads each computes its own
// block of C's columns (Eigen itself is built without OpenMP here).
double gemm_gflops(int n, int threads, double min_seconds) {
    const Matrix a = Matrix::Random(n, n), b = Matrix::Random(n, n);
    Matrix c(n, n);
    const auto multiply = [&] {
        if (threads == 1) {
            c.noalias() = a * b;
            return;
        }
        std::vector<std::thread> workers;
        for (int t = 0; t < threads; ++t) {
            const int begin = n * t / threads, end = n * (t + 1) / threads;
            workers.emplace_back([&, begin, end] { c.middleCols(begin, end - begin).noalias() = a * b.middleCols(begin, end - begin); });
        }
        for (auto& w : workers) w.join();
    };
    multiply();  // warm-up
    int repeats = 0;
    const auto start = std::chrono::steady_clock::now();
    do {
        multiply();
        ++repeats;
    } while (seconds_since(start) < min_seconds);
    return 2.0 * n * n * n * repeats / seconds_since(start) / 1e9;
}

// Forward floating-point operations of one training pair (multiply-adds of
// every matrix product counted as 2), from the code in src/model: the
// encoder's two GRUs and key projection per source token, the decoder's
// GRU, query, deep output and logits per target token, and the additive
// attention's scores and context per (target, source) pair.
double forward_flops(const ModelConfig& c, double S, double T) {
    const double E = c.embedding_size, H = c.encoder_hidden_size, C = c.context_size(), D = c.decoder_hidden_size;
    const double A = c.attention_size, P = c.output_hidden_size, V = c.target_vocab_size;
    const bool additive = c.attention == AttentionKind::kAdditive;
    const bool general = c.attention == AttentionKind::kGeneral;
    const bool attends = c.attention != AttentionKind::kNone;
    double per_source = 2.0 * (3 * H * E + 3 * H * H);  // two directions, input and state products
    if (additive) per_source += A * C;
    if (general) per_source += D * C;
    double per_target = 3 * D * (E + C) + 3 * D * D + P * (D + C + E) + V * P;
    if (additive) per_target += A * D;
    double per_pair = 0.0;
    if (attends) per_pair = (additive ? A : C) + C;  // scores, then the weighted sum of H
    return 2.0 * (per_source * S + per_target * T + per_pair * S * T + D * C);
}

nlohmann::json run_gemm(int size, int threads) {
    return {{"gemm_size", size}, {"threads", threads}, {"gemm_gflops", gemm_gflops(size, threads, 1.0)}};
}

nlohmann::json run_training(Model& model, const std::string& data_path, long steps, int threads, int batch_size) {
    std::vector<Example> examples;
    for (const SentencePair& pair : read_sentence_pairs(data_path)) {
        auto source = tokenize(pair.source, model.source_tokenizer);
        auto target = tokenize(pair.target, model.target_tokenizer);
        if (source.empty() || target.empty() || count_words(source) > 40) continue;
        Example e{model.source_vocabulary.encode(source), model.target_vocabulary.encode(target)};
        e.source.push_back(Vocabulary::kEos);
        e.target.push_back(Vocabulary::kEos);
        examples.push_back(std::move(e));
    }
    TrainerOptions options;
    options.batch_size = batch_size;
    options.threads = threads;
    options.total_steps = steps + 5;
    options.warmup_steps = 400;
    Trainer trainer(model, examples, options);
    // The trainer's batches, replayed from the same seed, for the FLOP count.
    BatchSchedule replay(examples, batch_size, options.seed);
    long epoch = 0, index = 0;
    const auto next_batch = [&]() -> const std::vector<const Example*>& {
        const auto& batch = replay.batch(epoch, index);
        if (++index >= replay.batches_per_epoch()) {
            index = 0;
            ++epoch;
        }
        return batch;
    };
    for (int w = 0; w < 5; ++w) {
        trainer.step();
        next_batch();
    }
    long source_tokens = 0, target_tokens = 0, pairs = 0;
    double flops = 0.0;
    const auto start = std::chrono::steady_clock::now();
    for (long s = 0; s < steps; ++s) {
        const StepReport report = trainer.step();
        source_tokens += report.source_tokens;
        target_tokens += report.target_tokens;
    }
    const double seconds = seconds_since(start);
    long replay_source = 0, replay_target = 0;
    for (long s = 0; s < steps; ++s) {
        for (const Example* e : next_batch()) {
            const double S = static_cast<double>(e->source.size()), T = static_cast<double>(e->target.size());
            flops += 3.0 * forward_flops(model.config, S, T);
            replay_source += static_cast<long>(e->source.size());
            replay_target += static_cast<long>(e->target.size());
            ++pairs;
        }
    }
    const bool replay_matches = replay_source == source_tokens && replay_target == target_tokens;
    return {{"steps", steps},
            {"threads", threads},
            {"batch_size", batch_size},
            {"training_pairs", examples.size()},
            {"seconds", seconds},
            {"source_tokens", source_tokens},
            {"target_tokens", target_tokens},
            {"tokens_per_second", (source_tokens + target_tokens) / seconds},
            {"pairs_per_second", pairs / seconds},
            {"flops_per_token", flops / static_cast<double>(source_tokens + target_tokens)},
            {"gflops", replay_matches ? flops / seconds / 1e9 : 0.0},
            {"flop_count_checked", replay_matches}};
}
}  // namespace

int run_bench(const std::vector<std::string>& argv) {
    const Args args("bench", argv,
                    {"model", "sentences", "beam", "repeat", "gemm-size", "threads", "train-data", "steps", "batch-size", "shortlist"},
                    {"json", "help", "gemm-only"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const int gemm_size = static_cast<int>(args.integer("gemm-size", 512, 16, 8192));
    const int threads = static_cast<int>(args.integer("threads", 1, 1, 64));
    nlohmann::json result;
    if (args.has("gemm-only")) {
        result = run_gemm(gemm_size, threads);
    } else if (args.has("train-data")) {
        Model model = load_model(args.required("model"));
        result = run_training(model, args.string("train-data", ""), args.integer("steps", 100, 1, 1000000), threads,
                              static_cast<int>(args.integer("batch-size", 64, 1, 4096)));
    } else {
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
        DecodeOptions options = read_decode_flags(args, decode_defaults(model));
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
        // The shortlist's mean rows of W_o per sentence (8 per block), outside the timing.
        double shortlist_rows = 0.0;
        if (options.shortlist && model.target_shortlist && !model.int8_step.output_weights.empty()) {
            for (const auto& s : sentences) {
                std::vector<int> ids = model.source_vocabulary.encode(tokenize(s, model.source_tokenizer));
                ids.push_back(Vocabulary::kEos);
                shortlist_rows += 8.0 * static_cast<double>(
                    shortlist_blocks(*model.target_shortlist, ids, model.config.target_vocab_size).size());
            }
            shortlist_rows /= static_cast<double>(sentences.size());
        }
        result = {{"beam", options.beam_size},
                  {"shortlist", options.shortlist && model.target_shortlist.has_value()},
                  {"shortlist_rows_per_sentence", shortlist_rows},
                  {"sentences", sentences.size()},
                  {"repeat", repeat},
                  {"words_per_second", words / seconds},
                  {"ms_per_sentence", 1000.0 * seconds / translations}};
        const nlohmann::json gemm = run_gemm(gemm_size, threads);
        if (threads == 1) result["gemm_gflops_one_thread"] = gemm["gemm_gflops"];
        result["gemm"] = gemm;
    }
    result["peak_rss_bytes"] = peak_rss_bytes();

    if (args.has("json")) {
        std::cout << result.dump(2) << '\n';
    } else if (result.contains("words_per_second")) {
        std::printf("beam %d: %.0f source words/s, %.2f ms per sentence (%zu sentences x %ld)",
                    result["beam"].get<int>(), result["words_per_second"].get<double>(),
                    result["ms_per_sentence"].get<double>(), result["sentences"].get<size_t>(),
                    result["repeat"].get<long>());
        if (result["shortlist"].get<bool>()) {
            std::printf(", shortlist: %.0f rows of W_o per sentence", result["shortlist_rows_per_sentence"].get<double>());
        }
        std::printf("\n");
        std::printf("GEMM %dx%d (%d thread%s): %.1f GFLOPS\n", gemm_size, gemm_size, threads, threads == 1 ? "" : "s",
                    result["gemm"]["gemm_gflops"].get<double>());
    } else if (result.contains("tokens_per_second")) {
        std::printf("training (%d thread%s, batch %d): %.0f tokens/s, %.2f GFLOPS (%.0f FLOPs per token)\n", threads,
                    threads == 1 ? "" : "s", result["batch_size"].get<int>(), result["tokens_per_second"].get<double>(),
                    result["gflops"].get<double>(), result["flops_per_token"].get<double>());
    } else {
        std::printf("GEMM %dx%d (%d thread%s): %.1f GFLOPS\n", gemm_size, gemm_size, threads, threads == 1 ? "" : "s",
                    result["gemm_gflops"].get<double>());
    }
    return 0;
}

}  // namespace s2s::cli
