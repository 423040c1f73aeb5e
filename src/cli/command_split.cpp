// seq2seq split: writes the development split that `train` holds out, for
// evaluation or for `train --exclude-sources`.
#include "cli/args.h"
#include "cli/commands.h"
#include "common/error.h"
#include "corpus/parallel_corpus.h"
#include "text/tokenizer.h"
#include "train/data_source.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unordered_set>

namespace s2s::cli {

namespace {
constexpr const char* kHelp = R"(usage: seq2seq split --data TSV --dev-output TSV [--train-output TSV [--exclude-sources TSV]]
                     [--dev-fraction F] [--split-seed N] [--limit N]

Writes the development split that `seq2seq train` holds out with the same
--data, --dev-fraction and --split-seed: every translation of every held-out
English sentence, one "English<TAB>translation" line each.
  --data TSV          the pairs (e.g. ../shared/data/fra-eng.txt)
  --dev-output TSV    where to write the development pairs
  --train-output TSV  also write the training pairs (the rest), e.g. to learn
                      subwords with another tool on the same text
  --exclude-sources TSV  with --train-output: leave out the training pairs
                      whose English is a source of TSV, and those whose
                      English tokenizes as a development source does, as
                      `train --exclude-sources TSV` does (e.g. to build a
                      shortlist from exactly a model's training pairs)
  --dev-fraction F    share of English sentences held out (default 0.03, as train)
  --split-seed N      seed of the split (default 1)
  --limit N           only N sentences, spread evenly over the split (default: all)
Beside each file it writes FILE.source.json: the data's source, license and
attribution (its own sidecar, or a data file this project knows), which
`train` records in a model's provenance when it reads FILE as --extra-data.
)";

// Beside each file written, its source (train/data_source.h: the input's
// sidecar, or the input as a known data file), so that a training run that
// reads a split as --extra-data credits it as it credits --data. Nothing is
// written when the input's source is unknown.
void write_split_source(const std::string& written, const DataSource& source, const std::string& which) {
    if (is_unknown_source(source.source)) return;
    nlohmann::json sidecar = {{"source", source.source + "; " + which}};
    if (!source.license.empty()) sidecar["license"] = source.license;
    if (!source.attribution.empty()) sidecar["attribution"] = source.attribution;
    const std::string path = written + ".source.json";
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << sidecar.dump(2) << "\n";
    if (!out) throw IoError("cannot write " + path + "; check that its folder exists and is writable");
}

}  // namespace

int run_split(const std::vector<std::string>& argv) {
    const Args args("split", argv, {"data", "dev-output", "train-output", "exclude-sources", "dev-fraction", "split-seed", "limit"}, {"help"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const std::string data = args.required("data");
    const std::string output = args.required("dev-output");
    const double fraction = args.real("dev-fraction", 0.03, 0.0, 0.5);
    const auto seed = static_cast<uint64_t>(args.integer("split-seed", 1, 0, 1L << 40));
    const long limit = args.integer("limit", 0, 0, 100000000);
    const CorpusSplit split = split_by_source(read_sentence_pairs(data), fraction, seed);
    const std::vector<SourceWithReferences> dev = spread_sample(split.dev, static_cast<size_t>(limit));
    write_sentence_pairs(dev, output);
    const DataSource source = data_source_of(data, file_fnv1a64_hex(data));
    char how[96];
    std::snprintf(how, sizeof how, "(seq2seq split --dev-fraction %g --split-seed %llu)", fraction, static_cast<unsigned long long>(seed));
    const std::string name = std::filesystem::path(data).filename().string();
    write_split_source(output, source, "the development split of " + name + " " + how);
    if (args.has("exclude-sources") && !args.has("train-output")) {
        throw UsageError("--exclude-sources filters the training pairs: give --train-output too");
    }
    if (args.has("train-output")) {
        std::vector<SentencePair> train = split.train;
        if (args.has("exclude-sources")) {
            // The keys train compares (src/train/training_run.cpp): the
            // English words of the normalized sentence.
            std::unordered_set<std::string> left_out;
            for (const auto& entry : split.dev) left_out.insert(token_key(entry.source, english_words_tokenizer()));
            for (const auto& pair : read_sentence_pairs(args.string("exclude-sources", ""))) {
                left_out.insert(token_key(pair.source, english_words_tokenizer()));
            }
            const size_t before = train.size();
            train.erase(std::remove_if(train.begin(), train.end(),
                                       [&](const SentencePair& p) { return left_out.count(token_key(p.source, english_words_tokenizer())) != 0; }),
                        train.end());
            std::fprintf(stderr, "--exclude-sources: %zu of %zu training pairs left out\n", before - train.size(), before);
        }
        write_sentence_pairs(group_by_source(train), args.string("train-output", ""));
        write_split_source(args.string("train-output", ""), source, "the training split of " + name + " " + how);
    }
    size_t references = 0;
    for (const auto& entry : dev) references += entry.references.size();
    std::fprintf(stderr, "wrote %s: %zu development sentences, %zu pairs (of %zu held out)\n", output.c_str(),
                 dev.size(), references, split.dev.size());
    return 0;
}

}  // namespace s2s::cli
