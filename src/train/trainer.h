// The training loop: batches bucketed by length, data-parallel gradients on
// several threads, clipping, Adam with warm-up and cosine decay, and
// checkpoints that resume exactly where they stopped.
#pragma once

#include "model/model.h"
#include "train/batch.h"
#include "train/loss.h"
#include "train/optimizer.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace s2s {

struct TrainerOptions {
    int batch_size = 64;             // sentences per batch
    long total_steps = 1000;         // the schedule's length
    float learning_rate = 2e-3f;     // peak
    int warmup_steps = 100;          // linear warm-up from 0 to the peak
    float final_learning_rate_fraction = 0.05f;  // cosine decay to this fraction at total_steps
    float clip_norm = 5.0f;
    float dropout = 0.2f;
    float label_smoothing = 0.1f;
    int threads = 2;                 // gradient shards computed in parallel
    uint64_t seed = 1;               // data order, dropout masks
    // Word-level distillation (loss.h, LossOptions): a model with the same
    // vocabularies whose softmax takes teacher_weight of each target
    // position's distribution. It must outlive the trainer. teacher_identity
    // names it in the checkpoint (its file's FNV-1a), so a run resumed
    // with another teacher is refused.
    const Model* teacher = nullptr;
    float teacher_weight = 0.5f;
    std::string teacher_identity;
    // Subword regularization (BPE-dropout, text/bpe.h): with piece_dropout
    // above 0, each time an example is trained on, its source pieces are
    // drawn afresh by resegment_source(index of the example, a generator
    // seeded by the step and that index), so a resumed run draws the same
    // pieces. The target keeps its pieces. The batches are still bucketed
    // by the examples' ordinary lengths.
    float piece_dropout = 0.0f;
    std::function<std::vector<int>(size_t example, float piece_dropout, Random& random)> resegment_source;
};

// A fixed, seed-determined order of length-bucketed batches, epoch after
// epoch: position (epoch, index) fully determines the next batch, which is
// what a checkpoint records.
class BatchSchedule {
public:
    BatchSchedule(const std::vector<Example>& examples, int batch_size, uint64_t seed);
    const std::vector<const Example*>& batch(long epoch, long index);
    long batches_per_epoch() const { return static_cast<long>(buckets_.size()); }

private:
    void prepare_epoch(long epoch);
    std::vector<std::vector<const Example*>> buckets_;  // for the current epoch, in order
    const std::vector<Example>& examples_;
    int batch_size_;
    uint64_t seed_;
    long epoch_ = -1;
};

struct StepReport {
    double loss_per_token = 0.0;
    long target_tokens = 0;
    long source_tokens = 0;
    double gradient_norm = 0.0;
    float learning_rate = 0.0f;
};

// Sets the model's vocabulary sizes from its vocabularies, checks its
// configuration (UsageError naming the field) and draws its initial
// parameters from `seed`: how every training run starts (training_run.h,
// and the browser's, src/wasm/train_bindings.cpp).
void initialize_model(Model& model, uint64_t seed);

class Trainer {
public:
    // `model` must have its config, vocabularies and initialized parameters.
    // Both `model` and `examples` must outlive the trainer (it keeps
    // references, not copies). A model loaded for translation only lacks
    // float weights and is refused (UsageError); any other loses its int8
    // step weights (Model::int8_step), which its first update would make
    // stale, so that it decodes with the weights being trained.
    Trainer(Model& model, const std::vector<Example>& examples, const TrainerOptions& options);

    StepReport step();
    long steps_done() const { return adam_.step; }
    long epoch() const { return epoch_; }
    const TrainerOptions& options() const { return options_; }
    float learning_rate_at(long step) const;

    // A checkpoint (checkpoint.cpp): the model file (usable as a model) and
    // the optimizer state beside it (PATH.optimizer). Both written atomically.
    void save_checkpoint(const std::string& path) const;
    // Restores parameters, provenance, moments and data position. Throws ModelFileError
    // when the checkpoint's two files disagree, or when it was made with
    // another configuration, other options or other data (naming which).
    void load_checkpoint(const std::string& path);

private:
    // The source pieces of this step's examples drawn with BPE-dropout
    // (examples unchanged when options_.piece_dropout is 0).
    std::vector<const Example*> with_piece_dropout(const std::vector<const Example*>& examples,
                                                   std::vector<Example>& storage) const;

    Model& model_;
    const std::vector<Example>& examples_;
    TrainerOptions options_;
    BatchSchedule schedule_;
    uint64_t data_fingerprint_;  // FNV-1a of every example's ids: resuming on other data is refused
    AdamState adam_;
    std::vector<Parameters> shard_gradients_;
    long epoch_ = 0;
    long batch_index_ = 0;
};

}  // namespace s2s
