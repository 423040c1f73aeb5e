// seq2seq shortlist: builds a model's lexical shortlist (src/model/target_shortlist.h; building it: src/train/shortlist_builder.h)
// from training pairs and writes a copy of the model that holds it.
#include "cli/args.h"
#include "cli/commands.h"
#include "common/error.h"
#include "train/shortlist_builder.h"
#include "model/model.h"
#include "corpus/parallel_corpus.h"
#include "text/tokenizer.h"

#include <cstdio>
#include <filesystem>

namespace s2s::cli {

namespace {
constexpr const char* kHelp = R"(usage: seq2seq shortlist --model PATH --data TSV --output PATH --always M --per-target K
                         [--min-count N] [--max-source-share F]

Writes a copy of a model with a lexical shortlist in its file: per
sentence, decoding computes the output layer and its softmax over the
candidate target pieces only (int8 output layers; translate, eval and bench
take --shortlist on|off). The candidates of a sentence are every target id
below M (specials, characters, the first merges: the frequent pieces) and
each target piece t >= M that one of the sentence's source pieces triggers:
t's K best source pieces s by c(s,t)/c(t) * log(N/c(s)), sentence-level
counts over the pairs of TSV, tokenized with the model's own tokenizers.
Give the training split only (never development or test sentences).
Everything else of the model is kept, stored as it was; the provenance gains
a "conversions" entry.
  --model PATH            the model (its weights are copied as stored)
  --data TSV              training pairs (English <tab> translation)
  --output PATH           the new model file
  --always M              target ids below M are always candidates (4 to the
                          target vocabulary size)
  --per-target K          triggers per target piece, 1 to 16
  --min-count N           a trigger must co-occur in at least N sentences (default 1)
  --max-source-share F    source pieces in more than this share of the
                          sentences trigger nothing, 0 to 1 (default 1: all may)
)";
}  // namespace

int run_shortlist(const std::vector<std::string>& argv) {
    const Args args("shortlist", argv,
                    {"model", "data", "output", "always", "per-target", "min-count", "max-source-share"}, {"help"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const std::string input = args.required("model"), data = args.required("data"), output = args.required("output");
    if (!args.has("always") || !args.has("per-target")) throw UsageError("`seq2seq shortlist` needs --always M and --per-target K");
    const int always = static_cast<int>(args.integer("always", 4, 4, 1 << 20));
    const int per_target = static_cast<int>(args.integer("per-target", 1, 1, kMaxShortlistTriggers));
    ShortlistScore score;
    score.min_count = static_cast<int>(args.integer("min-count", 1, 1, 1 << 30));
    score.max_source_share = args.real("max-source-share", 1.0, 0.0, 1.0);
    Model model = load_model(input);
    const std::vector<SentencePair> pairs = read_sentence_pairs(data);
    std::vector<std::vector<int>> sources, targets;
    sources.reserve(pairs.size());
    targets.reserve(pairs.size());
    for (const SentencePair& p : pairs) {
        sources.push_back(model.source_vocabulary.encode(tokenize(p.source, model.source_tokenizer)));
        targets.push_back(model.target_vocabulary.encode(tokenize(p.target, model.target_tokenizer)));
    }
    TargetShortlist shortlist = build_target_shortlist(sources, targets, model.config.source_vocab_size,
                                                       model.config.target_vocab_size, always, per_target, score);
    shortlist.built_from = {{"data", std::filesystem::path(data).filename().string()},
                            {"data_fnv1a64", file_fnv1a64_hex(data)},
                            {"pairs", pairs.size()},
                            {"split", "the pairs of the data file as given (a training split)"},
                            {"score", "c(s,t)/c(t)*log(N/c(s)), sentence-level counts"},
                            {"min_count", score.min_count},
                            {"max_source_share", score.max_source_share}};
    model.target_shortlist = shortlist;
    if (!model.provenance.is_object()) model.provenance = nlohmann::json::object();
    nlohmann::json& conversions = model.provenance["conversions"];
    if (!conversions.is_array()) conversions = nlohmann::json::array();
    conversions.push_back({{"target_shortlist", {{"always", always}, {"per_target", per_target}}},
                           {"built_from", shortlist.built_from}});
    save_model(model, output, model.stored_dtype);
    size_t none = 0;
    for (int s : shortlist.triggers) none += s < 0;
    std::fprintf(stderr, "wrote %s: shortlist M=%d K=%d from %zu pairs (%zu of %zu trigger slots empty), %ju bytes (%s: %ju bytes)\n",
                 output.c_str(), always, per_target, pairs.size(), none, shortlist.triggers.size(),
                 static_cast<uintmax_t>(std::filesystem::file_size(output)), input.c_str(),
                 static_cast<uintmax_t>(std::filesystem::file_size(input)));
    return 0;
}

}  // namespace s2s::cli
