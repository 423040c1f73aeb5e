// The provenance a training run records in its model (training_run.h,
// training_provenance.h): the data read (each file's source, licence and
// hash, from the file actually read: data_source.h), the split, how the
// model started, the training settings, wall time and the development BLEU
// history; and the one function that writes that record as JSON, field for
// field as docs/provenance.schema.json describes it.
#include "train/training_run.h"

#include "train/data_source.h"

#include <filesystem>

namespace s2s {

namespace {

nlohmann::json to_json(const ExtraDataFileRecord& record) {
    nlohmann::json json = to_json(record.data);
    json["pairs_used"] = record.pairs_used;
    json["repeat"] = record.repeat;
    return json;
}

nlohmann::json to_json(const SplitRecord& split) {
    nlohmann::json excluded = nullptr;
    if (split.excluded_sources) {
        excluded = {{"file", split.excluded_sources->file},
                    {"fnv1a64", split.excluded_sources->fnv1a64},
                    {"pairs_dropped", split.excluded_sources->pairs_dropped}};
    }
    return {{"method", split.method},         {"dev_fraction", split.dev_fraction},
            {"seed", split.seed},             {"train_pairs", split.train_pairs},
            {"excluded_sources", excluded},   {"dev_sentences", split.dev_sentences}};
}

// A model this run started from or learned from: its reference and what
// the run did with it.
nlohmann::json to_json(const std::optional<InitModelRecord>& record) {
    if (!record) return nullptr;
    nlohmann::json json = to_json(record->model);
    json["steps"] = record->steps ? nlohmann::json(*record->steps) : nlohmann::json(nullptr);
    json["stored_dtype"] = record->stored_dtype;
    json["target_tokens_added"] = record->target_tokens_added;
    return json;
}

nlohmann::json to_json(const std::optional<InitEncoderRecord>& record) {
    if (!record) return nullptr;
    nlohmann::json json = to_json(record->model);
    json["source_embeddings_copied"] = record->source_embeddings_copied;
    return json;
}

nlohmann::json to_json(const std::optional<TeacherRecord>& record) {
    if (!record) return nullptr;
    nlohmann::json json = to_json(record->model);
    json["weight"] = record->weight;
    json["method"] = record->method;
    return json;
}

nlohmann::json to_json(const TrainingRecord& training) {
    nlohmann::json history = nlohmann::json::array();
    for (const DevBleuPoint& point : training.dev_bleu_history) history.push_back({{"step", point.step}, {"bleu", point.bleu}});
    nlohmann::json averaged = nullptr;
    if (training.averaged_checkpoints) {
        averaged = {{"count", training.averaged_checkpoints->size()}, {"steps", *training.averaged_checkpoints}};
    }
    return {{"steps", training.steps},
            {"init_encoder", to_json(training.init_encoder)},
            {"init_model", to_json(training.init_model)},
            {"averaged_checkpoints", averaged},
            {"teacher", to_json(training.teacher)},
            {"finished", training.finished},
            {"batch_size", training.batch_size},
            {"learning_rate", training.learning_rate},
            {"warmup_steps", training.warmup_steps},
            {"dropout", training.dropout},
            {"label_smoothing", training.label_smoothing},
            {"piece_dropout", training.piece_dropout},
            {"clip_norm", training.clip_norm},
            {"threads", training.threads},
            {"seed", training.seed},
            {"min_frequency", training.min_frequency},
            {"max_source_vocab", training.max_source_vocab},
            {"max_target_vocab", training.max_target_vocab},
            {"source_pieces", training.source_pieces},
            {"target_pieces", training.target_pieces},
            {"max_source_words", training.max_source_words},
            {"wall_seconds", training.wall_seconds},
            {"tokens_per_second", training.tokens_per_second},
            {"dev_bleu_history", std::move(history)}};
}

}  // namespace

nlohmann::json to_json(const TrainingProvenance& provenance) {
    nlohmann::json extra = nlohmann::json::array();
    for (const ExtraDataFileRecord& record : provenance.extra_data) extra.push_back(to_json(record));
    return {{"name", provenance.name},
            {"created", provenance.created},
            {"data", to_json(provenance.data)},
            {"extra_data", std::move(extra)},
            {"split", to_json(provenance.split)},
            {"training", to_json(provenance.training)}};
}

std::vector<DevBleuPoint> dev_bleu_history_from_json(const nlohmann::json& history) {
    std::vector<DevBleuPoint> points;
    for (const nlohmann::json& point : history) points.push_back({point.at("step").get<long>(), point.at("bleu").get<double>()});
    return points;
}

void TrainingRun::record_data_sources() {
    // The provenance's records of the data: its source comes from the file
    // actually read (data_source.h), never assumed.
    const TrainingDataOptions& data = options_.data;
    const std::string data_hash = file_fnv1a64_hex(data.path);
    provenance_.data = data_file_record(data.path, data_hash, data_pairs_, data_source_of(data.path, data_hash));
    provenance_.extra_data.clear();
    for (size_t file = 0; file < data.extra.size(); ++file) {
        const std::string& path = data.extra[file].path;
        const std::string hash = file_fnv1a64_hex(path);
        provenance_.extra_data.push_back({data_file_record(path, hash, extra_pairs_[file], data_source_of(path, hash)),
                                          extra_used_[file], data.extra[file].repeat});
    }
    provenance_.split.excluded_sources = std::nullopt;
    if (!data.exclude_sources_path.empty()) {
        provenance_.split.excluded_sources =
            ExcludedSourcesRecord{std::filesystem::path(data.exclude_sources_path).filename().string(),
                                  file_fnv1a64_hex(data.exclude_sources_path), excluded_pairs_};
    }
}

void TrainingRun::record_provenance(bool finished) {
    const double seconds = wall_seconds();
    const TrainerOptions& trainer = options_.trainer;
    const TrainingDataOptions& data = options_.data;
    provenance_.name = options_.name;
    TrainingRecord& training = provenance_.training;
    training.steps = trainer_->steps_done();
    training.finished = finished;
    training.batch_size = trainer.batch_size;
    training.learning_rate = trainer.learning_rate;
    training.warmup_steps = trainer.warmup_steps;
    training.dropout = trainer.dropout;
    training.label_smoothing = trainer.label_smoothing;
    training.piece_dropout = trainer.piece_dropout;
    training.clip_norm = trainer.clip_norm;
    training.threads = trainer.threads;
    training.seed = trainer.seed;
    training.min_frequency = data.min_frequency;
    training.max_source_vocab = data.max_source_vocab;
    training.max_target_vocab = data.max_target_vocab;
    training.source_pieces = data.source_pieces;
    training.target_pieces = data.target_pieces;
    training.max_source_words = data.max_source_words;
    training.wall_seconds = seconds;
    training.tokens_per_second = seconds > 0 ? (previous_tokens_ + tokens_this_part_) / seconds : 0.0;
    model_.provenance = to_json(provenance_);
}

}  // namespace s2s
