// seq2seq eval: corpus multi-reference BLEU-4 of a model on a TSV file.
#include "cli/args.h"
#include "cli/commands.h"
#include "common/error.h"
#include "eval/evaluate.h"

#include <cstdio>
#include <fstream>
#include <iostream>

namespace s2s::cli {

namespace {
constexpr const char* kHelp = R"(usage: seq2seq eval --model PATH --data TSV [--beam N] [--limit N] [--threads N] [--json] [--hypotheses FILE]

Translates every distinct English sentence of a TSV file (English <tab>
translation; all translations of one sentence are its references) and
prints corpus BLEU-4, overall and by source length in words.
  --model PATH        a .s2s model file
  --data TSV          the evaluation pairs
  --beam N            beam size (default 1)
  --limit N           only the first N distinct sentences
  --threads N         sentences translated in parallel (default 2)
  --hypotheses FILE   also write the translations, one per line
  --json              print the report as JSON
)";

void print_report(const BleuReport& report, double seconds) {
    std::printf("BLEU %.2f  (%ld sentences, BP %.3f, precisions %.1f/%.1f/%.1f/%.1f, %.1f s)\n", report.overall.bleu,
                report.overall.sentences, report.overall.brevity_penalty, report.overall.precisions[0],
                report.overall.precisions[1], report.overall.precisions[2], report.overall.precisions[3], seconds);
    std::printf("%-8s %10s %8s\n", "words", "sentences", "BLEU");
    for (const auto& [bucket, score] : report.by_length) {
        std::printf("%-8s %10ld %8.2f\n", bucket.label.c_str(), score.sentences, score.bleu);
    }
}
}  // namespace

int run_eval(const std::vector<std::string>& argv) {
    const Args args("eval", argv, {"model", "data", "beam", "limit", "threads", "hypotheses"}, {"json", "help"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const Model model = load_model(args.required("model"));
    std::vector<SourceWithReferences> data = group_by_source(read_sentence_pairs(args.required("data")));
    const long limit = args.integer("limit", 0, 0, 100000000);
    if (limit > 0 && static_cast<long>(data.size()) > limit) data.resize(limit);
    if (data.empty()) throw DataError("no sentence pairs in " + args.required("data"));
    DecodeOptions options;
    options.beam_size = static_cast<int>(args.integer("beam", 1, 1, DecodeOptions::kMaxBeamSize));
    const Evaluation evaluation = evaluate_model(model, data, options, static_cast<int>(args.integer("threads", 2, 1, 64)));
    if (args.has("hypotheses")) {
        std::ofstream out(args.string("hypotheses", ""));
        if (!out) throw IoError("cannot write " + args.string("hypotheses", ""));
        for (const auto& h : evaluation.hypotheses) out << h << '\n';
    }
    if (args.has("json")) {
        nlohmann::json j = to_json(evaluation.report);
        j["seconds"] = evaluation.seconds;
        j["beam"] = options.beam_size;
        std::cout << j.dump(2) << '\n';
    } else {
        print_report(evaluation.report, evaluation.seconds);
    }
    return 0;
}

}  // namespace s2s::cli
