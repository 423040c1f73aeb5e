// seq2seq eval: sacreBLEU-compatible corpus BLEU and chrF2 of a model (or of
// the translation-memory baseline) on a TSV file.
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/decode_flags.h"
#include "common/error.h"
#include "decode/option_ranges.h"
#include "decode/translator.h"
#include "eval/chrf.h"
#include "eval/evaluate.h"
#include "eval/term_accuracy.h"
#include "eval/translation_memory.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace s2s::cli {

namespace {
std::string help() {
    return R"(usage: seq2seq eval --model PATH --data TSV [--beam N] [--limit N] [--threads N] [--json] [--hypotheses FILE] [--record KEY]
                     [--bootstrap N] [--against OTHER] [--per-sentence]
       seq2seq eval --memory DATA --target-language fr|zh --dev-fraction F --split-seed N --data TSV [...]

Translates every distinct English sentence of a TSV file (English <tab>
translation; all translations of one sentence are its references) and
prints corpus BLEU and chrF2, overall and by source length in words.
BLEU is sacreBLEU-compatible: the translations as written against the raw
references, sacreBLEU's 13a tokenizer (zh for Chinese), lowercased,
exponential smoothing; chrF2 is sacreBLEU's default (case-sensitive).
  --model PATH        a .s2s model file
  --data TSV          the evaluation pairs
  --beam N            beam size, )" + decode_flag_range("beamSize") + " " + decode_flag_default("beamSize") + R"(
  --length-penalty A  beam search: GNMT length normalization alpha (default: the
                      model's own, recorded in its file, else )" + decode_flag_default_value("lengthPenalty") + R"()
  --coverage-penalty B  beam search: GNMT coverage penalty beta (default: the
                      model's own, else )" + decode_flag_default_value("coveragePenalty") + R"()
  --temperature T     the attention softmax's tau, )" + decode_flag_range("temperature") + " " + decode_flag_default("temperature") + R"(
  --shortlist on|off  the model's lexical shortlist, when it has one (default on)
  --keep-names on|off  names and numbers as the source spells them (default on;
                      `seq2seq translate --help`)
  --min-words N       only sentences of at least N English words
  --limit N           only the first N distinct sentences
  --threads N         sentences translated in parallel (default 2)
  --hypotheses FILE   also write the translations, one per line
  --terms GLOSSARY    also report term accuracy: of the glossary's terms that a
                      sentence's English and its reference contain, the share
                      the translation contains (data/glossary/glossary.tsv)
  --json              print the report as JSON
  --per-sentence      with --json: also "per_sentence", one entry per distinct
                      English sentence in the order of the file: its source,
                      references, translation and that sentence's own chrF2
                      (against its best reference; scripts/coverage-skips.mjs
                      reads it)
  --record KEY        also store the report in the model file's provenance,
                      under "evaluations"/KEY (the page and README show it)
  --bootstrap N       also the 95% interval of BLEU over N resamples of the
                      sentences, drawn with replacement (10 to 100000;
                      Koehn, 2004): how far another draw of as many
                      sentences could move the figure
  --against OTHER     also translate with the model file OTHER (the same
                      flags; its own recorded penalties unless given) and
                      compare the two on the same resamples (paired
                      bootstrap, 1000 unless --bootstrap N): the interval of
                      the difference and the share of resamples where this
                      model scores higher
the translation-memory baseline instead of a model:
  --memory DATA       answer with the translation of the most similar English
                      sentence (TF-IDF cosine over words and word bigrams)
                      among DATA's training split, as `train` splits it with
                      the same --dev-fraction and --split-seed (required)
  --target-language L fr (default) or zh: BLEU tokenizes zh with sacreBLEU's zh
                      tokenizer, anything else with 13a
)";
}

void print_report(const BleuReport& report, const std::string& target_language, double seconds) {
    const CorpusScore& overall = report.overall;
    std::printf("BLEU %.2f  chrF2 %.2f  (sacreBLEU-compatible, %s, lowercased; %ld sentences, BP %.3f, "
                "precisions %.1f/%.1f/%.1f/%.1f, %.1f s)\n",
                overall.bleu, overall.chrf2, bleu_tokenizer_name(bleu_tokenizer_for_language(target_language)),
                overall.sentences, overall.brevity_penalty, overall.precisions[0], overall.precisions[1],
                overall.precisions[2], overall.precisions[3], seconds);
    std::printf("%s\n", metric_description(overall).c_str());
    std::printf("%-8s %10s %8s %8s\n", "words", "sentences", "BLEU", "chrF2");
    for (const auto& [bucket, score] : report.by_length) {
        std::printf("%-8s %10ld %8.2f %8.2f\n", bucket.label.c_str(), score.sentences, score.bleu, score.chrf2);
    }
}
}  // namespace

int run_eval(const std::vector<std::string>& argv) {
    const Args args("eval", argv,
                    {"model", "data", "beam", "limit", "threads", "hypotheses", "record", "memory", "target-language",
                     "dev-fraction", "split-seed", "terms", "length-penalty", "coverage-penalty", "temperature", "min-words", "shortlist", "keep-names",
                     "bootstrap", "against"},
                    {"json", "per-sentence", "help"});
    if (args.has("help")) {
        std::fputs(help().c_str(), stdout);
        return 0;
    }
    if (args.has("model") == args.has("memory")) {
        throw UsageError("give exactly one of --model PATH (a model) or --memory DATA (the translation memory)");
    }
    const std::string data_path = args.required("data");
    std::vector<SourceWithReferences> data = group_by_source(read_sentence_pairs(data_path));
    const long min_words = args.integer("min-words", 0, 0, 1000);
    if (min_words > 0) {
        std::vector<SourceWithReferences> long_enough;
        for (auto& entry : data) {
            if (count_english_words(entry.source) >= min_words) {
                long_enough.push_back(std::move(entry));
            }
        }
        data = std::move(long_enough);
    }
    const long limit = args.integer("limit", 0, 0, 100000000);
    if (limit > 0 && static_cast<long>(data.size()) > limit) data.resize(limit);
    if (data.empty()) throw DataError("no sentence pairs in " + data_path);
    const int threads = static_cast<int>(args.integer("threads", 2, 1, 64));
    const bool bootstrap = args.has("bootstrap") || args.has("against");
    const int resamples = static_cast<int>(args.integer("bootstrap", 1000, 10, 100000));
    if (args.has("per-sentence") && !args.has("json")) {
        throw UsageError("--per-sentence adds to the JSON report; use it with --json");
    }
    if (args.has("against") && args.has("memory")) {
        throw UsageError("--against compares two model files on the same sentences; use it with --model, not --memory");
    }
    DecodeOptions options = read_decode_flags(args);
    Evaluation evaluation;
    Model model;
    std::string target_language;
    if (args.has("memory")) {
        if (args.has("record")) throw UsageError("--record stores a report in a model file; it needs --model");
        if (!args.has("dev-fraction") || !args.has("split-seed")) {
            throw UsageError("--memory needs --dev-fraction and --split-seed: the split the model was trained with, "
                             "so that the memory holds only training sentences");
        }
        target_language = args.string("target-language", "fr");
        if (target_language != "fr" && target_language != "zh") {
            throw UsageError("--target-language must be fr or zh");
        }
        evaluation = evaluate_translation_memory(args.string("memory", ""), args.real("dev-fraction", 0.03, 0.0, 0.5),
                                                 static_cast<uint64_t>(args.integer("split-seed", 1, 0, 1L << 40)),
                                                 data, target_language);
    } else {
        model = load_model(args.required("model"));
        options = read_decode_flags(args, decode_defaults(model));
        target_language = model.target_tokenizer.language;
        evaluation = evaluate_model(model, data, options, threads);
    }
    std::vector<std::string> baseline_hypotheses;
    const std::string against = args.string("against", "");
    if (args.has("against")) {
        const Model other = load_model(against);
        if (other.target_tokenizer.language != target_language) {
            throw UsageError("--against " + against + " translates into '" + other.target_tokenizer.language +
                             "' and --model into '" + target_language +
                             "': a paired comparison needs two models of one language pair");
        }
        baseline_hypotheses = evaluate_model(other, data, read_decode_flags(args, decode_defaults(other)), threads).hypotheses;
    }
    if (args.has("hypotheses")) {
        std::ofstream out(args.string("hypotheses", ""));
        if (!out) throw IoError("cannot write " + args.string("hypotheses", ""));
        for (const auto& h : evaluation.hypotheses) out << h << '\n';
    }
    nlohmann::json j = to_json(evaluation.report);
    j["seconds"] = evaluation.seconds;
    std::string terms_line;
    if (args.has("terms")) {
        const std::string glossary = args.string("terms", "");
        const TermAccuracy terms = term_accuracy(read_glossary_terms(glossary, target_language), data,
                                                 evaluation.hypotheses, target_language);
        j["terms"] = to_json(terms);
        j["terms"]["glossary"] = std::filesystem::path(glossary).filename().string();
        char line[200];
        std::snprintf(line, sizeof line, "terms %.2f%% (%ld of %ld glossary terms of the references found)",
                      terms.accuracy(), terms.found, terms.expected);
        terms_line = line;
    }
    std::string bootstrap_lines;
    if (bootstrap) {
        const BootstrapReport b = bootstrap_translations(data, evaluation.hypotheses,
                                                         args.has("against") ? &baseline_hypotheses : nullptr,
                                                         target_language, resamples, 1);
        const auto interval = [](const BleuInterval& i) { return nlohmann::json::array({i.low, i.high}); };
        nlohmann::json& out = j["bootstrap"];
        out = {{"resamples", b.resamples}, {"seed", b.seed}, {"bleu", b.bleu}, {"interval95", interval(b.interval)}};
        char line[400];
        std::snprintf(line, sizeof line, "bootstrap, %d resamples: BLEU %.2f, 95%% interval %.2f to %.2f\n", b.resamples,
                      b.bleu, b.interval.low, b.interval.high);
        bootstrap_lines = line;
        if (b.paired) {
            const std::string against_file = std::filesystem::path(against).filename().string();
            out["against"] = {{"file", against_file},
                              {"bleu", b.baseline_bleu},
                              {"interval95", interval(b.baseline_interval)},
                              {"difference", b.difference},
                              {"difference_interval95", interval(b.difference_interval)},
                              {"better_share", b.better_share}};
            std::snprintf(line, sizeof line,
                          "against %s: BLEU %.2f, 95%% interval %.2f to %.2f; difference %+.2f, 95%% interval %+.2f to "
                          "%+.2f; this model higher in %.1f%% of the resamples\n",
                          against_file.c_str(), b.baseline_bleu,
                          b.baseline_interval.low, b.baseline_interval.high, b.difference, b.difference_interval.low,
                          b.difference_interval.high, 100.0 * b.better_share);
            bootstrap_lines += line;
        }
    }
    if (args.has("memory")) {
        j["system"] = "translation memory";
    } else {
        j["beam"] = options.beam_size;
        if (options.beam_size > 1) {
            j["length_penalty"] = as_written(options.length_penalty);
            j["coverage_penalty"] = as_written(options.coverage_penalty);
        }
        // Only a model with a lexical shortlist says whether it was used.
        if (model.target_shortlist) j["shortlist"] = options.shortlist;
        j["keep_names"] = options.keep_names;
        j["model_fingerprint"] = model_fingerprint(model);  // what was measured (model.h)
    }
    j["data"] = {{"file", std::filesystem::path(data_path).filename().string()},
                 {"fnv1a64", file_fnv1a64_hex(data_path)},
                 {"sentences", data.size()}};
    if (args.has("record")) {
        const std::string key = args.string("record", "");
        if (key.empty()) throw UsageError("--record needs a name, for example --record dev-beam4");
        nlohmann::json recorded = j;
        recorded.erase("seconds");
        recorded.erase("bootstrap");  // a measurement of the figure, not of the model
        // What readers of the file use of each length bucket (the page's
        // chart, scripts/bleu-tables.mjs): the overall report keeps every
        // field, its signature included; the buckets' n-gram counts and
        // repeated signatures would only make the file (the page's first
        // download) bigger.
        for (nlohmann::json& bucket : recorded["by_length"]) {
            nlohmann::json kept;
            for (const char* field : {"bucket", "min_words", "max_words", "sentences", "bleu", "chrf2"}) {
                if (bucket.contains(field)) kept[field] = bucket[field];
            }
            bucket = std::move(kept);
        }
        model.provenance["evaluations"][key] = recorded;
        save_model(model, args.required("model"), model.stored_dtype);
        std::fprintf(stderr, "recorded as evaluations/%s in %s\n", key.c_str(), args.required("model").c_str());
    }
    if (args.has("per-sentence")) {
        // Added after --record took its copy: a measurement of one data
        // file's sentences, for the script that asks, not for the model file.
        std::vector<std::vector<std::string>> references(data.size());
        for (size_t k = 0; k < data.size(); ++k) references[k] = data[k].references;
        const std::vector<double> chrf2 = sentence_chrf(evaluation.hypotheses, references);
        nlohmann::json& sentences = j["per_sentence"] = nlohmann::json::array();
        for (size_t k = 0; k < data.size(); ++k) {
            sentences.push_back({{"source", data[k].source}, {"references", data[k].references},
                                 {"hypothesis", evaluation.hypotheses[k]}, {"chrf2", chrf2[k]}});
        }
    }
    if (args.has("json")) {
        std::cout << j.dump(2) << '\n';
    } else {
        print_report(evaluation.report, target_language, evaluation.seconds);
        if (!terms_line.empty()) std::printf("%s\n", terms_line.c_str());
        std::fputs(bootstrap_lines.c_str(), stdout);
    }
    return 0;
}

}  // namespace s2s::cli
