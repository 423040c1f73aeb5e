// The Embind surface of the training module (s2s-train): the project's own
// C++ trainer, in the browser. src/wasm/index.js wraps it as createTrainer()
// and train(); the page's Train view (web/train.html) runs it in a worker.
//
//   new TrainingRun(optionsJson)   builds a task (src/train/tasks.h) and a
//                                  fresh model; loadError() says why not
//   run.step(count)                trains `count` batches: mean loss, tokens
//   run.evaluate(limit)            greedy exact match on held-out examples,
//                                  overall and by source length
//   run.translate(text, opts)      as Session.translate (bindings.cpp)
//   run.probes(count)              held-out sources and targets, as text
//   run.modelBytes()               the model as a .s2s file (a view into the
//                                  heap: copy it at once)
//   run.info()                     options, sizes, steps done
//   limits()                       as the translator module's (bindings.cpp)
//   trainingOptions()              the names TrainingRun's options may have
//                                  (JSON array): trainer.js names them in
//                                  its message for an unknown one
//
// Every fallible call returns an envelope (src/wasm/envelope.h). The module
// has no threads: a step runs on the caller's thread, so callers run it in a
// Web Worker and take small steps to stay responsive.
#include "decode/search.h"
#include "model/model.h"
#include "train/tasks.h"
#include "train/trainer.h"
#include "wasm/envelope.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace s2s::wasm {
namespace {

// Options of a training run, with the defaults the page uses. Sizes are
// deliberately small: the default task learns in well under a minute.
struct RunOptions {
    std::string task = "reversal";  // "reversal", "dates", "pairs"
    std::string pairs;              // task "pairs": source TAB target lines
    bool characters = false;        // task "pairs": characters instead of words
    int symbols = 8, min_length = 3, max_length = 12;  // task "reversal"
    int train_size = 4000, test_size = 200;
    AttentionKind attention = AttentionKind::kAdditive;
    int embedding = 16, hidden = 32, decoder_hidden = 64, attention_size = 32, output_hidden = 32;
    TrainerOptions trainer;
};

int bounded(const json& options, const char* name, int fallback, int low, int high) {
    const int value = integer_option(options, name, fallback);
    if (value < low || value > high) {
        throw UsageError(std::string("option ") + name + " must be from " + std::to_string(low) + " to " + std::to_string(high) +
                         ", but is " + std::to_string(value));
    }
    return value;
}

float bounded_number(const json& options, const char* name, float fallback, float low, float high) {
    auto it = options.find(name);
    if (it == options.end() || it->is_null()) return fallback;
    if (!it->is_number()) throw UsageError(std::string("option ") + name + " must be a number");
    const float value = it->get<float>();
    if (!(value >= low && value <= high)) {
        throw UsageError(std::string("option ") + name + " must be from " + std::to_string(low) + " to " + std::to_string(high));
    }
    return value;
}

// The options a run reads (parse_run_options): the one list of their names.
const std::vector<std::string>& run_option_names() {
    static const std::vector<std::string> names = {
        "task",  "pairs",         "characters",    "symbols",      "minLength",    "maxLength", "trainSize",
        "testSize", "attention",  "embedding",     "hidden",       "decoderHidden", "attentionSize",
        "outputHidden", "batchSize", "learningRate", "warmupSteps", "steps",        "dropout",   "seed"};
    return names;
}

std::string training_options() { return json(run_option_names()).dump(); }

RunOptions parse_run_options(const json& o) {
    const std::vector<std::string>& known = run_option_names();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (std::find(known.begin(), known.end(), it.key()) == known.end()) {
            std::string list;
            for (const std::string& name : known) list += (list.empty() ? "" : ", ") + name;
            throw UsageError("unknown training option '" + it.key() + "'; the options are " + list);
        }
    }
    RunOptions r;
    if (auto it = o.find("task"); it != o.end()) {
        if (!it->is_string()) throw UsageError("option task must be \"reversal\", \"dates\" or \"pairs\"");
        r.task = it->get<std::string>();
    }
    if (r.task != "reversal" && r.task != "dates" && r.task != "pairs") {
        throw UsageError("unknown task '" + r.task + "': use \"reversal\", \"dates\" or \"pairs\"");
    }
    if (r.task == "dates") r.hidden = 48;  // the date formats need a little more memory than symbols
    if (auto it = o.find("pairs"); it != o.end() && !it->is_null()) {
        if (!it->is_string()) throw UsageError("option pairs must be a string of source TAB target lines");
        r.pairs = it->get<std::string>();
    }
    if (r.task == "pairs" && r.pairs.empty()) throw UsageError("the pairs task needs pairs: source TAB target, one per line");
    if (auto it = o.find("characters"); it != o.end() && !it->is_null()) {
        if (!it->is_boolean()) throw UsageError("option characters must be true or false");
        r.characters = it->get<bool>();
    }
    if (auto it = o.find("attention"); it != o.end() && !it->is_null()) {
        if (!it->is_string()) throw UsageError("option attention must be a string such as \"additive\" or \"none\"");
        r.attention = attention_kind_from_name(it->get<std::string>());
    }
    r.symbols = bounded(o, "symbols", r.symbols, 2, 26);
    r.min_length = bounded(o, "minLength", r.min_length, 1, 60);
    r.max_length = bounded(o, "maxLength", r.max_length, r.min_length, 60);
    r.train_size = bounded(o, "trainSize", r.train_size, 1, 100000);
    r.test_size = bounded(o, "testSize", r.test_size, 1, 5000);
    r.embedding = bounded(o, "embedding", r.embedding, 1, 512);
    r.hidden = bounded(o, "hidden", r.hidden, 1, 512);
    // Dot and scaled-dot scoring compare the decoder state with the
    // bidirectional encoder states (2 x hidden) directly, so by default the
    // decoder is that wide (the page's training view relies on it).
    const bool direct = r.attention == AttentionKind::kDot || r.attention == AttentionKind::kScaledDot;
    r.decoder_hidden = bounded(o, "decoderHidden", direct ? 2 * r.hidden : r.decoder_hidden, 1, 1024);
    r.attention_size = bounded(o, "attentionSize", r.attention_size, 1, 512);
    r.output_hidden = bounded(o, "outputHidden", r.output_hidden, 1, 1024);
    TrainerOptions& t = r.trainer;
    t.batch_size = bounded(o, "batchSize", 32, 1, 1024);
    t.learning_rate = bounded_number(o, "learningRate", 5e-3f, 1e-6f, 1.0f);
    t.warmup_steps = bounded(o, "warmupSteps", 20, 1, 100000);
    t.total_steps = bounded(o, "steps", 2000, 1, 10000000);
    t.dropout = bounded_number(o, "dropout", 0.0f, 0.0f, 0.9f);
    t.label_smoothing = 0.0f;
    t.threads = 1;  // no threads in this module
    t.seed = static_cast<uint64_t>(bounded(o, "seed", 1, 0, 2147483647));
    return r;
}

json options_json(const RunOptions& r) {
    return {{"task", r.task},
            {"attention", attention_kind_name(r.attention)},
            {"symbols", r.symbols},
            {"minLength", r.min_length},
            {"maxLength", r.max_length},
            {"trainSize", r.train_size},
            {"testSize", r.test_size},
            {"embedding", r.embedding},
            {"hidden", r.hidden},
            {"decoderHidden", r.decoder_hidden},
            {"attentionSize", r.attention_size},
            {"outputHidden", r.output_hidden},
            {"batchSize", r.trainer.batch_size},
            {"learningRate", r.trainer.learning_rate},
            {"warmupSteps", r.trainer.warmup_steps},
            {"steps", r.trainer.total_steps},
            {"dropout", r.trainer.dropout},
            {"seed", r.trainer.seed}};
}

// Source length without <eos>: the unit of the accuracy-by-length view.
int source_length(const Example& e) { return static_cast<int>(e.source.size()) - 1; }

}  // namespace

class TrainingRun {
public:
    explicit TrainingRun(const std::string& options_text) {
        load_error_ = guarded([&] {
            options_ = parse_run_options(parse_options(options_text));
            const RunOptions& r = options_;
            const uint64_t seed = r.trainer.seed;
            if (r.task == "reversal") {
                task_ = make_reversal_task(r.symbols, r.min_length, r.max_length, r.train_size, r.test_size, seed);
            } else if (r.task == "dates") {
                task_ = make_date_task(r.train_size, r.test_size, seed);
            } else {
                task_ = make_pairs_task(r.pairs, r.characters, /*test_every=*/10);
            }
            ModelConfig& c = task_.model.config;
            c.embedding_size = r.embedding;
            c.encoder_hidden_size = r.hidden;
            c.decoder_hidden_size = r.decoder_hidden;
            c.attention_size = r.attention_size;
            c.output_hidden_size = r.output_hidden;
            c.attention = r.attention;
            initialize_model(task_.model, seed);  // as every training run starts (trainer.h)
            task_.model.provenance = {{"name", r.task + (r.attention == AttentionKind::kNone ? "-fixed" : "")},
                                      {"trained in", "the browser (s2s-train WebAssembly module)"},
                                      {"training options", options_json(r)}};
            trainer_ = std::make_unique<Trainer>(task_.model, task_.train, r.trainer);
            return json(nullptr);
        });
        if (trainer_) load_error_.clear();
    }

    std::string loadError() const { return load_error_; }

    std::string step(int count) {
        return guarded([&] {
            Trainer& trainer = live();
            if (count < 1 || count > 10000) throw UsageError("step(count): count must be from 1 to 10000");
            double loss = 0.0;
            long target_tokens = 0, source_tokens = 0;
            StepReport last;
            for (int i = 0; i < count; ++i) {
                last = trainer.step();
                loss += last.loss_per_token * static_cast<double>(last.target_tokens);
                target_tokens += last.target_tokens;
                source_tokens += last.source_tokens;
            }
            record_steps();
            return json{{"steps", trainer.steps_done()},
                        {"epoch", trainer.epoch()},
                        {"loss", loss / static_cast<double>(std::max(1L, target_tokens))},
                        {"targetTokens", target_tokens},
                        {"sourceTokens", source_tokens},
                        {"learningRate", last.learning_rate},
                        {"gradientNorm", last.gradient_norm}};
        });
    }

    // Greedy exact match on the first `limit` held-out examples (0 = all).
    std::string evaluate(int limit) {
        return guarded([&] {
            live();
            const Model& model = task_.model;
            const size_t count = limit <= 0 ? task_.test.size() : std::min(task_.test.size(), static_cast<size_t>(limit));
            std::map<int, std::pair<long, long>> by_length;  // length -> (correct, total)
            long correct = 0, token_hits = 0, token_total = 0;
            for (size_t i = 0; i < count; ++i) {
                const Example& e = task_.test[i];
                const Hypothesis h = greedy_decode(model.params, model.config, e.source, DecodeOptions{});
                const bool exact = h.tokens == e.target;
                correct += exact;
                auto& bucket = by_length[source_length(e)];
                bucket.first += exact;
                bucket.second += 1;
                for (size_t t = 0; t < e.target.size(); ++t) token_hits += t < h.tokens.size() && h.tokens[t] == e.target[t];
                token_total += static_cast<long>(e.target.size());
            }
            json lengths = json::array();
            for (const auto& [length, counts] : by_length) {
                lengths.push_back({{"length", length}, {"correct", counts.first}, {"total", counts.second}});
            }
            return json{{"steps", trainer_->steps_done()},
                        {"exactMatch", count ? static_cast<double>(correct) / static_cast<double>(count) : 0.0},
                        {"correct", correct},
                        {"total", count},
                        {"tokenAccuracy", token_total ? static_cast<double>(token_hits) / static_cast<double>(token_total) : 0.0},
                        {"byLength", lengths}};
        });
    }

    std::string translate(const std::string& text, const std::string& options) {
        return guarded([&] {
            live();
            return translate_json(task_.model, text, options);
        });
    }

    std::string probes(int count) {
        return guarded([&] {
            live();
            json out = json::array();
            for (size_t i = 0; i < task_.test.size() && static_cast<int>(i) < std::max(0, count); ++i) {
                out.push_back({{"source", task_.test_sources.at(i)},
                               {"target", example_text(task_.model, task_.test[i].target, true)},
                               {"length", source_length(task_.test[i])}});
            }
            return out;
        });
    }

    // A view into the heap, valid until the next call into the module: the
    // wrapper copies it at once. Empty when the run failed to start.
    emscripten::val modelBytes() {
        if (!trainer_) return emscripten::val::null();
        try {
            record_steps();
            bytes_ = serialize_model(task_.model);
        } catch (...) {
            return emscripten::val::null();
        }
        return emscripten::val(emscripten::typed_memory_view(bytes_.size(), bytes_.data()));
    }

    std::string info() const {
        return guarded([&] {
            if (!trainer_) throw UsageError("this training run failed to start; create a new one with valid options");
            const Model& model = task_.model;
            return json{{"options", options_json(options_)},
                        {"config", to_json(model.config)},
                        {"sourceTokenizer", to_json(model.source_tokenizer)},
                        {"targetTokenizer", to_json(model.target_tokenizer)},
                        {"sourceVocabulary", model.source_vocabulary.tokens()},
                        {"targetVocabulary", model.target_vocabulary.tokens()},
                        {"trainExamples", task_.train.size()},
                        {"testExamples", task_.test.size()},
                        {"parameters", model.params.count()},
                        {"steps", trainer_->steps_done()}};
        });
    }

private:
    Trainer& live() {
        if (!trainer_) throw UsageError("this training run failed to start; create a new one with valid options");
        return *trainer_;
    }
    void record_steps() { task_.model.provenance["steps"] = trainer_->steps_done(); }

    RunOptions options_;
    ToyTask task_;
    std::unique_ptr<Trainer> trainer_;  // refers to task_.model and task_.train
    std::string load_error_;
    std::vector<uint8_t> bytes_;
};

}  // namespace s2s::wasm

EMSCRIPTEN_BINDINGS(seq2seq_attention_train) {
    using namespace emscripten;
    class_<s2s::wasm::TrainingRun>("TrainingRun")
        .constructor<const std::string&>()
        .function("loadError", &s2s::wasm::TrainingRun::loadError)
        .function("step", &s2s::wasm::TrainingRun::step)
        .function("evaluate", &s2s::wasm::TrainingRun::evaluate)
        .function("translate", &s2s::wasm::TrainingRun::translate)
        .function("probes", &s2s::wasm::TrainingRun::probes)
        .function("modelBytes", &s2s::wasm::TrainingRun::modelBytes)
        .function("info", &s2s::wasm::TrainingRun::info);
    function("limits", &s2s::wasm::limits);
    function("trainingOptions", &s2s::wasm::training_options);
    function("heapStats", &s2s::wasm::heap_stats);
}
