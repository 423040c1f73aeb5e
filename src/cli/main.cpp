// seq2seq: the native command line (translate, eval, train, split, info, convert, shortlist, pieces, bench).
#include "cli/commands.h"
#include "common/error.h"
#include "common/option_names.h"

#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

namespace {

constexpr const char* kUsage = R"(seq2seq: attention Seq2Seq (GRU encoder-decoder, Bahdanau attention)

usage: seq2seq COMMAND [flags]

commands:
  translate  translate stdin lines to stdout lines (--model PATH [--beam N] [--json])
  eval       corpus BLEU-4 of a model on a TSV file, overall and by length (--model PATH --data TSV)
  train      train a model from a TSV file, with progress, checkpoints and resume (--data TSV --output PATH)
  info       a model's architecture, sizes and provenance (--model PATH [--json])
  convert    rewrite a model with its weights as f32, f16 or i8 (--model PATH --dtype D --output PATH)
  shortlist  add a lexical shortlist to a model (--model PATH --data TSV --output PATH --always M --per-target K)
  split      write the development split that train holds out (--data TSV --dev-output TSV)
  pieces     the subword pieces of stdin lines (--model PATH [--side source|target])
  bench      measure translation speed and the machine's GEMM rate (--model PATH)

Run `seq2seq COMMAND --help` for a command's flags. Exit codes: 0 ok, 2 bad usage, input or file.
)";

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::fputs(kUsage, args.empty() ? stderr : stdout);
        return args.empty() ? 2 : 0;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    try {
        if (command == "translate") return s2s::cli::run_translate(args);
        if (command == "eval") return s2s::cli::run_eval(args);
        if (command == "train") return s2s::cli::run_train(args);
        if (command == "bench") return s2s::cli::run_bench(args);
        if (command == "split") return s2s::cli::run_split(args);
        if (command == "info") return s2s::cli::run_info(args);
        if (command == "convert") return s2s::cli::run_convert(args);
        if (command == "shortlist") return s2s::cli::run_shortlist(args);
        if (command == "pieces") return s2s::cli::run_pieces(args);
        std::fprintf(stderr, "seq2seq: unknown command '%s'; use translate, eval, train, split, info, convert, shortlist or bench (seq2seq --help)\n",
                     command.c_str());
        return 2;
    } catch (const s2s::Error& e) {
        // A library message names options by marker ({init-model}): here they become flags (--init-model).
        std::fprintf(stderr, "seq2seq %s: error: %s\n", command.c_str(),
                     s2s::spell_options(e.what(), s2s::OptionStyle::kCli).c_str());
        return 2;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "seq2seq %s: error: out of memory\n", command.c_str());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "seq2seq %s: internal error: %s (please report it)\n", command.c_str(), e.what());
        return 1;
    }
}
