// seq2seq train: the flags of a training run (src/train/training_run.h),
// parsed into its options, and its progress printed: a progress bar, the
// periodic development BLEU, and where the model was written.
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "common/error.h"
#include "common/option_names.h"
#include "eval/evaluate.h"
#include "train/training_run.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace s2s::cli {

namespace {
constexpr const char* kHelp = R"(usage: seq2seq train --data TSV --output PATH [flags]

Trains an attention (or fixed-context) Seq2Seq model on English <tab>
translation pairs. A development split is held out by English sentence.
data and split:
  --data TSV              training pairs (e.g. ../shared/data/fra-eng.txt)
  --target-language L     fr (words, default) or zh (characters)
  --dev-fraction F        share of English sentences held out (default 0.03)
  --split-seed N          seed of the split (default 1)
  --max-source-words N    skip longer training pairs (default 40)
  --export-dev TSV        write the development split (all references) to TSV
  --exclude-sources TSV   also drop training pairs whose English is in column 1
                          of TSV (e.g. another model's development split, from
                          `seq2seq split`), so a model used to initialize that
                          one has never seen its development sources
  --extra-data LIST       training-only files beside --data, comma-separated, each
                          PATH or PATH:N (its pairs N times per epoch); never split,
                          and a pair whose English is a development source is dropped
vocabulary (learned from the training split only):
  --source-pieces N       English as BPE subword pieces, N entries in all
                          (e.g. 8000); 0 = whole words (default)
  --target-pieces N       the target as BPE pieces; 0 = words (fr) or
                          characters (zh, every character seen is kept)
  --min-frequency N       words and characters: keep tokens seen N times (default 2)
  --max-source-vocab N    words: cap the source vocabulary (default 0 = none)
  --max-target-vocab N    words: cap the target vocabulary (default 0 = none)
model:
  --init-encoder MODEL    start the encoder (GRUs and the embeddings of shared
                          English words) from a trained model with the same
                          --embedding and --hidden; the rest starts at random
  --init-model MODEL      start every weight from a model of this run's sizes: a
                          second stage, a new learning-rate cycle. Its English and
                          target tokens come along; a target of words or characters
                          grows by the tokens of this run's data it lacks
  --teacher MODEL         word-level knowledge distillation: MODEL (same English
                          pieces and target tokens as this run, any sizes) reads
                          each batch, and its softmax takes --teacher-weight of
                          each target position's distribution (default 0.5)
  --attention KIND        additive (default), dot, scaled-dot, general, none
  --embedding N --hidden N --decoder-hidden N --attention-size N --output-hidden N
training:
  --steps N               total updates (default 10000)
  --batch-size N          sentences per batch (default 64)
  --learning-rate F       peak Adam learning rate (default 0.002)
  --warmup N              warm-up steps (default 200)
  --dropout F             (default 0.2)    --label-smoothing F (default 0.1)
  --piece-dropout F       BPE-dropout on the English pieces: each merge skipped
                          with probability F, drawn afresh each time a sentence
                          is trained on (default 0; 0.1 in Provilkov et al., 2020)
  --clip F                gradient norm clip (default 5)
  --threads N             gradient shards in parallel (default 2)
  --seed N                initialization, data order, dropout (default 1)
evaluation and checkpoints:
  --eval-every N          development BLEU every N steps (default 1000, 0 = never)
  --eval-sentences N      development sentences for those checks (default 500)
  --checkpoint-dir DIR    write DIR/checkpoint.s2s(.optimizer) (default checkpoints/NAME)
  --checkpoint-every N    (default 500)
  --resume                continue from the checkpoint in --checkpoint-dir
  --max-minutes F         stop (with a checkpoint) after this long; resume later
  --average-last N        write the mean weights of the last N checkpoints (every
                          --checkpoint-every steps, the last at the final step;
                          kept as snapshot-STEP.s2s in the checkpoint folder)
output:
  --output PATH           the model file to write at the end
  --name NAME             the model's name in its provenance (default: output file stem)
  --dtype f32|f16|i8      tensor storage in the output file (default f32; see `seq2seq convert`)
  --int8-bits B           with i8: quantization bits, 2 to 8 (default 8; see `seq2seq convert`)
)";

// --extra-data "a.tsv,b.tsv:3": files and how many times each is repeated.
std::vector<ExtraData> extra_data(const std::string& list) {
    std::vector<ExtraData> files;
    size_t start = 0;
    while (start < list.size()) {
        size_t end = list.find(',', start);
        if (end == std::string::npos) end = list.size();
        std::string entry = list.substr(start, end - start);
        start = end + 1;
        if (entry.empty()) continue;
        ExtraData file;
        const size_t colon = entry.rfind(':');
        if (colon != std::string::npos) {
            const std::string count = entry.substr(colon + 1);
            char* rest = nullptr;
            const long repeat = std::strtol(count.c_str(), &rest, 10);
            if (count.empty() || *rest != '\0' || repeat < 1 || repeat > 1000) {
                throw UsageError("--extra-data: '" + entry + "' must be PATH or PATH:N with N from 1 to 1000");
            }
            file.repeat = static_cast<int>(repeat);
            entry.resize(colon);
        }
        file.path = entry;
        files.push_back(std::move(file));
    }
    return files;
}

// Every data and vocabulary flag, parsed once (defaults live in
// TrainingDataOptions).
TrainingDataOptions data_options(const Args& args) {
    TrainingDataOptions o;
    o.path = args.required("data");
    o.target_language = args.string("target-language", o.target_language);
    if (o.target_language != "fr" && o.target_language != "zh") {
        throw UsageError("--target-language must be fr or zh, not '" + o.target_language + "'");
    }
    o.dev_fraction = args.real("dev-fraction", o.dev_fraction, 0.0, 0.5);
    o.split_seed = static_cast<uint64_t>(args.integer("split-seed", static_cast<long>(o.split_seed), 0, 1L << 40));
    o.max_source_words = args.integer("max-source-words", o.max_source_words, 1, 1000);
    o.min_frequency = static_cast<int>(args.integer("min-frequency", o.min_frequency, 1, 1000000));
    o.max_source_vocab = static_cast<int>(args.integer("max-source-vocab", 0, 0, 1000000));
    o.max_target_vocab = static_cast<int>(args.integer("max-target-vocab", 0, 0, 1000000));
    o.source_pieces = static_cast<int>(args.integer("source-pieces", 0, 0, 1000000));
    o.target_pieces = static_cast<int>(args.integer("target-pieces", 0, 0, 1000000));
    for (const int pieces : {o.source_pieces, o.target_pieces}) {
        if (pieces > 0 && pieces < 2 * Vocabulary::kNumSpecial) {
            throw UsageError("--source-pieces and --target-pieces need room for the alphabet: use 0 (words) or "
                             "several thousand, e.g. 8000");
        }
    }
    o.exclude_sources_path = args.string("exclude-sources", "");
    o.export_dev_path = args.string("export-dev", "");
    o.extra = extra_data(args.string("extra-data", ""));
    return o;
}

TrainingRunOptions run_options(const Args& args) {
    TrainingRunOptions o;
    o.data = data_options(args);
    o.output_path = args.required("output");
    o.name = args.string("name", std::filesystem::path(o.output_path).stem().string());
    if (o.name.empty() || std::filesystem::is_directory(o.output_path)) {
        throw UsageError("--output must name a model file (for example models/my-model.s2s), not a folder");
    }
    o.checkpoint_dir = args.string("checkpoint-dir", "checkpoints/" + o.name);
    o.resume = args.has("resume");
    const std::string dtype_name = args.string("dtype", "f32");
    if (!parse_dtype(dtype_name, o.output_dtype)) throw UsageError("--dtype must be f32, f16 or i8");
    o.int8_levels = args.int8_levels(o.output_dtype == TensorDtype::kInt8, kMaxInt8Levels);

    ModelConfig& config = o.config;
    config.attention = attention_kind_from_name(args.string("attention", "additive"));
    config.embedding_size = static_cast<int>(args.integer("embedding", 128, 1, 4096));
    config.encoder_hidden_size = static_cast<int>(args.integer("hidden", 128, 1, 4096));
    config.decoder_hidden_size = static_cast<int>(args.integer("decoder-hidden", 256, 1, 4096));
    config.attention_size = static_cast<int>(args.integer("attention-size", 128, 1, 4096));
    config.output_hidden_size = static_cast<int>(args.integer("output-hidden", 256, 1, 4096));
    o.init_encoder_path = args.string("init-encoder", "");
    o.init_model_path = args.string("init-model", "");
    o.teacher_path = args.string("teacher", "");
    o.trainer.teacher_weight = static_cast<float>(args.real("teacher-weight", 0.5, 0.01, 1.0));
    if (args.has("teacher-weight") && o.teacher_path.empty()) {
        throw UsageError("--teacher-weight needs --teacher MODEL");
    }

    TrainerOptions& trainer = o.trainer;
    trainer.total_steps = args.integer("steps", 10000, 1, 100000000);
    trainer.batch_size = static_cast<int>(args.integer("batch-size", 64, 1, 4096));
    trainer.learning_rate = static_cast<float>(args.real("learning-rate", 2e-3, 1e-6, 1.0));
    trainer.warmup_steps = static_cast<int>(args.integer("warmup", 200, 1, 1000000));
    trainer.dropout = static_cast<float>(args.real("dropout", 0.2, 0.0, 0.9));
    trainer.label_smoothing = static_cast<float>(args.real("label-smoothing", 0.1, 0.0, 0.5));
    trainer.piece_dropout = static_cast<float>(args.real("piece-dropout", 0.0, 0.0, 0.9));
    trainer.clip_norm = static_cast<float>(args.real("clip", 5.0, 0.0, 1e6));
    trainer.threads = static_cast<int>(args.integer("threads", 2, 1, 64));
    trainer.seed = static_cast<uint64_t>(args.integer("seed", 1, 0, 1L << 40));
    o.eval_every = args.integer("eval-every", 1000, 0, 100000000);
    o.eval_sentences = args.integer("eval-sentences", 500, 1, 100000000);
    o.checkpoint_every = args.integer("checkpoint-every", 500, 1, 100000000);
    o.max_minutes = args.real("max-minutes", 0.0, 0.0, 1e7);
    o.average_last = static_cast<int>(args.integer("average-last", 0, 0, 1000));
    return o;
}

// The run's messages name options by marker ({init-model}): printed as flags.
void print_line(const std::string& line) {
    std::fprintf(stderr, "%s\n", spell_options(line, OptionStyle::kCli).c_str());
}

}  // namespace

int run_train(const std::vector<std::string>& argv) {
    const Args args("train", argv,
                    {"data", "target-language", "dev-fraction", "split-seed", "max-source-words", "export-dev",
                     "exclude-sources", "extra-data", "min-frequency", "max-source-vocab", "max-target-vocab", "source-pieces", "target-pieces", "attention", "embedding", "hidden",
                     "decoder-hidden", "attention-size", "init-encoder", "init-model", "teacher", "teacher-weight", "output-hidden", "steps", "batch-size", "learning-rate",
                     "warmup", "dropout", "piece-dropout", "label-smoothing", "clip", "threads", "seed", "eval-every",
                     "eval-sentences", "checkpoint-dir", "checkpoint-every", "max-minutes", "average-last", "output", "name", "dtype", "int8-bits"},
                    {"resume", "help"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    TrainingRun run(run_options(args), print_line);
    const TrainingRunOptions& options = run.options();

    TrainingRunHooks hooks;
    hooks.evaluate = [&](const Model& model, const std::vector<SourceWithReferences>& sentences) {
        DecodeOptions greedy;  // the training's development score is greedy's, as during training
        greedy.beam_size = 1;
        const Evaluation evaluation = evaluate_model(model, sentences, greedy, options.trainer.threads);
        return DevScore{evaluation.report.overall.bleu, evaluation.seconds, to_json(evaluation.report)};
    };
    ProgressBar progress(options.trainer.total_steps, run.steps_done(), 100);
    hooks.on_step = [&](long done, const StepReport& report) {
        progress.update(done, report.loss_per_token, report.target_tokens + report.source_tokens);
    };
    hooks.on_message = [&](const std::string& line) { progress.message(spell_options(line, OptionStyle::kCli)); };
    const bool finished = run.train(hooks);
    progress.finish();
    if (!finished) {
        std::fprintf(stderr, "stopped after %.1f minutes at step %ld; continue with the same command and --resume\n",
                     options.max_minutes, run.steps_done());
        return 0;
    }

    std::fprintf(stderr, "evaluating on %zu development sentences\n", run.dev_sentences());
    const DevScore score = run.finish(hooks);
    std::fprintf(stderr, "development BLEU %.2f; wrote %s (%s of training)\n", score.bleu, options.output_path.c_str(),
                 format_duration(run.model().provenance.at("training").at("wall_seconds").get<double>()).c_str());
    return 0;
}

}  // namespace s2s::cli
