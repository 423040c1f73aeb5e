// seq2seq translate: one source line on stdin gives one line on stdout.
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/decode_flags.h"
#include "common/error.h"
#include "common/limits.h"
#include "decode/translator.h"
#include "text/utf8.h"

#include <cstdio>
#include <iostream>
#include <string>

namespace s2s::cli {

namespace {
// Ranges and defaults in the text come from the option table, like the checks.
std::string help() {
    return R"(usage: seq2seq translate --model PATH [--beam N] [--max-length N] [--alternatives N] [--temperature T]
                         [--json] [--trace] [--beam-tree] [--split]

Reads English sentences from stdin, one per line, and writes one line per
input line to stdout: the translation, or with --json a JSON object with
text, sourceTokens, targetTokens, attention (rows = target tokens, columns =
source tokens, each row sums to 1), coverage (attention received by each
source token) and possiblyDropped (source tokens with coverage under 0.1,
except words the target language leaves untranslated, and numbers of the
source the translation does not write),
the model's doubt (tokenProbabilities: each target token's probability;
wordProbabilities: each target word's; unsureWords: the words under )" +
           std::to_string(kUnsureWordProbability).substr(0, 4) + R"(;
copiedWords: the words copied from the source, --keep-names),
score and the beam's hypotheses.
  --model PATH        a .s2s model file (for example models/en-fr.s2s)
  --beam N            beam size, )" + decode_flag_range("beamSize") + R"( (1 = greedy) )" + decode_flag_default("beamSize") + R"(
  --max-length N      most output tokens (default: )" + std::to_string(kDefaultMaxLengthPerSourceToken) + R"( x source length + )" +
           std::to_string(kDefaultMaxLengthExtra) + R"()
  --length-penalty A  beam search: GNMT length normalization alpha (default: the
                      model's own, recorded in its file, else )" + decode_flag_default_value("lengthPenalty") + R"()
  --coverage-penalty B  beam search: GNMT coverage penalty beta (default: the
                      model's own, else )" + decode_flag_default_value("coveragePenalty") + R"()
  --alternatives N    with --json, the N most likely tokens at each position, )" + decode_flag_range("alternatives") + R"(
  --temperature T     the attention softmax's tau, a_t = softmax(e_t / T), )" + decode_flag_range("temperature") + R"(
                      (small: nearly hard alignment; large: nearly uniform) )" + decode_flag_default("temperature") + R"(
  --shortlist on|off  the model's lexical shortlist (int8 output layer only): the
                      output layer over the sentence's candidate pieces only
                      (default: on when the model has one; docs/cli.md)
  --keep-names on|off  names and numbers as the source spells them: a name
                      written lowercased is recased, one the model could not
                      translate (its words unsure) is copied through where
                      attention points (copiedWords in --json; default on)
  --json              one JSON object per line
  --trace             with the decoder trace of the chosen translation (implies
                      --json): per output step s_{t-1}, the query, scores e_t,
                      weights a_t, context c_t and the 5 likeliest next pieces;
                      once the keys and encoder states (docs/cli.md)
  --beam-tree         with the beam search tree (implies --json): per step every
                      candidate, kept or pruned, with its parent and score
  --split             translate each line sentence by sentence (a paragraph: the
                      models were trained on single sentences) and write the
                      translations joined; with --json {"text", "sentences":
                      [{"begin", "end" (bytes of the line), "source", and the
                      sentence's translation object}]}
)";
}

}  // namespace

int run_translate(const std::vector<std::string>& argv) {
    const Args args("translate", argv, {"model", "beam", "max-length", "alternatives", "length-penalty", "coverage-penalty", "temperature", "shortlist",
                     "keep-names"},
                    {"json", "trace", "beam-tree", "split", "help"});
    if (args.has("help")) {
        std::fputs(help().c_str(), stdout);
        return 0;
    }
    if (!args.positional().empty()) {
        throw UsageError("`seq2seq translate` reads its sentences from stdin; unexpected argument '" +
                         args.positional()[0] + "' (try: echo \"Go.\" | seq2seq translate --model models/en-fr.s2s)");
    }
    read_decode_flags(args);  // a bad flag is reported before the model is read
    const Model model = load_model(args.required("model"));
    DecodeOptions options = read_decode_flags(args, decode_defaults(model));
    options.trace = args.has("trace");
    options.beam_tree = args.has("beam-tree");
    const bool json = args.has("json") || options.trace || options.beam_tree;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (args.has("split")) {
            const std::vector<SentenceTranslation> sentences = translate_sentences(model, line, options);
            if (json) {
                nlohmann::json out = {{"text", join_translations(model, sentences)}, {"sentences", nlohmann::json::array()}};
                for (const SentenceTranslation& s : sentences) {
                    nlohmann::json sentence = {{"begin", s.begin}, {"end", s.end}, {"source", sanitize_utf8(line.substr(s.begin, s.end - s.begin))}};
                    sentence.update(to_json(s.translation));
                    out["sentences"].push_back(std::move(sentence));
                }
                std::cout << out.dump() << '\n';
            } else {
                std::cout << join_translations(model, sentences) << '\n';
            }
            std::cout.flush();
            continue;
        }
        const Translation t = translate(model, line, options);
        if (json) {
            // Invalid UTF-8 was repaired by the tokenizer, so dump() cannot throw.
            std::cout << to_json(t).dump() << '\n';
        } else {
            std::cout << (t.best() ? t.best()->text : "") << '\n';
        }
        std::cout.flush();
    }
    return 0;
}

}  // namespace s2s::cli
