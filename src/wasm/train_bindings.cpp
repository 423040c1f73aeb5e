// The Embind surface of the training module (s2s-train): the project's own
// C++ trainer, in the browser. src/wasm/index.js wraps it as createTrainer()
// and train(); the page's Train view (web/train.html) runs it in a worker.
//
//   new BrowserTrainingRun(optionsJson)
//                                  builds a task (src/train/tasks.h) and a
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
//   trainingOptions()              the names a run's options may have
//                                  (JSON array): trainer.js names them in
//                                  its message for an unknown one
//   trainerLimits()                the options' ranges and defaults
//                                  (run_options.h), which the build writes
//                                  into dist/trainer-options.js
//
// Every fallible call returns an envelope (src/wasm/envelope.h). The module
// has no threads: a step runs on the caller's thread, so callers run it in a
// Web Worker and take small steps to stay responsive.
#include "decode/search.h"
#include "model/model.h"
#include "train/tasks.h"
#include "train/trainer.h"
#include "wasm/envelope.h"
#include "wasm/run_options.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace s2s::wasm {
namespace {

// Source length without <eos>: the unit of the accuracy-by-length view.
int source_length(const Example& e) { return static_cast<int>(e.source.size()) - 1; }

}  // namespace

// A training run of the browser's trainer (createTrainer, train: trainer.js)
// on a small generated or pasted task. Not the command line's run of a
// corpus with checkpoints (s2s::TrainingRun, src/train/training_run.h).
class BrowserTrainingRun {
public:
    explicit BrowserTrainingRun(const std::string& options_text) {
        load_error_ = guarded([&] {
            options_ = parse_run_options(parse_options(options_text));
            const RunOptions& r = options_;
            const uint64_t seed = r.trainer.seed;
            if (r.task == "reversal") {
                task_ = make_reversal_task(r.symbols, r.min_length, r.max_length, r.train_size, r.test_size, seed);
            } else if (r.task == "dates") {
                task_ = make_date_task(r.train_size, r.test_size, seed);
            } else {
                task_ = make_pairs_task(r.pairs, r.characters, kPairsHeldOutEvery);
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
            if (count < 1 || count > kMaxStepsPerCall) {
                throw UsageError("step(count): count must be from 1 to " + std::to_string(kMaxStepsPerCall));
            }
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
    class_<s2s::wasm::BrowserTrainingRun>("BrowserTrainingRun")
        .constructor<const std::string&>()
        .function("loadError", &s2s::wasm::BrowserTrainingRun::loadError)
        .function("step", &s2s::wasm::BrowserTrainingRun::step)
        .function("evaluate", &s2s::wasm::BrowserTrainingRun::evaluate)
        .function("translate", &s2s::wasm::BrowserTrainingRun::translate)
        .function("probes", &s2s::wasm::BrowserTrainingRun::probes)
        .function("modelBytes", &s2s::wasm::BrowserTrainingRun::modelBytes)
        .function("info", &s2s::wasm::BrowserTrainingRun::info);
    function("limits", &s2s::wasm::limits);
    function("trainingOptions", &s2s::wasm::training_options);
    function("trainerLimits", &s2s::wasm::trainer_limits);
    function("heapStats", &s2s::wasm::heap_stats);
}
