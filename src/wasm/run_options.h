// The options of a training run in the browser (BrowserTrainingRun,
// train_bindings.cpp): one table of the numeric options with each one's
// range and default, the one owner of those numbers. parse_run_options
// checks options against it; trainer_limits() reports it, the module binds
// that as trainerLimits(), and the build writes it into
// dist/trainer-options.js (scripts/write-option-ranges.mjs), which the
// wrapper exports as trainerOptionRanges and trainerLimits. index.d.ts
// states the same numbers in prose, and tests/js/trainer-options.test.mjs
// checks every number there against this table.
#pragma once

#include "common/error.h"
#include "model/config.h"
#include "train/trainer.h"
#include "wasm/envelope.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace s2s::wasm {

struct RunOptionRange {
    const char* name;  // the JavaScript name
    double min, max, fallback;
    bool integer;
};

// Sizes are deliberately small: the default task learns in well under a minute.
inline constexpr RunOptionRange kRunOptionRanges[] = {
    {"symbols", 2, 26, 8, true},              // task "reversal"
    {"minLength", 1, 60, 3, true},            // task "reversal"
    {"maxLength", 1, 60, 12, true},           // task "reversal"; and at least minLength
    {"trainSize", 1, 100000, 4000, true},     // generated tasks
    {"testSize", 1, 5000, 200, true},         // generated tasks
    {"embedding", 1, 512, 16, true},
    {"hidden", 1, 512, 32, true},             // per direction; kDatesHidden for task "dates"
    {"decoderHidden", 1, 1024, 64, true},     // kDirectDecoderPerHidden x hidden for dot scoring
    {"attentionSize", 1, 512, 32, true},
    {"outputHidden", 1, 1024, 32, true},
    {"batchSize", 1, 1024, 32, true},
    {"learningRate", 1e-6, 1, 5e-3, false},
    {"warmupSteps", 1, 100000, 20, true},
    {"steps", 1, 10000000, 2000, true},
    {"dropout", 0, 0.9, 0, false},
    {"seed", 0, 2147483647, 1, true},
};
// Task "dates": the default encoder size (the date formats need a little
// more memory than symbols).
constexpr int kDatesHidden = 48;
// Dot and scaled-dot scoring compare the decoder state with the
// bidirectional encoder states (2 x hidden) directly, so by default the
// decoder is that wide (the page's training view relies on it).
constexpr int kDirectDecoderPerHidden = 2;
// Task "pairs": every this-many-th pair is held out.
constexpr int kPairsHeldOutEvery = 10;
// step(count): at most this many steps in one call.
constexpr int kMaxStepsPerCall = 10000;

inline const RunOptionRange& run_option_range(const std::string& name) {
    for (const RunOptionRange& range : kRunOptionRanges) {
        if (name == range.name) return range;
    }
    throw std::logic_error("no option '" + name + "' in kRunOptionRanges (src/wasm/run_options.h)");
}

struct RunOptions {
    std::string task = "reversal";  // "reversal", "dates", "pairs"
    std::string pairs;              // task "pairs": source TAB target lines
    bool characters = false;        // task "pairs": characters instead of words
    int symbols = 0, min_length = 0, max_length = 0;  // task "reversal"
    int train_size = 0, test_size = 0;
    AttentionKind attention = AttentionKind::kAdditive;
    int embedding = 0, hidden = 0, decoder_hidden = 0, attention_size = 0, output_hidden = 0;
    TrainerOptions trainer;
};

// `name`'s value in `o`, or `fallback` (the table's default unless given),
// checked against its range (from `low` instead of the table's min if given).
inline double run_option(const json& o, const char* name, double fallback, double low) {
    const RunOptionRange& range = run_option_range(name);
    auto it = o.find(name);
    const bool given = it != o.end() && !it->is_null();
    if (range.integer) {
        const int value = given ? integer_option(o, name, 0) : static_cast<int>(fallback);
        if (value < low || value > range.max) {
            throw UsageError(std::string("option ") + name + " must be from " + std::to_string(static_cast<long>(low)) +
                             " to " + std::to_string(static_cast<long>(range.max)) + ", but is " + std::to_string(value));
        }
        return value;
    }
    if (given && !it->is_number()) throw UsageError(std::string("option ") + name + " must be a number");
    const double value = given ? it->get<double>() : fallback;
    if (!(value >= low && value <= range.max)) {
        throw UsageError(std::string("option ") + name + " must be from " + std::to_string(low) + " to " + std::to_string(range.max));
    }
    return value;
}
inline double run_option(const json& o, const char* name) {
    const RunOptionRange& range = run_option_range(name);
    return run_option(o, name, range.fallback, range.min);
}
inline int run_int(const json& o, const char* name) { return static_cast<int>(run_option(o, name)); }

// The options a run reads (parse_run_options): the one list of their names.
inline const std::vector<std::string>& run_option_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out = {"task", "pairs", "characters"};
        for (const RunOptionRange& range : kRunOptionRanges) {
            if (std::string(range.name) == "embedding") out.emplace_back("attention");  // before the sizes it shapes
            out.emplace_back(range.name);
        }
        return out;
    }();
    return names;
}

inline std::string training_options() { return json(run_option_names()).dump(); }

// The table as JSON: {"options": {name: {min, max, default, integer}, with
// hidden's "datesDefault" and decoderHidden's "directDefaultPerHidden"},
// "pairsHeldOutEvery", "stepCount": {min, max}}.
inline std::string trainer_limits() {
    nlohmann::ordered_json options = nlohmann::ordered_json::object();
    for (const RunOptionRange& r : kRunOptionRanges) {
        // Whole numbers as integers in the JSON (2000, not 2000.0).
        const auto number = [&](double v) { return r.integer ? nlohmann::ordered_json(static_cast<long>(v)) : nlohmann::ordered_json(v); };
        options[r.name] = {{"min", number(r.min)}, {"max", number(r.max)}, {"default", number(r.fallback)}, {"integer", r.integer}};
    }
    options["hidden"]["datesDefault"] = kDatesHidden;
    options["decoderHidden"]["directDefaultPerHidden"] = kDirectDecoderPerHidden;
    const nlohmann::ordered_json j = {{"options", options},
                                      {"pairsHeldOutEvery", kPairsHeldOutEvery},
                                      {"stepCount", {{"min", 1}, {"max", kMaxStepsPerCall}}}};
    return j.dump();
}

inline RunOptions parse_run_options(const json& o) {
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
    r.symbols = run_int(o, "symbols");
    r.min_length = run_int(o, "minLength");
    const RunOptionRange& max_length = run_option_range("maxLength");
    r.max_length = static_cast<int>(run_option(o, "maxLength", max_length.fallback, std::max<double>(max_length.min, r.min_length)));
    r.train_size = run_int(o, "trainSize");
    r.test_size = run_int(o, "testSize");
    r.embedding = run_int(o, "embedding");
    const RunOptionRange& hidden = run_option_range("hidden");
    r.hidden = static_cast<int>(run_option(o, "hidden", r.task == "dates" ? kDatesHidden : hidden.fallback, hidden.min));
    const RunOptionRange& decoder = run_option_range("decoderHidden");
    const bool direct = r.attention == AttentionKind::kDot || r.attention == AttentionKind::kScaledDot;
    r.decoder_hidden =
        static_cast<int>(run_option(o, "decoderHidden", direct ? kDirectDecoderPerHidden * r.hidden : decoder.fallback, decoder.min));
    r.attention_size = run_int(o, "attentionSize");
    r.output_hidden = run_int(o, "outputHidden");
    TrainerOptions& t = r.trainer;
    t.batch_size = run_int(o, "batchSize");
    t.learning_rate = static_cast<float>(run_option(o, "learningRate"));
    t.warmup_steps = run_int(o, "warmupSteps");
    t.total_steps = run_int(o, "steps");
    t.dropout = static_cast<float>(run_option(o, "dropout"));
    t.label_smoothing = 0.0f;
    t.threads = 1;  // no threads in this module
    t.seed = static_cast<uint64_t>(run_int(o, "seed"));
    return r;
}

inline json options_json(const RunOptions& r) {
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

}  // namespace s2s::wasm
