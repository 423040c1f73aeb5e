// The provenance a training run records in its model (training_run.h):
// the data read (each file's source, licence and hash, from the file
// actually read: data_source.h), the split, how the model started, the
// training settings, wall time and the development BLEU history.
#include "train/training_run.h"

#include "train/data_source.h"

#include <filesystem>

namespace s2s {

void TrainingRun::record_data_sources() {
    // The provenance's records of the data: its source comes from the file
    // actually read (data_source.h), never assumed.
    const TrainingDataOptions& data = options_.data;
    const std::string data_hash = file_fnv1a64_hex(data.path);
    data_record_ = data_provenance(data.path, data_hash, data_pairs_, data_source_of(data.path, data_hash));
    extra_record_ = nlohmann::json::array();
    for (size_t file = 0; file < data.extra.size(); ++file) {
        const std::string& path = data.extra[file].path;
        const std::string hash = file_fnv1a64_hex(path);
        nlohmann::json record = data_provenance(path, hash, extra_pairs_[file], data_source_of(path, hash));
        record["pairs_used"] = extra_used_[file];
        record["repeat"] = data.extra[file].repeat;
        extra_record_.push_back(std::move(record));
    }
    split_record_["excluded_sources"] =
        data.exclude_sources_path.empty()
            ? nlohmann::json(nullptr)
            : nlohmann::json({{"file", std::filesystem::path(data.exclude_sources_path).filename().string()},
                              {"fnv1a64", file_fnv1a64_hex(data.exclude_sources_path)},
                              {"pairs_dropped", excluded_pairs_}});
}

void TrainingRun::record_provenance(bool finished) {
    const double seconds = wall_seconds();
    const TrainerOptions& trainer = options_.trainer;
    const TrainingDataOptions& data = options_.data;
    model_.provenance = {
        {"name", options_.name},
        {"created", created_},
        {"data", data_record_},
        {"extra_data", extra_record_},
        {"split", split_record_},
        {"training", {{"steps", trainer_->steps_done()},
                      {"init_encoder", init_record_},
                      {"init_model", init_model_record_},
                      {"averaged_checkpoints", averaged_record_},
                      {"teacher", teacher_record_},
                      {"finished", finished},
                      {"batch_size", trainer.batch_size},
                      {"learning_rate", trainer.learning_rate},
                      {"warmup_steps", trainer.warmup_steps},
                      {"dropout", trainer.dropout},
                      {"label_smoothing", trainer.label_smoothing},
                      {"piece_dropout", trainer.piece_dropout},
                      {"clip_norm", trainer.clip_norm},
                      {"threads", trainer.threads},
                      {"seed", trainer.seed},
                      {"min_frequency", data.min_frequency},
                      {"max_source_vocab", data.max_source_vocab},
                      {"max_target_vocab", data.max_target_vocab},
                      {"source_pieces", data.source_pieces},
                      {"target_pieces", data.target_pieces},
                      {"max_source_words", data.max_source_words},
                      {"wall_seconds", seconds},
                      {"tokens_per_second", seconds > 0 ? (previous_tokens_ + tokens_this_part_) / seconds : 0.0},
                      {"dev_bleu_history", history_}}},
    };
}

}  // namespace s2s
