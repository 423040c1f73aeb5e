// Checkpoints of a training run: Trainer::save_checkpoint and
// Trainer::load_checkpoint (trainer.h). A checkpoint is two files, each
// written atomically:
//   PATH            the model, a model file like any other (model.h), whose
//                   provenance also records checkpoint_step and
//                   checkpoint_moments (a hash of the optimizer's moments)
//   PATH.optimizer  Adam's moments as tensors "m.NAME" and "v.NAME" in the
//                   same container format (model_file.h), and a header with
//                   the step, the data position (epoch, batch index) and the
//                   run's identity: every option, the training data's and
//                   the vocabularies' fingerprints and the model config.
// Resuming checks that the two files come from the same save and that the
// run's identity is unchanged, and refuses (naming what differs) otherwise:
// a resumed run computes exactly what the uninterrupted one would have.
#include "train/trainer.h"

#include "common/error.h"
#include "common/hash.h"
#include "format/model_file.h"

#include <string>
#include <utility>
#include <vector>

namespace s2s {
namespace {

// Ties a checkpoint's model file to its optimizer file: both record this
// hash of the moments, so a model file from another save is detected.
uint64_t moments_fingerprint(const AdamState& adam) {
    uint64_t hash = fnv1a64(&adam.step, sizeof adam.step);
    for (const Parameters* p : {&adam.first_moment, &adam.second_moment}) {
        p->for_each_tensor([&](const std::string&, const Matrix& m) {
            hash = fnv1a64(m.data(), static_cast<size_t>(m.size()) * sizeof(float), hash);
        });
    }
    return hash;
}

// Everything that decides what the next steps compute: resuming with any of
// it changed would silently make a different run.
nlohmann::json run_identity(const TrainerOptions& o, const Model& model, uint64_t data_fingerprint) {
    std::string vocabularies;
    for (const auto& t : model.source_vocabulary.tokens()) vocabularies += t + '\n';
    vocabularies += '\n';
    for (const auto& t : model.target_vocabulary.tokens()) vocabularies += t + '\n';
    nlohmann::json identity = {{"batch size", o.batch_size},
            {"steps", o.total_steps},
            {"learning rate", o.learning_rate},
            {"warm-up steps", o.warmup_steps},
            {"final learning rate fraction", o.final_learning_rate_fraction},
            {"clip norm", o.clip_norm},
            {"dropout", o.dropout},
            {"label smoothing", o.label_smoothing},
            {"threads", o.threads},
            {"seed", o.seed},
            {"training data (FNV-1a)", to_hex64(data_fingerprint)},
            {"vocabularies (FNV-1a)", to_hex64(fnv1a64(vocabularies.data(), vocabularies.size()))},
            {"model config", to_json(model.config)}};
    // Only with a teacher or piece dropout, so runs without keep the identity they had.
    if (o.teacher != nullptr) {
        identity["teacher"] = o.teacher_identity;
        identity["teacher weight"] = o.teacher_weight;
    }
    if (o.piece_dropout > 0.0f) identity["piece dropout"] = o.piece_dropout;
    return identity;
}

long checked_integer(const nlohmann::json& header, const char* field, const std::string& path) {
    auto it = header.find(field);
    if (it == header.end() || !it->is_number_integer() || it->get<long long>() < 0) {
        throw ModelFileError(path + " has no valid '" + field + "'; it is not an optimizer state of this project");
    }
    return static_cast<long>(it->get<long long>());
}

}  // namespace

void Trainer::save_checkpoint(const std::string& path) const {
    // Two files, each written atomically; both carry the step, so a run
    // killed between the two writes is detected on resume, not mixed.
    Model snapshot = model_;
    snapshot.provenance["checkpoint_step"] = adam_.step;
    snapshot.provenance["checkpoint_moments"] = to_hex64(moments_fingerprint(adam_));
    std::vector<TensorToWrite> tensors;
    auto add = [&](const char* prefix, const Parameters& p) {
        p.for_each_tensor([&](const std::string& name, const Matrix& m) {
            if (m.size() == 0) return;
            // Column-major (cols, rows) as row-major is the same bytes: the
            // optimizer file is only ever read back by this code.
            tensors.push_back({std::string(prefix) + name, static_cast<int>(m.cols()), static_cast<int>(m.rows()), m.data()});
        });
    };
    add("m.", adam_.first_moment);
    add("v.", adam_.second_moment);
    const nlohmann::json header = {{"format", "seq2seq-attention-optimizer"},
                                   {"step", adam_.step},
                                   {"epoch", epoch_},
                                   {"batch_index", batch_index_},
                                   {"run", run_identity(options_, model_, data_fingerprint_)}};
    write_model_file(path + ".optimizer", header, tensors);
    save_model(snapshot, path);
}

void Trainer::load_checkpoint(const std::string& path) {
    Model saved = load_model(path);
    const ModelFileContents state = read_model_file(path + ".optimizer");
    const auto& header = state.header;
    const auto format = header.find("format");
    if (format == header.end() || !format->is_string() || format->get<std::string>() != "seq2seq-attention-optimizer") {
        throw ModelFileError(path + ".optimizer is not an optimizer state of this project");
    }
    const long step = checked_integer(header, "step", path + ".optimizer");
    const long epoch = checked_integer(header, "epoch", path + ".optimizer");
    const long batch_index = checked_integer(header, "batch_index", path + ".optimizer");
    const auto saved_step = saved.provenance.find("checkpoint_step");
    if (saved_step == saved.provenance.end() || !saved_step->is_number_integer() || saved_step->get<long>() != step) {
        throw ModelFileError("the checkpoint files " + path + " and " + path +
                             ".optimizer are from different steps (the run was stopped while writing them); "
                             "start over with a new {checkpoint-dir}");
    }
    const nlohmann::json expected = run_identity(options_, model_, data_fingerprint_);
    const auto run = header.find("run");
    if (run == header.end() || !run->is_object()) throw ModelFileError(path + ".optimizer does not record its run");
    for (const auto& [what, value] : expected.items()) {
        const auto it = run->find(what);
        if (it == run->end() || *it != value) {
            throw ModelFileError("cannot resume from " + path + ": it was made with " + what + " = " +
                                 (it == run->end() ? std::string("(none)") : it->dump()) + " but this run has " +
                                 value.dump() + "; resume with the same data and {flags}, or use a new {checkpoint-dir}");
        }
    }
    if (run->contains("teacher") && !expected.contains("teacher")) {
        throw ModelFileError("cannot resume from " + path + ": it was trained with a teacher ({teacher}), this run has "
                             "none; resume with the same {teacher} and {teacher-weight}, or use a new {checkpoint-dir}");
    }
    if (batch_index >= schedule_.batches_per_epoch()) {
        throw ModelFileError(path + ".optimizer has a data position outside this data set");
    }
    AdamState adam = make_adam_state(model_.config);
    size_t index = 0;
    auto take = [&](const char* prefix, Parameters& p) {
        p.for_each_tensor([&](const std::string& name, Matrix& m) {
            if (m.size() == 0) return;
            if (index >= state.tensors.size() || state.tensors[index].name != prefix + name ||
                state.tensors[index].rows != m.cols() || state.tensors[index].cols != m.rows()) {
                throw ModelFileError(path + ".optimizer does not match the model (at " + prefix + name + ")");
            }
            m = Eigen::Map<const Matrix>(state.tensors[index].data.data(), m.rows(), m.cols());
            ++index;
        });
    };
    take("m.", adam.first_moment);
    take("v.", adam.second_moment);
    if (index != state.tensors.size()) throw ModelFileError(path + ".optimizer has more tensors than the model");
    adam.step = step;
    const auto saved_moments = saved.provenance.find("checkpoint_moments");
    if (saved_moments == saved.provenance.end() || !saved_moments->is_string() ||
        saved_moments->get<std::string>() != to_hex64(moments_fingerprint(adam))) {
        throw ModelFileError("the checkpoint files " + path + " and " + path +
                             ".optimizer come from different saves; start over with a new {checkpoint-dir}");
    }
    // The run identity above covers the configuration and vocabularies, but
    // check the model file itself too: it is what gets loaded.
    if (to_json(saved.config) != to_json(model_.config) ||
        saved.source_vocabulary.tokens() != model_.source_vocabulary.tokens() ||
        saved.target_vocabulary.tokens() != model_.target_vocabulary.tokens()) {
        throw ModelFileError("checkpoint " + path + " holds a model of another configuration or vocabulary than this run; "
                             "use a new {checkpoint-dir}");
    }
    model_.params = std::move(saved.params);
    model_.provenance = std::move(saved.provenance);  // what the run recorded so far
    adam_ = std::move(adam);
    epoch_ = epoch;
    batch_index_ = batch_index;
}

}  // namespace s2s
