// seq2seq train: data -> split -> vocabularies -> trainer loop with progress,
// periodic development BLEU, checkpoints and resume -> model file with its
// provenance.
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "common/error.h"
#include "eval/evaluate.h"
#include "model/model.h"
#include "text/bpe.h"
#include "text/parallel_corpus.h"
#include "train/trainer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <system_error>
#include <unordered_set>

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
  --attention KIND        additive (default), dot, scaled-dot, general, none
  --embedding N --hidden N --decoder-hidden N --attention-size N --output-hidden N
training:
  --steps N               total updates (default 10000)
  --batch-size N          sentences per batch (default 64)
  --learning-rate F       peak Adam learning rate (default 0.002)
  --warmup N              warm-up steps (default 200)
  --dropout F             (default 0.2)    --label-smoothing F (default 0.1)
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
output:
  --output PATH           the model file to write at the end
  --name NAME             the model's name in its provenance (default: output file stem)
  --dtype f32|f16|i8      tensor storage in the output file (default f32; see `seq2seq convert`)
  --int8-bits B           with i8: quantization bits, 2 to 8 (default 8; see `seq2seq convert`)
)";

// Every data and vocabulary flag, parsed once (defaults live here only).
struct DataOptions {
    std::string path;
    std::string target_language = "fr";
    double dev_fraction = 0.03;
    uint64_t split_seed = 1;
    long max_source_words = 40;
    int min_frequency = 2;
    int max_source_vocab = 0;
    int max_target_vocab = 0;
    int source_pieces = 0;  // BPE vocabulary size including the specials; 0 = words
    int target_pieces = 0;  // 0 = words (fr) or characters (zh)

    static DataOptions from(const Args& args) {
        DataOptions o;
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
        return o;
    }
};

struct PreparedData {
    std::vector<Example> train;
    std::vector<SourceWithReferences> dev;
    long train_pairs = 0, skipped_pairs = 0, leaked_pairs = 0, excluded_pairs = 0;
};

// The English word tokenizer: it defines "words" (the length limit, the
// leak guards) whatever pieces the model reads.
const TokenizerSettings kEnglishWords{TokenizerKind::kWords, "en"};

// One side's vocabulary (and, for subwords, its merges) from the training
// sentences of that side only.
Vocabulary learn_vocabulary(const std::vector<std::string>& sentences, TokenizerSettings& tokenizer, int size,
                            int min_frequency) {
    if (tokenizer.kind == TokenizerKind::kSubwords) {
        std::vector<std::string> pieces;
        tokenizer.bpe = std::make_shared<const BpeModel>(
            BpeModel::learn(count_pre_tokens(sentences, tokenizer.language), size - Vocabulary::kNumSpecial, &pieces));
        std::vector<std::string> tokens = Vocabulary().tokens();
        tokens.insert(tokens.end(), pieces.begin(), pieces.end());
        return Vocabulary::from_tokens(std::move(tokens));
    }
    std::vector<std::vector<std::string>> tokenized;
    tokenized.reserve(sentences.size());
    for (const std::string& sentence : sentences) tokenized.push_back(tokenize(sentence, tokenizer));
    return Vocabulary::build(tokenized, min_frequency, size);
}

// Pieces of many sentences, each distinct sentence encoded once (the data
// repeats English sentences, one per translation).
std::vector<int> encode_with_eos(const std::string& text, const TokenizerSettings& tokenizer, const Vocabulary& vocabulary,
                                 std::unordered_map<std::string, std::vector<int>>& cache) {
    auto found = cache.find(text);
    if (found == cache.end()) {
        std::vector<int> ids = vocabulary.encode(tokenize(text, tokenizer));
        ids.push_back(Vocabulary::kEos);
        found = cache.emplace(text, std::move(ids)).first;
    }
    return found->second;
}

// Splits, filters and encodes the pairs. The model's tokenizers say what to
// learn: a side whose vocabulary is already set (the source, when the encoder
// comes from --init-encoder) keeps it; the others are learned here from the
// training split alone.
PreparedData prepare_data(const std::vector<SentencePair>& pairs, const DataOptions& options, Model& model,
                          bool learn_source, const std::vector<SentencePair>& excluded) {
    const CorpusSplit split = split_by_source(pairs, options.dev_fraction, options.split_seed);
    // The split groups English sentences by their normalized text; two
    // spellings that tokenize alike ("Go." and "Go .") could still land on
    // both sides. Drop such training pairs so that no development source is
    // ever seen in training.
    std::unordered_set<std::string> dev_sources;
    for (const auto& entry : split.dev) dev_sources.insert(token_key(entry.source, kEnglishWords));
    std::unordered_set<std::string> excluded_sources;
    for (const auto& pair : excluded) excluded_sources.insert(token_key(pair.source, kEnglishWords));
    std::vector<std::string> sources, targets;
    PreparedData out;
    for (const SentencePair& pair : split.train) {
        const auto words = tokenize(pair.source, kEnglishWords);
        if (words.empty() || normalize_text(pair.target).empty() || count_words(words) > options.max_source_words) {
            ++out.skipped_pairs;
            continue;
        }
        const std::string key = join_tokens(words);
        if (dev_sources.count(key) != 0) {
            ++out.leaked_pairs;
            continue;
        }
        if (excluded_sources.count(key) != 0) {
            ++out.excluded_pairs;
            continue;
        }
        sources.push_back(pair.source);
        targets.push_back(pair.target);
    }
    const auto size_of = [](const TokenizerSettings& t, int pieces, int max_words) {
        return t.kind == TokenizerKind::kSubwords ? pieces : max_words;
    };
    if (learn_source) {
        model.source_vocabulary =
            learn_vocabulary(sources, model.source_tokenizer,
                             size_of(model.source_tokenizer, options.source_pieces, options.max_source_vocab), options.min_frequency);
    }
    model.target_vocabulary =
        learn_vocabulary(targets, model.target_tokenizer,
                         size_of(model.target_tokenizer, options.target_pieces, options.max_target_vocab), options.min_frequency);
    std::unordered_map<std::string, std::vector<int>> source_cache, target_cache;
    for (size_t k = 0; k < sources.size(); ++k) {
        out.train.push_back({encode_with_eos(sources[k], model.source_tokenizer, model.source_vocabulary, source_cache),
                             encode_with_eos(targets[k], model.target_tokenizer, model.target_vocabulary, target_cache)});
    }
    out.dev = split.dev;
    out.train_pairs = static_cast<long>(out.train.size());
    return out;
}

// Fails now, not after an hour of training, when PATH cannot be written.
void check_writable(const std::string& path) {
    const std::string probe = path + ".tmp";
    {
        std::ofstream out(probe);
        if (!out) throw IoError("cannot write " + path + ": check that its folder exists and is writable");
    }
    std::filesystem::remove(probe);
}

// Transfer learning for a small corpus: the English encoder of a model
// trained on more data. Returns how many source embeddings were copied.
long init_encoder_from(Model& model, const Model& donor, const std::string& donor_path) {
    const ModelConfig& a = model.config;
    const ModelConfig& b = donor.config;
    if (a.embedding_size != b.embedding_size || a.encoder_hidden_size != b.encoder_hidden_size ||
        donor.source_tokenizer.kind != model.source_tokenizer.kind) {
        throw UsageError("--init-encoder " + donor_path + " has --embedding " + std::to_string(b.embedding_size) +
                         " --hidden " + std::to_string(b.encoder_hidden_size) +
                         "; use the same sizes (and the same kind of English tokens: pieces or words)");
    }
    model.params.encoder_forward = donor.params.encoder_forward;
    model.params.encoder_backward = donor.params.encoder_backward;
    long copied = 0;
    for (int id = 0; id < model.source_vocabulary.size(); ++id) {
        const int donor_id = id < Vocabulary::kNumSpecial ? id : donor.source_vocabulary.id(model.source_vocabulary.token(id));
        if (id >= Vocabulary::kNumSpecial && donor_id == Vocabulary::kUnk) continue;
        model.params.source_embedding.col(id) = donor.params.source_embedding.col(donor_id);
        ++copied;
    }
    return copied;
}

std::string today() {
    const std::time_t now = std::time(nullptr);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%d", std::gmtime(&now));
    return buffer;
}

}  // namespace

int run_train(const std::vector<std::string>& argv) {
    const Args args("train", argv,
                    {"data", "target-language", "dev-fraction", "split-seed", "max-source-words", "export-dev",
                     "exclude-sources", "min-frequency", "max-source-vocab", "max-target-vocab", "source-pieces", "target-pieces", "attention", "embedding", "hidden",
                     "decoder-hidden", "attention-size", "init-encoder", "output-hidden", "steps", "batch-size", "learning-rate",
                     "warmup", "dropout", "label-smoothing", "clip", "threads", "seed", "eval-every",
                     "eval-sentences", "checkpoint-dir", "checkpoint-every", "max-minutes", "output", "name", "dtype", "int8-bits"},
                    {"resume", "help"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const DataOptions data_options = DataOptions::from(args);
    const std::string& data_path = data_options.path;
    const std::string& language = data_options.target_language;
    const std::string output = args.required("output");
    const std::string name = args.string("name", std::filesystem::path(output).stem().string());
    if (name.empty() || std::filesystem::is_directory(output)) {
        throw UsageError("--output must name a model file (for example models/my-model.s2s), not a folder");
    }
    const std::string checkpoint_dir = args.string("checkpoint-dir", "checkpoints/" + name);
    const std::string checkpoint = checkpoint_dir + "/checkpoint.s2s";
    std::error_code error;
    std::filesystem::create_directories(checkpoint_dir, error);
    if (error) throw IoError("cannot create the checkpoint folder " + checkpoint_dir + ": " + error.message());
    check_writable(output);
    if (args.has("export-dev")) check_writable(args.string("export-dev", ""));
    const std::string dtype_name = args.string("dtype", "f32");
    TensorDtype dtype = TensorDtype::kFloat32;
    if (!parse_dtype(dtype_name, dtype)) throw UsageError("--dtype must be f32, f16 or i8");
    const int int8_levels = args.int8_levels(dtype == TensorDtype::kInt8, kMaxInt8Levels);

    Model model;
    model.source_tokenizer = {data_options.source_pieces > 0 ? TokenizerKind::kSubwords : TokenizerKind::kWords, "en"};
    model.target_tokenizer = {data_options.target_pieces > 0 ? TokenizerKind::kSubwords
                              : language == "zh"             ? TokenizerKind::kCharacters
                                                             : TokenizerKind::kWords,
                              language};
    ModelConfig& config = model.config;
    config.attention = attention_kind_from_name(args.string("attention", "additive"));
    config.embedding_size = static_cast<int>(args.integer("embedding", 128, 1, 4096));
    config.encoder_hidden_size = static_cast<int>(args.integer("hidden", 128, 1, 4096));
    config.decoder_hidden_size = static_cast<int>(args.integer("decoder-hidden", 256, 1, 4096));
    config.attention_size = static_cast<int>(args.integer("attention-size", 128, 1, 4096));
    config.output_hidden_size = static_cast<int>(args.integer("output-hidden", 256, 1, 4096));

    TrainerOptions options;
    options.total_steps = args.integer("steps", 10000, 1, 100000000);
    options.batch_size = static_cast<int>(args.integer("batch-size", 64, 1, 4096));
    options.learning_rate = static_cast<float>(args.real("learning-rate", 2e-3, 1e-6, 1.0));
    options.warmup_steps = static_cast<int>(args.integer("warmup", 200, 1, 1000000));
    options.dropout = static_cast<float>(args.real("dropout", 0.2, 0.0, 0.9));
    options.label_smoothing = static_cast<float>(args.real("label-smoothing", 0.1, 0.0, 0.5));
    options.clip_norm = static_cast<float>(args.real("clip", 5.0, 0.0, 1e6));
    options.threads = static_cast<int>(args.integer("threads", 2, 1, 64));
    options.seed = static_cast<uint64_t>(args.integer("seed", 1, 0, 1L << 40));
    const long eval_every = args.integer("eval-every", 1000, 0, 100000000);
    const long eval_sentences = args.integer("eval-sentences", 500, 1, 100000000);
    const long checkpoint_every = args.integer("checkpoint-every", 500, 1, 100000000);
    const double max_minutes = args.real("max-minutes", 0.0, 0.0, 1e7);

    std::fprintf(stderr, "reading %s\n", data_path.c_str());
    const std::vector<SentencePair> pairs = read_sentence_pairs(data_path);
    const std::string excluded_path = args.string("exclude-sources", "");
    const std::vector<SentencePair> excluded =
        excluded_path.empty() ? std::vector<SentencePair>{} : read_sentence_pairs(excluded_path);
    // A model whose encoder starts from --init-encoder reads English as
    // that model does: its source pieces and vocabulary come along.
    const std::string init_path = args.string("init-encoder", "");
    Model donor;
    if (!init_path.empty()) {
        donor = load_model(init_path);
        if (donor.source_tokenizer.kind == TokenizerKind::kSubwords) {
            if (data_options.source_pieces > 0) {
                throw UsageError("--init-encoder " + init_path + " brings its own English pieces; drop --source-pieces");
            }
            model.source_tokenizer = donor.source_tokenizer;
            model.source_vocabulary = donor.source_vocabulary;
        }
    }
    const bool learn_source = model.source_tokenizer.kind != TokenizerKind::kSubwords || !model.source_tokenizer.bpe;
    PreparedData data = prepare_data(pairs, data_options, model, learn_source, excluded);
    if (args.has("export-dev")) write_sentence_pairs(data.dev, args.string("export-dev", ""));
    if (data.train.empty()) {
        throw DataError("no usable training pairs in " + data_path + " (" + std::to_string(pairs.size()) +
                        " pairs read); check the file and --dev-fraction / --max-source-words");
    }
    if (model.source_vocabulary.size() <= Vocabulary::kNumSpecial || model.target_vocabulary.size() <= Vocabulary::kNumSpecial) {
        throw DataError("no token of " + data_path + " occurs --min-frequency " + std::to_string(data_options.min_frequency) +
                        " times on one side; lower --min-frequency or use more data");
    }
    config.source_vocab_size = model.source_vocabulary.size();
    config.target_vocab_size = model.target_vocabulary.size();
    config.validate();
    model.params = random_parameters(config, options.seed);
    nlohmann::json init_record = nullptr;
    if (!init_path.empty()) {
        const long copied = init_encoder_from(model, donor, init_path);
        init_record = {{"file", std::filesystem::path(init_path).filename().string()},
                       {"fnv1a64", file_fnv1a64_hex(init_path)},
                       {"name", donor.provenance.value("name", "")},
                       {"source_embeddings_copied", copied}};
        std::fprintf(stderr, "encoder initialized from %s (%ld of %d source embeddings)\n", init_path.c_str(), copied,
                     config.source_vocab_size);
    }
    std::fprintf(stderr,
                 "%zu pairs: %ld for training (%ld skipped as empty or too long, %ld as development sources, "
                 "%ld by --exclude-sources), %zu development sentences; vocabularies %d / %d; %ld parameters\n",
                 pairs.size(), data.train_pairs, data.skipped_pairs, data.leaked_pairs, data.excluded_pairs,
                 data.dev.size(),
                 config.source_vocab_size, config.target_vocab_size, model.params.count());

    // The data files are sorted by sentence length, so the periodic check
    // spreads its sample evenly over the whole split: all lengths, not the
    // shortest.
    const std::vector<SourceWithReferences> dev_sample = spread_sample(data.dev, static_cast<size_t>(eval_sentences));
    nlohmann::json history = nlohmann::json::array();
    double previous_seconds = 0.0;
    double previous_tokens = 0.0;
    std::string created = today();
    Trainer trainer(model, data.train, options);
    if (args.has("resume") && std::filesystem::exists(checkpoint)) {
        trainer.load_checkpoint(checkpoint);
        // What the earlier part of the run recorded: its wall time, its
        // development BLEU history and its start date.
        try {
            const nlohmann::json& provenance = model.provenance;
            const nlohmann::json training = provenance.value("training", nlohmann::json::object());
            previous_seconds = training.value("wall_seconds", 0.0);
            // Tokens of the earlier part, so tokens/s covers the whole run
            // (a resume that only finishes would otherwise record 0).
            previous_tokens = training.value("tokens_per_second", 0.0) * previous_seconds;
            history = training.value("dev_bleu_history", nlohmann::json::array());
            created = provenance.value("created", created);
        } catch (const nlohmann::json::exception& e) {
            throw ModelFileError("checkpoint " + checkpoint + " has a damaged provenance record (" + e.what() +
                                 "); use a new --checkpoint-dir");
        }
        std::fprintf(stderr, "resumed from %s at step %ld\n", checkpoint.c_str(), trainer.steps_done());
    } else if (args.has("resume")) {
        std::fprintf(stderr, "no checkpoint at %s; starting from scratch\n", checkpoint.c_str());
    }
    const std::string data_hash = file_fnv1a64_hex(data_path);
    const std::string excluded_hash = excluded_path.empty() ? "" : file_fnv1a64_hex(excluded_path);
    const auto started = std::chrono::steady_clock::now();
    auto elapsed = [&]() { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
    long tokens_this_run = 0;
    auto record_provenance = [&](bool finished) {
        const double seconds = previous_seconds + elapsed();
        model.provenance = {
            {"name", name},
            {"created", created},
            {"data", {{"file", std::filesystem::path(data_path).filename().string()},
                      {"fnv1a64", data_hash},
                      {"pairs", pairs.size()},
                      {"source", "Tatoeba Project (tatoeba.org), via manythings.org/anki"},
                      {"license", "CC-BY 2.0 France"},
                      {"attribution", "Tatoeba.org and manythings.org/anki"}}},
            {"split", {{"method", "by English sentence, FNV-1a hash"},
                       {"dev_fraction", data_options.dev_fraction},
                       {"seed", data_options.split_seed},
                       {"train_pairs", data.train_pairs},
                       {"excluded_sources", excluded_path.empty() ? nlohmann::json(nullptr) : nlohmann::json({
                            {"file", std::filesystem::path(excluded_path).filename().string()},
                            {"fnv1a64", excluded_hash},
                            {"pairs_dropped", data.excluded_pairs}})},
                       {"dev_sentences", data.dev.size()}}},
            {"training", {{"steps", trainer.steps_done()},
                          {"init_encoder", init_record},
                          {"finished", finished},
                          {"batch_size", options.batch_size},
                          {"learning_rate", options.learning_rate},
                          {"warmup_steps", options.warmup_steps},
                          {"dropout", options.dropout},
                          {"label_smoothing", options.label_smoothing},
                          {"clip_norm", options.clip_norm},
                          {"threads", options.threads},
                          {"seed", options.seed},
                          {"min_frequency", data_options.min_frequency},
                          {"max_source_vocab", data_options.max_source_vocab},
                          {"max_target_vocab", data_options.max_target_vocab},
                          {"source_pieces", data_options.source_pieces},
                          {"target_pieces", data_options.target_pieces},
                          {"max_source_words", data_options.max_source_words},
                          {"wall_seconds", seconds},
                          {"tokens_per_second", seconds > 0 ? (previous_tokens + tokens_this_run) / seconds : 0.0},
                          {"dev_bleu_history", history}}},
        };
    };

    ProgressBar progress(options.total_steps, trainer.steps_done(), 100);
    bool out_of_time = false;
    while (trainer.steps_done() < options.total_steps) {
        const StepReport report = trainer.step();
        tokens_this_run += report.target_tokens + report.source_tokens;
        const long done = trainer.steps_done();
        progress.update(done, report.loss_per_token, report.target_tokens + report.source_tokens);
        if (eval_every > 0 && done % eval_every == 0 && !dev_sample.empty()) {
            const Evaluation evaluation = evaluate_model(model, dev_sample, DecodeOptions{}, options.threads);
            history.push_back({{"step", done}, {"bleu", evaluation.report.overall.bleu}});
            char line[160];
            std::snprintf(line, sizeof line, "step %ld: development BLEU %.2f on %zu sentences (%.1f s)", done,
                          evaluation.report.overall.bleu, dev_sample.size(), evaluation.seconds);
            progress.message(line);
        }
        out_of_time = max_minutes > 0 && elapsed() > max_minutes * 60.0;
        if (done % checkpoint_every == 0 || done == options.total_steps || out_of_time) {
            record_provenance(false);
            trainer.save_checkpoint(checkpoint);
        }
        if (out_of_time) break;
    }
    progress.finish();
    if (out_of_time) {
        std::fprintf(stderr, "stopped after %.1f minutes at step %ld; continue with the same command and --resume\n",
                     max_minutes, trainer.steps_done());
        return 0;
    }

    std::fprintf(stderr, "evaluating on %zu development sentences\n", data.dev.size());
    const Evaluation final_evaluation = evaluate_model(model, data.dev, DecodeOptions{}, options.threads);
    record_provenance(true);
    model.provenance["dev_bleu"] = to_json(final_evaluation.report);
    model.int8_levels = int8_levels;
    save_model(model, output, dtype);
    std::fprintf(stderr, "development BLEU %.2f; wrote %s (%s of training)\n", final_evaluation.report.overall.bleu,
                 output.c_str(), format_duration(model.provenance["training"]["wall_seconds"].get<double>()).c_str());
    return 0;
}

}  // namespace s2s::cli
