// seq2seq pieces: what a tokenizer makes of text, one line in, one line of
// pieces out; the subword side of the tokenizer benchmark (bench/tokenizer.mjs).
#include "cli/args.h"
#include "cli/commands.h"
#include "common/error.h"
#include "model/model.h"
#include "text/bpe.h"
#include "text/bpe_learn.h"
#include "text/tokenizer.h"
#include "text/vocabulary.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

namespace s2s::cli {

namespace {
constexpr const char* kHelp = R"(usage: seq2seq pieces --model PATH [--side source|target] [--count-only]
       seq2seq pieces --learn FILE --size N --language L [--count-only]

Reads sentences from stdin, one per line, and writes each as its pieces
separated by spaces (a piece that starts a word begins with U+2581).
  --model PATH        use this model's tokenizer (default: --side source)
  --side S            source (English) or target
  --learn FILE        learn a BPE vocabulary from FILE (one sentence per line) first
  --size N            with --learn: vocabulary entries in all, 4 special tokens included
  --language L        with --learn: en, fr (splits French elisions) or zh
  --count-only        write nothing; only the summary
A summary goes to stderr: sentences, pieces, pieces per sentence, and the
seconds spent learning and encoding (input and output excluded).
)";

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

int run_pieces(const std::vector<std::string>& argv) {
    const Args args("pieces", argv, {"model", "side", "learn", "size", "language"}, {"count-only", "help"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (args.has("model") == args.has("learn")) throw UsageError("give exactly one of --model PATH or --learn FILE");
    TokenizerSettings tokenizer;
    double learn_seconds = 0.0;
    if (args.has("model")) {
        const Model model = load_model(args.required("model"));
        const std::string side = args.string("side", "source");
        if (side != "source" && side != "target") throw UsageError("--side must be source or target, not '" + side + "'");
        tokenizer = side == "source" ? model.source_tokenizer : model.target_tokenizer;
    } else {
        const std::string path = args.required("learn");
        const std::string language = args.required("language");
        const long size = args.integer("size", 8000, 2 * Vocabulary::kNumSpecial, 1000000);
        std::ifstream in(path);
        if (!in) throw IoError("cannot read " + path + ": check the path");
        std::vector<std::string> sentences;
        for (std::string line; std::getline(in, line);) sentences.push_back(line);
        const auto start = std::chrono::steady_clock::now();
        auto bpe = std::make_shared<const BpeModel>(
            learn_bpe(count_pre_tokens(sentences, language), static_cast<int>(size) - Vocabulary::kNumSpecial));
        learn_seconds = seconds_since(start);
        tokenizer = TokenizerSettings(TokenizerKind::kSubwords, language, bpe);
    }
    const bool count_only = args.has("count-only");
    std::vector<std::string> lines;
    for (std::string line; std::getline(std::cin, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
    }
    std::vector<std::vector<std::string>> encoded(lines.size());
    const auto start = std::chrono::steady_clock::now();
    long pieces = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
        encoded[i] = tokenize(lines[i], tokenizer);
        pieces += static_cast<long>(encoded[i].size());
    }
    const double encode_seconds = seconds_since(start);
    if (!count_only) {
        std::string out;
        for (const auto& sentence : encoded) {
            for (size_t k = 0; k < sentence.size(); ++k) {
                if (k > 0) out += ' ';
                out += sentence[k];
            }
            out += '\n';
        }
        std::fwrite(out.data(), 1, out.size(), stdout);
    }
    std::fprintf(stderr, "{\"sentences\": %zu, \"pieces\": %ld, \"pieces_per_sentence\": %.4f, \"learn_seconds\": %.4f, "
                         "\"encode_seconds\": %.4f}\n",
                 lines.size(), pieces, lines.empty() ? 0.0 : static_cast<double>(pieces) / lines.size(), learn_seconds,
                 encode_seconds);
    return 0;
}

}  // namespace s2s::cli
