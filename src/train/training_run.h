// A training run on a parallel corpus, as `seq2seq train` drives it: read
// the TSV data, hold out a development split by English sentence, learn the
// vocabularies (words, characters or BPE pieces) from the training split,
// initialize the model (its encoder optionally from another model), then run
// the trainer with periodic development checks, checkpoints, resume and a
// time limit, and write the model with the provenance of all of it.
//
// The CLI (src/cli/command_train.cpp) only parses flags into
// TrainingRunOptions and prints what the run reports. Scoring a development
// set is evaluation code (src/eval), which training does not link: the
// caller passes it in (TrainingRunHooks::evaluate). The browser's trainer
// (src/wasm/train_bindings.cpp) trains toy tasks, not corpora, in a module
// without a file system; it shares the pieces below this file:
// initialize_model and the Trainer (trainer.h).
//
// A resumed run must compute exactly what the interrupted one would have:
// the data it reads, its split, its vocabularies, its encoded examples and
// the order of its batches depend on the options alone, and the checkpoint
// records them (trainer.h, checkpoint.cpp) so that resuming with anything
// changed is refused.
#pragma once

#include "model/model.h"
#include "corpus/parallel_corpus.h"
#include "train/trainer.h"
#include "train/training_data.h"
#include "train/training_provenance.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace s2s {

struct TrainingRunOptions {
    TrainingDataOptions data;
    ModelConfig config;               // sizes and attention; the vocabulary sizes are set by the run
    std::string init_encoder_path;    // start the encoder from this model ("" = random)
    // Start every weight from this model ("" = random): a second stage of
    // training (a new learning-rate cycle) after a finished run, on the same
    // or on more data. The model must have this run's sizes; its tokenizers
    // and vocabularies come along. A target of words or characters grows by
    // the tokens of this run's data that it lacks (seen --min-frequency
    // times), their rows starting at random; subword pieces stay as they
    // are (they spell any word). Rounded weights (int8, float16) are decoded
    // and recorded as the starting point's storage.
    std::string init_model_path;
    // The model written at the end holds the mean weights of the last N
    // checkpoints (taken every checkpoint_every steps, the last one at the
    // final step), kept as snapshot files in the checkpoint folder; 0 or 1 =
    // the final weights. Averaging the end of a run smooths the noise of
    // the last updates (Junczys-Dowmunt et al., 2016; Vaswani et al., 2017).
    int average_last = 0;
    // Word-level knowledge distillation from this model ("" = none): it
    // must read and write exactly this run's vocabularies (the same English
    // pieces, the same target tokens); its sizes and attention are its own.
    // Its softmax on each training batch takes trainer.teacher_weight of
    // the target distribution (loss.h). Float weights are not needed: int8
    // and float16 files are decoded.
    std::string teacher_path;
    TrainerOptions trainer;
    long eval_every = 1000;           // development BLEU every N steps (0 = never)
    long eval_sentences = 500;        // ... on this many development sentences, spread over the split
    long checkpoint_every = 500;
    double max_minutes = 0.0;         // stop (with a checkpoint) after this long; 0 = no limit
    std::string checkpoint_dir;       // holds checkpoint.s2s and checkpoint.s2s.optimizer
    bool resume = false;              // continue from the checkpoint, if there is one
    std::string output_path;          // the model file written at the end
    std::string name;                 // the model's name in its provenance
    TensorDtype output_dtype = TensorDtype::kFloat32;
    int int8_levels = kMaxInt8Levels;  // with output_dtype int8
};

// A development score, from the caller's evaluation code.
struct DevScore {
    double bleu = 0.0;
    double seconds = 0.0;
    nlohmann::json report;  // the full report recorded in the provenance (to_json(BleuReport))
};

struct TrainingRunHooks {
    // Scores `model` on `sentences` (src/eval/evaluate.h: evaluate_model).
    std::function<DevScore(const Model& model, const std::vector<SourceWithReferences>& sentences)> evaluate;
    // After every step: steps done and the step's report.
    std::function<void(long steps_done, const StepReport& report)> on_step;
    // A line for the user (a periodic development score) while steps run.
    std::function<void(const std::string& line)> on_message;
};

class TrainingRun {
public:
    // Everything before the first step, in this order: the output and
    // checkpoint folder checked (IoError now rather than after an hour),
    // the data read, split, filtered and encoded, the vocabularies learned,
    // the model initialized, the development split exported, and, with
    // `resume`, the checkpoint restored. `log` receives lines for the user
    // (what was read, how it was split, what was resumed). Throws
    // UsageError, DataError, IoError or ModelFileError naming the problem.
    TrainingRun(TrainingRunOptions options, const std::function<void(const std::string&)>& log);

    // Steps until the schedule's end or until max_minutes have passed,
    // scoring the development sample every eval_every steps and saving a
    // checkpoint every checkpoint_every steps, at the end and when time runs
    // out. Returns false when stopped by the time limit.
    bool train(const TrainingRunHooks& hooks);

    // The end of a finished run: with average_last, the weights replaced by
    // the mean of the last checkpoints; the whole development split scored, the
    // provenance completed and the model written to output_path. Returns
    // the score.
    DevScore finish(const TrainingRunHooks& hooks);

    const Model& model() const { return model_; }
    const TrainingRunOptions& options() const { return options_; }
    long steps_done() const { return trainer_->steps_done(); }
    size_t dev_sentences() const { return dev_.size(); }
    double wall_seconds() const;  // of the whole run, earlier parts included

private:
    void prepare(const std::function<void(const std::string&)>& log);
    void resume(const std::function<void(const std::string&)>& log);
    void load_teacher(const std::function<void(const std::string&)>& log);  // options_.teacher_path into teacher_
    void record_data_sources();  // provenance_'s data, extra_data and split.excluded_sources
    void record_provenance(bool finished);
    std::string snapshot_path(long step) const;
    std::vector<long> averaged_steps() const;  // the checkpoints averaged at the end, oldest first
    void average_snapshots();  // model_.params = the mean of the averaged_steps() snapshots

    TrainingRunOptions options_;
    Model model_;
    std::vector<Example> train_;
    std::vector<std::string> train_sources_;        // train_[i]'s English, kept only for --piece-dropout
    std::vector<SourceWithReferences> dev_;
    std::vector<SourceWithReferences> dev_sample_;  // the periodic check's sentences
    size_t data_pairs_ = 0;                         // pairs read from the data file
    std::vector<size_t> extra_pairs_;               // pairs read from each extra file
    std::vector<long> extra_used_;                  // ... of which trained on (before repeats)
    long excluded_pairs_ = 0;                       // training pairs dropped by exclude_sources_path
    Model teacher_;                                 // with teacher_path: the trainer refers to it
    std::unique_ptr<Trainer> trainer_;              // refers to model_, train_ and teacher_
    // The provenance recorded so far (training_provenance.h): record_data_sources
    // and prepare fill in the data, split and starting points, train the
    // development history, record_provenance the rest.
    TrainingProvenance provenance_;
    double previous_seconds_ = 0.0;                 // wall time of the earlier parts
    double previous_tokens_ = 0.0;                  // tokens of the earlier parts
    long tokens_this_part_ = 0;
    std::chrono::steady_clock::time_point started_;
};

}  // namespace s2s
