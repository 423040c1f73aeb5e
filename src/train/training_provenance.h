// The provenance record a training run writes into its model (the model
// header's "provenance", model_file.h): typed here and turned into JSON by
// one function, to_json. docs/provenance.schema.json describes the record
// field by field, with what seq2seq convert, shortlist and eval add to it
// later; tests/js/provenance-schema.test.mjs checks this writer's output,
// every shipped model and the records of earlier runs against it, and that
// the page (web/demo/provenance.js) and the package's types read only
// fields it has. A field renamed here is a field renamed there.
#pragma once

#include "train/data_source.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace s2s {

// "extra_data": a training-only file (train --extra-data).
struct ExtraDataFileRecord {
    DataFileRecord data;
    long pairs_used = 0;  // pairs of it trained on, before repeats
    int repeat = 1;       // times each is trained on per epoch
};

// "split.excluded_sources" (train --exclude-sources).
struct ExcludedSourcesRecord {
    std::string file;
    std::string fnv1a64;
    long pairs_dropped = 0;
};

// "split": how the data was split by English sentence.
struct SplitRecord {
    std::string method;
    double dev_fraction = 0.0;
    uint64_t seed = 0;
    long train_pairs = 0;
    std::optional<ExcludedSourcesRecord> excluded_sources;  // null when none
    size_t dev_sentences = 0;
};

// "training.init_model" (train --init-model): every weight started here.
struct InitModelRecord {
    ModelFileReference model;
    std::optional<long> steps;  // its own training.steps; null when it records none
    std::string stored_dtype;   // f32, f16 or i8
    int target_tokens_added = 0;
};

// "training.init_encoder" (train --init-encoder).
struct InitEncoderRecord {
    ModelFileReference model;
    long source_embeddings_copied = 0;
};

// "training.teacher" (train --teacher).
struct TeacherRecord {
    ModelFileReference model;
    float weight = 0.0f;  // the teacher's share of each target distribution
    std::string method;
};

// "training.dev_bleu_history": the periodic development check.
struct DevBleuPoint {
    long step = 0;
    double bleu = 0.0;
};

// "training": the run's settings (train's flags), its time and its checks.
struct TrainingRecord {
    long steps = 0;
    std::optional<InitEncoderRecord> init_encoder;
    std::optional<InitModelRecord> init_model;
    std::optional<std::vector<long>> averaged_checkpoints;  // the steps averaged; null before the run's end
    std::optional<TeacherRecord> teacher;
    bool finished = false;
    int batch_size = 0;
    float learning_rate = 0.0f;
    int warmup_steps = 0;
    float dropout = 0.0f;
    float label_smoothing = 0.0f;
    float piece_dropout = 0.0f;
    float clip_norm = 0.0f;
    int threads = 0;
    uint64_t seed = 0;
    int min_frequency = 0;
    int max_source_vocab = 0;
    int max_target_vocab = 0;
    int source_pieces = 0;
    int target_pieces = 0;
    long max_source_words = 0;
    double wall_seconds = 0.0;  // of the whole run, earlier parts included
    double tokens_per_second = 0.0;
    std::vector<DevBleuPoint> dev_bleu_history;
};

// The whole record as training writes it. The final development report
// ("dev_bleu") is evaluation code's (src/eval, to_json(BleuReport)), which
// training does not link: the run adds it to the JSON when it finishes.
struct TrainingProvenance {
    std::string name;
    std::string created;  // YYYY-MM-DD, the run's first start
    DataFileRecord data;
    std::vector<ExtraDataFileRecord> extra_data;
    SplitRecord split;
    TrainingRecord training;
};

nlohmann::json to_json(const TrainingProvenance& provenance);

// dev_bleu_history as a resumed run reads it back from its checkpoint.
// Throws nlohmann::json::exception when it is not an array of {step, bleu}.
std::vector<DevBleuPoint> dev_bleu_history_from_json(const nlohmann::json& history);

}  // namespace s2s
