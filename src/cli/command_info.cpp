// seq2seq info: what a model file holds (architecture, vocabularies, storage)
// and where it came from (its provenance), without loading it for decoding.
#include "cli/args.h"
#include "cli/commands.h"
#include "model/model.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace s2s::cli {

namespace {
constexpr const char* kHelp = R"(usage: seq2seq info --model PATH [--json]

Prints a model's architecture, vocabulary sizes, storage and provenance
(data, split, training run, development BLEU).
  --model PATH   a .s2s model file
  --json         everything as one JSON object (vocabularies left out)
)";

double bleu_of(const nlohmann::json& report) {
    return report.contains("overall") ? report["overall"].value("bleu", 0.0) : 0.0;
}
}  // namespace

int run_info(const std::vector<std::string>& argv) {
    const Args args("info", argv, {"model"}, {"json", "help"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const std::string path = args.required("model");
    const Model model = load_model(path);
    // The header without the vocabularies and the shortlist's triggers
    // (thousands of tokens and ids, not for reading), with the BPE merges.
    nlohmann::json info = model_header(model);
    info["source_tokenizer"] = to_json(model.source_tokenizer);
    info["target_tokenizer"] = to_json(model.target_tokenizer);
    info["source_vocabulary_size"] = model.source_vocabulary.size();
    info["target_vocabulary_size"] = model.target_vocabulary.size();
    info["parameters"] = model.params.count();
    info["stored_dtype"] = dtype_short_name(model.stored_dtype);
    if (model.stored_dtype == TensorDtype::kInt8) info["int8_levels"] = model.int8_levels;
    info["file_bytes"] = std::filesystem::file_size(path);
    info["fingerprint"] = model_fingerprint(model);
    if (args.has("json")) {
        std::cout << info.dump(2) << '\n';
        return 0;
    }
    const nlohmann::json& p = model.provenance;
    std::string stored = info["stored_dtype"].get<std::string>();
    if (model.stored_dtype == TensorDtype::kInt8 && model.int8_levels != kMaxInt8Levels) {
        stored += " (values -" + std::to_string(model.int8_levels) + " to " + std::to_string(model.int8_levels) + ")";
    }
    std::printf("%s: %s attention, %ld parameters stored as %s, %ju bytes\n", p.value("name", path).c_str(),
                attention_kind_name(model.config.attention).c_str(), model.params.count(), stored.c_str(),
                static_cast<uintmax_t>(info["file_bytes"].get<uint64_t>()));
    std::printf("vocabularies: %d English, %d %s\n", model.source_vocabulary.size(), model.target_vocabulary.size(),
                model.target_tokenizer.language.c_str());
    if (p.contains("data")) {
        std::printf("data: %s (fnv1a64 %s), %s\n", p["data"].value("file", "?").c_str(),
                    p["data"].value("fnv1a64", "?").c_str(), p["data"].value("license", "?").c_str());
    }
    if (p.contains("training")) {
        std::printf("training: %ld steps, %.0f s\n", p["training"].value("steps", 0L), p["training"].value("wall_seconds", 0.0));
    }
    if (p.contains("dev_bleu")) std::printf("development BLEU (greedy, at the end of training): %.2f\n", bleu_of(p["dev_bleu"]));
    if (p.contains("evaluations")) {
        for (const auto& [key, report] : p["evaluations"].items()) std::printf("evaluation %s: BLEU %.2f\n", key.c_str(), bleu_of(report));
    }
    return 0;
}

}  // namespace s2s::cli
