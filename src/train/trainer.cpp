// The training loop (trainer.h): the batch schedule, a step's sharded
// gradients, clipping, the learning-rate schedule and Adam. Checkpoints are
// in checkpoint.cpp.
#include "train/trainer.h"

#include "common/error.h"
#include "common/hash.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <numeric>
#include <thread>

namespace s2s {

BatchSchedule::BatchSchedule(const std::vector<Example>& examples, int batch_size, uint64_t seed)
    : examples_(examples), batch_size_(batch_size), seed_(seed) {
    if (examples.empty()) throw DataError("no training examples: the data is empty after filtering");
    if (batch_size < 1) throw UsageError("batch size must be at least 1");
    prepare_epoch(0);
}

void BatchSchedule::prepare_epoch(long epoch) {
    if (epoch == epoch_) return;
    epoch_ = epoch;
    Random random(seed_ * 0x9e3779b97f4a7c15ULL + static_cast<uint64_t>(epoch) + 1);
    // Sort by length with a random tie-break, so batches hold sentences of
    // similar length (little padding) but differ from epoch to epoch.
    std::vector<std::pair<uint64_t, size_t>> keyed;
    keyed.reserve(examples_.size());
    for (size_t i = 0; i < examples_.size(); ++i) {
        const uint64_t length_key = examples_[i].source.size() * 1024 + examples_[i].target.size();
        keyed.emplace_back((length_key << 32) | (random.next() & 0xffffffffULL), i);
    }
    std::sort(keyed.begin(), keyed.end());
    buckets_.clear();
    for (size_t start = 0; start < keyed.size(); start += static_cast<size_t>(batch_size_)) {
        std::vector<const Example*> batch;
        for (size_t k = start; k < std::min(keyed.size(), start + batch_size_); ++k) batch.push_back(&examples_[keyed[k].second]);
        buckets_.push_back(std::move(batch));
    }
    // Shuffle the batch order (Fisher-Yates with our portable generator).
    for (size_t i = buckets_.size(); i > 1; --i) std::swap(buckets_[i - 1], buckets_[random.next() % i]);
}

const std::vector<const Example*>& BatchSchedule::batch(long epoch, long index) {
    prepare_epoch(epoch);
    return buckets_.at(static_cast<size_t>(index));
}

namespace {

uint64_t fingerprint(const std::vector<Example>& examples) {
    uint64_t hash = kFnv1a64OffsetBasis;
    for (const Example& e : examples) {
        hash = fnv1a64(e.source.data(), e.source.size() * sizeof(int), hash);
        hash = fnv1a64(e.target.data(), e.target.size() * sizeof(int), hash);
    }
    return hash;
}

}  // namespace

void initialize_model(Model& model, uint64_t seed) {
    model.config.source_vocab_size = model.source_vocabulary.size();
    model.config.target_vocab_size = model.target_vocabulary.size();
    model.config.validate();
    model.params = random_parameters(model.config, seed);
}

Trainer::Trainer(Model& model, const std::vector<Example>& examples, const TrainerOptions& options)
    : model_(model), examples_(examples), options_(options), schedule_(examples, options.batch_size, options.seed),
      data_fingerprint_(fingerprint(examples)), adam_(make_adam_state(model.config)) {
    if (model.translation_only) {
        throw UsageError("this model was loaded for translation only (LoadFor::kTranslation), without the float "
                         "weights training updates; load the file with load_model, or model_from_bytes(..., "
                         "LoadFor::kAnything), to train it");
    }
    model.int8_step = Int8StepWeights{};
    if (options.threads < 1 || options.threads > 64) throw UsageError("threads must be between 1 and 64");
    if (options.total_steps < 1) throw UsageError("steps must be at least 1");
    if (!(options.dropout >= 0.0f && options.dropout < 1.0f)) throw UsageError("dropout must be in [0, 1)");
    if (!(options.piece_dropout >= 0.0f && options.piece_dropout < 1.0f)) throw UsageError("piece dropout must be in [0, 1)");
    if (options.piece_dropout > 0.0f && !options.resegment_source) {
        throw UsageError("piece dropout needs the examples' source text to draw pieces from (TrainerOptions::resegment_source)");
    }
    if (options.teacher != nullptr && !(options.teacher_weight > 0.0f && options.teacher_weight <= 1.0f)) {
        throw UsageError("the teacher's weight must be in (0, 1]");
    }
    for (int i = 0; i < options.threads; ++i) shard_gradients_.push_back(zero_parameters(model.config));
}

float Trainer::learning_rate_at(long step) const {
    const float peak = options_.learning_rate;
    if (step < options_.warmup_steps) return peak * static_cast<float>(step + 1) / static_cast<float>(options_.warmup_steps);
    const double span = std::max<long>(1, options_.total_steps - options_.warmup_steps);
    const double progress = std::min(1.0, static_cast<double>(step - options_.warmup_steps) / span);
    const double floor = options_.final_learning_rate_fraction;
    return static_cast<float>(peak * (floor + (1.0 - floor) * 0.5 * (1.0 + std::cos(M_PI * progress))));
}

std::vector<const Example*> Trainer::with_piece_dropout(const std::vector<const Example*>& examples,
                                                        std::vector<Example>& storage) const {
    if (!(options_.piece_dropout > 0.0f)) return examples;
    storage.clear();
    storage.reserve(examples.size());
    for (const Example* e : examples) {
        const auto index = static_cast<size_t>(e - examples_.data());
        Random random(options_.seed * 0xff51afd7ed558ccdULL ^ (static_cast<uint64_t>(adam_.step) << 32) ^ index);
        storage.push_back({options_.resegment_source(index, options_.piece_dropout, random), e->target});
    }
    std::vector<const Example*> out;
    out.reserve(storage.size());
    for (const Example& e : storage) out.push_back(&e);
    return out;
}

StepReport Trainer::step() {
    std::vector<Example> resegmented;
    const std::vector<const Example*> examples = with_piece_dropout(schedule_.batch(epoch_, batch_index_), resegmented);
    if (++batch_index_ >= schedule_.batches_per_epoch()) {
        batch_index_ = 0;
        ++epoch_;
    }
    long target_tokens = 0, source_tokens = 0;
    for (const Example* e : examples) {
        target_tokens += static_cast<long>(e->target.size());
        source_tokens += static_cast<long>(e->source.size());
    }

    // Data parallelism: contiguous shards, one per thread, each into its own
    // gradient buffer; summed in a fixed order so runs are repeatable.
    const int shards = std::min<int>(options_.threads, static_cast<int>(examples.size()));
    std::vector<double> losses(shards, 0.0);
    LossOptions loss_options;
    loss_options.dropout = options_.dropout;
    loss_options.label_smoothing = options_.label_smoothing;
    loss_options.scale = 1.0f / static_cast<float>(target_tokens);
    loss_options.teacher = options_.teacher;
    loss_options.teacher_weight = options_.teacher_weight;  // read only with a teacher
    auto run_shard = [&](int shard) {
        const size_t begin = examples.size() * shard / shards, end = examples.size() * (shard + 1) / shards;
        const std::vector<const Example*> part(examples.begin() + begin, examples.begin() + end);
        const Batch batch = make_batch(part);
        Random random(options_.seed ^ (static_cast<uint64_t>(adam_.step) * 0x100000001b3ULL + static_cast<uint64_t>(shard) * 0x9e3779b97f4a7c15ULL));
        set_zero(shard_gradients_[shard]);
        losses[shard] = loss_and_gradients(model_.params, model_.config, batch, loss_options, &random, shard_gradients_[shard]);
    };
    if (shards == 1) {
        run_shard(0);
    } else {
        // An exception must not escape a thread (that would terminate the
        // process): keep the first one and rethrow it here.
        std::vector<std::exception_ptr> errors(shards);
        auto guarded = [&](int shard) {
            try {
                run_shard(shard);
            } catch (...) {
                errors[shard] = std::current_exception();
            }
        };
        std::vector<std::thread> threads;
        for (int s = 1; s < shards; ++s) threads.emplace_back(guarded, s);
        guarded(0);
        for (auto& t : threads) t.join();
        for (const auto& error : errors) {
            if (error) std::rethrow_exception(error);
        }
        for (int s = 1; s < shards; ++s) add_into(shard_gradients_[0], shard_gradients_[s]);
    }
    StepReport report;
    report.gradient_norm = clip_gradient_norm(shard_gradients_[0], options_.clip_norm);
    report.learning_rate = learning_rate_at(adam_.step);
    AdamOptions adam_options;
    adam_options.learning_rate = report.learning_rate;
    adam_update(model_.params, shard_gradients_[0], adam_, adam_options);
    report.loss_per_token = std::accumulate(losses.begin(), losses.end(), 0.0) / static_cast<double>(target_tokens);
    report.target_tokens = target_tokens;
    report.source_tokens = source_tokens;
    return report;
}

}  // namespace s2s
