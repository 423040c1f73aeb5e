// seq2seq convert: rewrites a model file with its weights stored in another
// dtype (float32, float16 or int8), keeping everything else.
#include "cli/args.h"
#include "cli/commands.h"
#include "common/error.h"
#include "decode/limits.h"
#include "model/model.h"

#include <cstdio>
#include <filesystem>

namespace s2s::cli {

namespace {
constexpr const char* kHelp = R"(usage: seq2seq convert --model PATH [--dtype f32|f16|i8] [--int8-bits B]
                       [--length-penalty A] [--coverage-penalty B] --output PATH

Writes a copy of a model with its weights stored in another format, or with
the beam search penalties chosen for it recorded; the architecture,
vocabularies, tokenizers and provenance are kept (the provenance gains a
"conversions" entry).
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
  --output PATH   where to write it (atomically; may be the input itself),
                  in format version 3: a checksum over every byte, whatever
                  version the input has
The BLEU recorded in the provenance was measured with the original weights;
`seq2seq eval --model OUT --data TSV --record KEY` measures the new ones.
Converting to a wider dtype does not bring back what a narrower one lost.
)";
}  // namespace

int run_convert(const std::vector<std::string>& argv) {
    const Args args("convert", argv, {"model", "dtype", "output", "int8-bits", "length-penalty", "coverage-penalty"},
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
    const TensorDtype from = model.stored_dtype;
    const bool to_int8 = dtype == TensorDtype::kInt8;
    const int from_levels = model.int8_levels;
    model.int8_levels = args.int8_levels(to_int8, from == TensorDtype::kInt8 ? from_levels : kMaxInt8Levels);
    if (!model.provenance.is_object()) model.provenance = nlohmann::json::object();
    nlohmann::json& conversions = model.provenance["conversions"];
    if (!conversions.is_array()) conversions = nlohmann::json::array();
    nlohmann::json conversion = {{"from", dtype_short_name(from)}, {"to", dtype_short_name(dtype)}};
    if (from == TensorDtype::kInt8) conversion["from_int8_levels"] = from_levels;
    if (to_int8) conversion["to_int8_levels"] = model.int8_levels;
    conversions.push_back(conversion);
    const auto before = std::filesystem::file_size(input);
    save_model(model, output, dtype);
    std::fprintf(stderr, "wrote %s: weights as %s, %ju bytes (%s: %s, %ju bytes)\n", output.c_str(),
                 dtype_short_name(dtype), static_cast<uintmax_t>(std::filesystem::file_size(output)), input.c_str(),
                 dtype_short_name(from), static_cast<uintmax_t>(before));
    return 0;
}

}  // namespace s2s::cli
