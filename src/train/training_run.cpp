// A training run on a parallel corpus (training_run.h): the model's
// start (its encoder or every weight from another model:
// weight_operations.h), the step loop with its development checks and
// checkpoints, and the averaging of the last checkpoints. The data it
// trains on: training_data.cpp; the provenance it records:
// training_run_provenance.cpp.
#include "train/training_run.h"

#include "common/error.h"
#include "format/model_file.h"
#include "text/bpe.h"
#include "text/tokenizer.h"
#include "train/data_source.h"
#include "train/weight_operations.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace s2s {
namespace {

// Fails now, not after an hour of training, when PATH cannot be written.
void check_writable(const std::string& path) {
    const std::string probe = path + ".tmp";
    {
        std::ofstream out(probe);
        if (!out) throw IoError("cannot write " + path + ": check that its folder exists and is writable");
    }
    std::filesystem::remove(probe);
}

std::string today() {
    const std::time_t now = std::time(nullptr);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%d", std::gmtime(&now));
    return buffer;
}

std::string checkpoint_path(const TrainingRunOptions& options) { return options.checkpoint_dir + "/checkpoint.s2s"; }

}  // namespace

TrainingRun::TrainingRun(TrainingRunOptions options, const std::function<void(const std::string&)>& log)
    : options_(std::move(options)) {
    provenance_.created = today();
    std::error_code error;
    std::filesystem::create_directories(options_.checkpoint_dir, error);
    if (error) throw IoError("cannot create the checkpoint folder " + options_.checkpoint_dir + ": " + error.message());
    check_writable(options_.output_path);
    if (!options_.data.export_dev_path.empty()) check_writable(options_.data.export_dev_path);
    prepare(log);
    trainer_ = std::make_unique<Trainer>(model_, train_, options_.trainer);
    resume(log);
    record_data_sources();
    started_ = std::chrono::steady_clock::now();
}

void TrainingRun::prepare(const std::function<void(const std::string&)>& log) {
    const TrainingDataOptions& data = options_.data;
    model_.source_tokenizer = {data.source_pieces > 0 ? TokenizerKind::kSubwords : TokenizerKind::kWords, "en"};
    model_.target_tokenizer = {data.target_pieces > 0 ? TokenizerKind::kSubwords
                               : data.target_language == "zh" ? TokenizerKind::kCharacters
                                                              : TokenizerKind::kWords,
                               data.target_language};
    model_.config = options_.config;

    log("reading " + data.path);
    const std::vector<SentencePair> pairs = read_sentence_pairs(data.path);
    data_pairs_ = pairs.size();
    const std::vector<SentencePair> excluded =
        data.exclude_sources_path.empty() ? std::vector<SentencePair>{} : read_sentence_pairs(data.exclude_sources_path);
    // A model whose encoder starts from --init-encoder reads English as
    // that model does: its source pieces and vocabulary come along.
    if (!options_.init_encoder_path.empty() && !options_.init_model_path.empty()) {
        throw UsageError("{init-model} already starts the encoder; drop {init-encoder}");
    }
    const std::string& init_path =
        options_.init_model_path.empty() ? options_.init_encoder_path : options_.init_model_path;
    Model donor;
    bool source_given = false;  // the English tokens come from the donor
    if (!init_path.empty()) {
        donor = load_model(init_path);
        if (donor.source_tokenizer.kind == TokenizerKind::kSubwords) {
            if (data.source_pieces > 0) {
                throw UsageError(std::string(options_.init_model_path.empty() ? "{init-encoder} " : "{init-model} ") +
                                 init_path + " brings its own English pieces; drop {source-pieces}");
            }
            model_.source_tokenizer = donor.source_tokenizer;
            model_.source_vocabulary = donor.source_vocabulary;
            source_given = true;
        }
    }
    const Vocabulary* target_base = nullptr;
    if (!options_.init_model_path.empty()) {
        // A second stage reads and writes the tokens of the first.
        if (donor.target_tokenizer.language != data.target_language) {
            throw UsageError("{init-model} " + init_path + " writes '" + donor.target_tokenizer.language +
                             "', this run's {target-language} is '" + data.target_language + "'; give the same");
        }
        if (data.target_pieces > 0) {
            throw UsageError("{init-model} " + init_path + " brings its own target tokens; drop {target-pieces}");
        }
        model_.source_tokenizer = donor.source_tokenizer;
        model_.source_vocabulary = donor.source_vocabulary;
        model_.target_tokenizer = donor.target_tokenizer;
        target_base = &donor.target_vocabulary;
        source_given = true;
    }
    std::vector<std::vector<SentencePair>> extra;
    for (const ExtraData& file : data.extra) {
        log("reading " + file.path + " (training only, " + std::to_string(file.repeat) + " times)");
        extra.push_back(read_sentence_pairs(file.path));
        extra_pairs_.push_back(extra.back().size());
    }
    const bool learn_source = !source_given;
    PreparedData prepared = prepare_data(pairs, data, model_, learn_source, target_base, excluded, extra);
    extra_used_ = prepared.extra_used;
    if (options_.trainer.piece_dropout > 0.0f) {
        if (model_.source_tokenizer.kind != TokenizerKind::kSubwords) {
            throw UsageError("{piece-dropout} draws English subword pieces, and this model reads English as " +
                             std::string(model_.source_tokenizer.kind == TokenizerKind::kWords ? "words" : "characters") +
                             ": add {source-pieces} N (or start from a model that has them), or drop {piece-dropout}");
        }
        train_sources_ = std::move(prepared.train_sources);
        options_.trainer.resegment_source = [this](size_t example, float dropout, Random& random) {
            const TokenizerSettings& tokenizer = model_.source_tokenizer;
            return model_.source_vocabulary.encode_with_eos(
                tokenizer.bpe->encode(train_sources_[example], tokenizer.language, dropout, random));
        };
    }
    if (!data.export_dev_path.empty()) write_sentence_pairs(prepared.dev, data.export_dev_path);
    if (prepared.train.empty()) {
        throw DataError("no usable training pairs in " + data.path + " (" + std::to_string(pairs.size()) +
                        " pairs read); check the file and {dev-fraction} / {max-source-words}");
    }
    if (model_.source_vocabulary.size() <= Vocabulary::kNumSpecial ||
        model_.target_vocabulary.size() <= Vocabulary::kNumSpecial) {
        throw DataError("no token of " + data.path + " occurs {min-frequency} " + std::to_string(data.min_frequency) +
                        " times on one side; lower {min-frequency} or use more data");
    }
    initialize_model(model_, options_.trainer.seed);
    if (!options_.init_model_path.empty()) {
        init_model_from(model_, donor, init_path);
        const nlohmann::json donor_steps = donor.provenance.value("/training/steps"_json_pointer, nlohmann::json(nullptr));
        provenance_.training.init_model = InitModelRecord{
            model_file_reference_to(init_path, file_fnv1a64_hex(init_path), donor.provenance),
            donor_steps.is_number_integer() ? std::optional<long>(donor_steps.get<long>()) : std::nullopt,
            dtype_short_name(donor.stored_dtype), model_.config.target_vocab_size - donor.config.target_vocab_size};
        log("every weight initialized from " + init_path + " (stored as " + std::string(dtype_short_name(donor.stored_dtype)) + "; " +
            std::to_string(model_.config.target_vocab_size - donor.config.target_vocab_size) +
            " target tokens added at random)");
    } else if (!init_path.empty()) {
        const long copied = init_encoder_from(model_, donor, init_path);
        provenance_.training.init_encoder =
            InitEncoderRecord{model_file_reference_to(init_path, file_fnv1a64_hex(init_path), donor.provenance), copied};
        char line[512];
        std::snprintf(line, sizeof line, "encoder initialized from %s (%ld of %d source embeddings)", init_path.c_str(),
                      copied, model_.config.source_vocab_size);
        log(line);
    }
    if (!options_.teacher_path.empty()) load_teacher(log);
    char line[512];
    std::snprintf(line, sizeof line,
                  "%zu pairs: %ld for training (%ld skipped as empty or too long, %ld as development sources, "
                  "%ld by {exclude-sources}), %zu development sentences; vocabularies %d / %d; %ld parameters",
                  pairs.size(), prepared.train_pairs, prepared.skipped_pairs, prepared.leaked_pairs,
                  prepared.excluded_pairs, prepared.dev.size(), model_.config.source_vocab_size,
                  model_.config.target_vocab_size, model_.params.count());
    log(line);
    for (size_t file = 0; file < data.extra.size(); ++file) {
        log("  of which from " + data.extra[file].path + ": " + std::to_string(extra_used_[file]) + " of " +
            std::to_string(extra_pairs_[file]) + " pairs, " + std::to_string(data.extra[file].repeat) + " times each");
    }

    excluded_pairs_ = prepared.excluded_pairs;
    provenance_.split = SplitRecord{"by English sentence, FNV-1a hash", data.dev_fraction, data.split_seed,
                                    prepared.train_pairs, std::nullopt, prepared.dev.size()};
    train_ = std::move(prepared.train);
    dev_ = std::move(prepared.dev);
    // The data files are sorted by sentence length, so the periodic check
    // spreads its sample evenly over the whole split: all lengths, not the
    // shortest.
    dev_sample_ = spread_sample(dev_, static_cast<size_t>(options_.eval_sentences));
}

void TrainingRun::load_teacher(const std::function<void(const std::string&)>& log) {
    const std::string& path = options_.teacher_path;
    teacher_ = load_model(path);
    if (teacher_.source_tokenizer.kind != model_.source_tokenizer.kind ||
        teacher_.target_tokenizer.kind != model_.target_tokenizer.kind ||
        teacher_.source_vocabulary.tokens() != model_.source_vocabulary.tokens() ||
        teacher_.target_vocabulary.tokens() != model_.target_vocabulary.tokens()) {
        throw UsageError("{teacher} " + path + " reads or writes other tokens than this run (its vocabularies have " +
                         std::to_string(teacher_.source_vocabulary.size()) + " and " +
                         std::to_string(teacher_.target_vocabulary.size()) + " entries, this run's " +
                         std::to_string(model_.source_vocabulary.size()) + " and " +
                         std::to_string(model_.target_vocabulary.size()) +
                         "); a teacher must have been trained on this data with the same vocabulary {flags}");
    }
    const std::string hash = file_fnv1a64_hex(path);
    options_.trainer.teacher = &teacher_;
    options_.trainer.teacher_identity = hash;
    const float weight = options_.trainer.teacher_weight;
    provenance_.training.teacher = TeacherRecord{
        model_file_reference_to(path, hash, teacher_.provenance), weight,
        "word-level distillation: the teacher's softmax takes this weight of each target position's distribution, "
        "the label-smoothed reference the rest"};
    log("distilling from " + path + " (weight " + std::to_string(weight).substr(0, 4) + ")");
}

void TrainingRun::resume(const std::function<void(const std::string&)>& log) {
    const std::string checkpoint = checkpoint_path(options_);
    if (!options_.resume) return;
    if (!std::filesystem::exists(checkpoint)) {
        log("no checkpoint at " + checkpoint + "; starting from scratch");
        return;
    }
    trainer_->load_checkpoint(checkpoint);
    // What the earlier part of the run recorded: its wall time, its
    // development BLEU history and its start date.
    try {
        const nlohmann::json& provenance = model_.provenance;
        const nlohmann::json training = provenance.value("training", nlohmann::json::object());
        previous_seconds_ = training.value("wall_seconds", 0.0);
        // Tokens of the earlier part, so tokens/s covers the whole run
        // (a resume that only finishes would otherwise record 0).
        previous_tokens_ = training.value("tokens_per_second", 0.0) * previous_seconds_;
        provenance_.training.dev_bleu_history =
            dev_bleu_history_from_json(training.value("dev_bleu_history", nlohmann::json::array()));
        provenance_.created = provenance.value("created", provenance_.created);
    } catch (const nlohmann::json::exception& e) {
        throw ModelFileError("checkpoint " + checkpoint + " has a damaged provenance record (" + e.what() +
                             "); use a new {checkpoint-dir}");
    }
    log("resumed from " + checkpoint + " at step " + std::to_string(trainer_->steps_done()));
}

double TrainingRun::wall_seconds() const {
    return previous_seconds_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

bool TrainingRun::train(const TrainingRunHooks& hooks) {
    const std::string checkpoint = checkpoint_path(options_);
    const long total = options_.trainer.total_steps;
    const auto elapsed = [&]() {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    };
    bool out_of_time = false;
    const std::vector<long> averaged = averaged_steps();  // snapshots kept for --average-last
    while (trainer_->steps_done() < total) {
        const StepReport report = trainer_->step();
        tokens_this_part_ += report.target_tokens + report.source_tokens;
        const long done = trainer_->steps_done();
        if (hooks.on_step) hooks.on_step(done, report);
        if (options_.eval_every > 0 && done % options_.eval_every == 0 && !dev_sample_.empty() && hooks.evaluate) {
            const DevScore score = hooks.evaluate(model_, dev_sample_);
            provenance_.training.dev_bleu_history.push_back({done, score.bleu});
            char line[160];
            std::snprintf(line, sizeof line, "step %ld: development BLEU %.2f on %zu sentences (%.1f s)", done,
                          score.bleu, dev_sample_.size(), score.seconds);
            if (hooks.on_message) hooks.on_message(line);
        }
        out_of_time = options_.max_minutes > 0 && elapsed() > options_.max_minutes * 60.0;
        // The snapshot before the checkpoint: a run resumed from the
        // checkpoint of step s always has the snapshot of step s.
        if (averaged.size() > 1 && std::find(averaged.begin(), averaged.end(), done) != averaged.end()) {
            save_model(model_, snapshot_path(done));
        }
        if (done % options_.checkpoint_every == 0 || done == total || out_of_time) {
            record_provenance(false);
            trainer_->save_checkpoint(checkpoint);
        }
        if (out_of_time) break;
    }
    return !out_of_time;
}

std::string TrainingRun::snapshot_path(long step) const {
    return options_.checkpoint_dir + "/snapshot-" + std::to_string(step) + ".s2s";
}

std::vector<long> TrainingRun::averaged_steps() const {
    std::vector<long> steps;
    const long total = options_.trainer.total_steps;
    // The final step, then every checkpoint_every before it.
    const long last_regular = total - total % options_.checkpoint_every;
    steps.push_back(total);
    for (long s = last_regular == total ? total - options_.checkpoint_every : last_regular;
         s > 0 && static_cast<int>(steps.size()) < options_.average_last; s -= options_.checkpoint_every) {
        steps.push_back(s);
    }
    std::reverse(steps.begin(), steps.end());
    return steps;
}

void TrainingRun::average_snapshots() {
    const std::vector<long> steps = averaged_steps();
    Parameters sum = model_.params;
    sum.for_each_tensor([](const std::string&, Matrix& m) { m.setZero(); });
    for (long step : steps) {
        const std::string path = snapshot_path(step);
        if (!std::filesystem::exists(path)) {
            throw IoError("{average-last} " + std::to_string(options_.average_last) + " needs the snapshot " + path +
                          ", which is missing (the run was trained without {average-last}, or with another "
                          "{checkpoint-every}); finish with the {flags} it was trained with, or retrain");
        }
        Model snapshot = load_model(path);
        if (to_json(snapshot.config) != to_json(model_.config)) {
            throw ModelFileError("the snapshot " + path + " holds a model of another configuration; use a new {checkpoint-dir}");
        }
        zip_tensors(sum, snapshot.params, [](Matrix& m, const Matrix& s) { m += s; });
    }
    const float scale = 1.0f / static_cast<float>(steps.size());
    sum.for_each_tensor([&](const std::string&, Matrix& m) { m *= scale; });
    model_.params = std::move(sum);
    provenance_.training.averaged_checkpoints = steps;
}

DevScore TrainingRun::finish(const TrainingRunHooks& hooks) {
    if (!hooks.evaluate) throw UsageError("TrainingRun::finish needs an evaluate hook to score the development split");
    if (averaged_steps().size() > 1) {
        average_snapshots();
        if (hooks.on_message) {
            hooks.on_message("weights averaged over the checkpoints of steps " +
                             nlohmann::json(averaged_steps()).dump() + " ({average-last})");
        }
    }
    const DevScore score = hooks.evaluate(model_, dev_);
    record_provenance(true);
    model_.provenance["dev_bleu"] = score.report;
    model_.int8_levels = options_.int8_levels;
    save_model(model_, options_.output_path, options_.output_dtype);
    return score;
}

}  // namespace s2s
