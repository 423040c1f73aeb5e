// seq2seq convert: rewrites a model file with its weights stored in another
// dtype (float32, float16 or int8), keeping everything else.
#include "cli/args.h"
#include "cli/commands.h"
#include "common/error.h"
#include "common/limits.h"
#include "model/model.h"
#include "text/utf8.h"
#include "corpus/parallel_corpus.h"
#include "train/data_source.h"
#include "train/weight_operations.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace s2s::cli {

namespace {
constexpr const char* kHelp = R"(usage: seq2seq convert --model PATH [--dtype f32|f16|i8] [--int8-bits B]
                       [--length-penalty A] [--coverage-penalty B]
                       [--interpolate OTHER --weight W] [--name NAME]
                       [--init-name NAME] [--data-dir DIR] --output PATH

Writes a copy of a model with its weights stored in another format, or with
the beam search penalties chosen for it recorded, or only rewritten in the
current file format; the architecture, vocabularies, tokenizers and
provenance are kept (the provenance gains a "conversions" entry when the
weights or the penalties change).
  --model PATH    the .s2s model to read
  --dtype D       (default: the input's)
                  f32: float32, exact (4 bytes per weight)
                  f16: float16 (2 bytes per weight)
                  i8:  int8 with one float32 scale per matrix row (1 byte
                       per weight; biases stay float16). Releases before
                       int8 refuse such files by their format version.
  --int8-bits B   with i8: quantize to B bits (2 to 8), values -(2^(B-1)-1)
                  to 2^(B-1)-1 in the same int8 format; fewer levels
                  compress better (gzip stores 7-bit values in about 7
                  bits). Default: the input's, if it is int8, else 8.
  --length-penalty A, --coverage-penalty B
                  record these (0 to 5) as the model's own beam search
                  defaults (GNMT alpha and beta), chosen on its development
                  split (scripts/penalty-grid.mjs): translate, eval and the
                  JavaScript API use them unless told otherwise
  --interpolate OTHER, --weight W
                  every weight becomes (1 - W) x the model's + W x OTHER's
                  (W from 0 to 1, default 0.5): two runs of one model from
                  the same start (say a domain stage with two mixtures), or
                  a fine-tuned model and its start (weight-space ensembles,
                  Wortsman et al., 2022). OTHER needs the same architecture,
                  vocabularies and tokenizers; the provenance records it
  --name NAME     the model's name in its provenance (say a measured arm of
                  a training run that becomes the shipped model); the
                  conversion records the name it had
  --init-name NAME
                  the name of the model this one was trained from
                  (training.init_model.name), when that model was renamed
                  after this training read it, as --name renames; the
                  conversion records the name it had
  --data-dir DIR  each training data file the provenance records with an
                  unknown source (no sidecar beside it when it was read)
                  gets the source, license and attribution of DIR/FILE's
                  sidecar (FILE.source.json), when DIR/FILE still has the
                  recorded FNV-1a 64 hash; the conversion lists the files
  --output PATH   where to write it (atomically; may be the input itself),
                  in format version 4 (vocabularies, merges and shortlist
                  as binary records; a checksum over every byte), whatever
                  version the input has
The BLEU recorded in the provenance was measured with the original weights;
`seq2seq eval --model OUT --data TSV --record KEY` measures the new ones.
Converting to a wider dtype does not bring back what a narrower one lost.
)";
// Fills in, from DIR's sidecars, the source of every data record of the
// provenance ({"file", "fnv1a64", "source": "unknown: ..."}, wherever it is
// nested) whose file in DIR has the recorded hash; returns the files filled.
void fill_data_sources(nlohmann::json& node, const std::string& dir, nlohmann::json& filled) {
    if (node.is_array()) {
        for (auto& child : node) fill_data_sources(child, dir, filled);
        return;
    }
    if (!node.is_object()) return;
    const auto file = node.find("file"), hash = node.find("fnv1a64"), source = node.find("source");
    if (file != node.end() && file->is_string() && hash != node.end() && hash->is_string() && source != node.end() &&
        source->is_string() && is_unknown_source(source->get<std::string>())) {
        const std::string path = (std::filesystem::path(dir) / file->get<std::string>()).string();
        if (std::filesystem::exists(path) && file_fnv1a64_hex(path) == hash->get<std::string>()) {
            const DataSource found = data_source_of(path, hash->get<std::string>());
            if (!is_unknown_source(found.source)) {
                node["source"] = found.source;
                if (!found.license.empty()) node["license"] = found.license;
                if (!found.attribution.empty()) node["attribution"] = found.attribution;
                filled.push_back(*file);
            }
        }
        return;
    }
    for (auto& [key, child] : node.items()) fill_data_sources(child, dir, filled);
}

}  // namespace

// model = (1 - weight) model + weight other, tensor by tensor; the
// provenance's "interpolation" records other (its name, hash and own
// provenance's name) and the weight.
void interpolate(Model& model, const std::string& other_path, double weight) {
    const Model other = load_model(other_path);
    nlohmann::json other_config = to_json(other.config), config = to_json(model.config);
    other_config.erase("target_vocab_size");  // checked below, token by token
    config.erase("target_vocab_size");
    if (other_config != config) {
        throw UsageError("--interpolate " + other_path + " has another architecture (" + to_json(other.config).dump() +
                         "); interpolate two models of one architecture");
    }
    // The target vocabulary may have grown since OTHER (a domain stage adds
    // tokens at its end, train --init-model): OTHER's tokens must be the
    // first ones of the model's, and the rows or columns of the added
    // tokens keep the model's values.
    const nlohmann::json target = model.target_vocabulary.to_json(), other_target = other.target_vocabulary.to_json();
    const bool target_prefix = other_target.is_array() && target.is_array() && other_target.size() <= target.size() &&
                               std::equal(other_target.begin(), other_target.end(), target.begin());
    if (other.source_vocabulary.to_json() != model.source_vocabulary.to_json() || !target_prefix ||
        to_json(other.source_tokenizer) != to_json(model.source_tokenizer) ||
        to_json(other.target_tokenizer) != to_json(model.target_tokenizer)) {
        throw UsageError("--interpolate " + other_path + " has other vocabularies or tokenizers (its target tokens must "
                         "be the first of the model's); each row of a weight must mean the same token in both models");
    }
    interpolate_overlap(model.params, other.params, static_cast<float>(weight));
    if (!model.provenance.is_object()) model.provenance = nlohmann::json::object();
    nlohmann::json record = model_file_reference(other_path, file_fnv1a64_hex(other_path), other.provenance);
    record["weight"] = weight;
    if (other.provenance.is_object() && other.provenance.contains("extra_data")) record["extra_data"] = other.provenance["extra_data"];
    model.provenance["interpolation"] = record;
}

int run_convert(const std::vector<std::string>& argv) {
    const Args args("convert", argv,
                    {"model", "dtype", "output", "int8-bits", "length-penalty", "coverage-penalty", "interpolate", "weight", "name",
                     "init-name", "data-dir"},
                    {"help"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const std::string input = args.required("model");
    const std::string output = args.required("output");
    Model model = load_model(input);
    TensorDtype dtype = model.stored_dtype;
    if (args.has("dtype") && !parse_dtype(args.string("dtype", ""), dtype)) throw UsageError("--dtype must be f32, f16 or i8");
    if (args.has("length-penalty")) model.length_penalty = args.real("length-penalty", 0.0, 0.0, kMaxPenalty);
    if (args.has("coverage-penalty")) {
        model.coverage_penalty = args.real("coverage-penalty", 0.0, 0.0, kMaxPenalty);
    }
    if (args.has("weight") && !args.has("interpolate")) throw UsageError("--weight needs --interpolate OTHER: the model to mix in");
    if (args.has("interpolate")) interpolate(model, args.required("interpolate"), args.real("weight", 0.5, 0.0, 1.0));
    const TensorDtype from = model.stored_dtype;
    const bool to_int8 = dtype == TensorDtype::kInt8;
    const int from_levels = model.int8_levels;
    model.int8_levels = args.int8_levels(to_int8, from == TensorDtype::kInt8 ? from_levels : kMaxInt8Levels);
    // A rewrite that changes nothing of the model (the same dtype and
    // levels, no penalties, no interpolation: only the file, say to the
    // current format version) records nothing, so its provenance stays.
    const bool changed = dtype != from || (to_int8 && model.int8_levels != from_levels) ||
                         args.has("length-penalty") || args.has("coverage-penalty") || args.has("interpolate") ||
                         args.has("name") || args.has("init-name") || args.has("data-dir");
    if (changed) {
        if (!model.provenance.is_object()) model.provenance = nlohmann::json::object();
        nlohmann::json& conversions = model.provenance["conversions"];
        if (!conversions.is_array()) conversions = nlohmann::json::array();
        nlohmann::json conversion = {{"from", dtype_short_name(from)}, {"to", dtype_short_name(dtype)}};
        if (from == TensorDtype::kInt8) conversion["from_int8_levels"] = from_levels;
        if (to_int8) conversion["to_int8_levels"] = model.int8_levels;
        // --name and --init-name: the flag's name, checked, replaces `record`'s;
        // the old one is kept in the conversion.
        const auto checked_name = [&](const char* flag) {
            const std::string name = args.string(flag, "");
            if (name.empty() || !is_valid_utf8(name)) throw UsageError(std::string("--") + flag + " must be a non-empty name such as en-zh");
            return name;
        };
        const auto rename = [&](nlohmann::json& record, const std::string& name, const char* old_key) {
            conversion[old_key] = record.value("name", nlohmann::json(nullptr));
            record["name"] = name;
        };
        if (args.has("name")) rename(model.provenance, checked_name("name"), "renamed_from");
        if (args.has("init-name")) {
            const std::string name = checked_name("init-name");
            const auto training = model.provenance.find("training");
            nlohmann::json* init = nullptr;
            if (training != model.provenance.end() && training->is_object()) {
                const auto found = training->find("init_model");
                if (found != training->end() && found->is_object()) init = &*found;
            }
            if (init == nullptr) {
                throw UsageError("--init-name: " + input + " records no training.init_model (it was not trained with --init-model)");
            }
            rename(*init, name, "init_renamed_from");
        }
        if (args.has("data-dir")) {
            const std::string dir = args.string("data-dir", "");
            if (!std::filesystem::is_directory(dir)) throw UsageError("--data-dir: " + dir + " is not a folder");
            nlohmann::json filled = nlohmann::json::array();
            fill_data_sources(model.provenance, dir, filled);
            conversion["data_sources_filled"] = filled;
        }
        conversions.push_back(conversion);
    }
    const auto before = std::filesystem::file_size(input);
    save_model(model, output, dtype);
    std::fprintf(stderr, "wrote %s: weights as %s, %ju bytes (%s: %s, %ju bytes)\n", output.c_str(),
                 dtype_short_name(dtype), static_cast<uintmax_t>(std::filesystem::file_size(output)), input.c_str(),
                 dtype_short_name(from), static_cast<uintmax_t>(before));
    return 0;
}

}  // namespace s2s::cli
