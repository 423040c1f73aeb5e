// seq2seq convert: rewrites a model file with its weights stored in another
// dtype (float32, float16 or int8), keeping everything else.
#include "cli/args.h"
#include "cli/commands.h"
#include "common/error.h"
#include "model/model.h"

#include <cstdio>
#include <filesystem>

namespace s2s::cli {

namespace {
constexpr const char* kHelp = R"(usage: seq2seq convert --model PATH --dtype f32|f16|i8 --output PATH

Writes a copy of a model with its weights stored in another format; the
architecture, vocabularies, tokenizers and provenance are kept (the
provenance gains a "conversions" entry).
  --model PATH    the .s2s model to read
  --dtype D       f32: float32, exact (4 bytes per weight)
                  f16: float16 (2 bytes per weight)
                  i8:  int8 with one float32 scale per matrix row (1 byte
                       per weight; biases stay float16). Such files have
                       format version 2, which releases before int8 refuse.
  --output PATH   where to write it (atomically; may be the input itself)
The BLEU recorded in the provenance was measured with the original weights;
`seq2seq eval --model OUT --data TSV --record KEY` measures the new ones.
Converting to a wider dtype does not bring back what a narrower one lost.
)";
}  // namespace

int run_convert(const std::vector<std::string>& argv) {
    const Args args("convert", argv, {"model", "dtype", "output"}, {"help"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const std::string input = args.required("model");
    const std::string output = args.required("output");
    TensorDtype dtype = TensorDtype::kFloat32;
    if (!parse_dtype(args.required("dtype"), dtype)) throw UsageError("--dtype must be f32, f16 or i8");

    Model model = load_model(input);
    const TensorDtype from = model.stored_dtype;
    if (!model.provenance.is_object()) model.provenance = nlohmann::json::object();
    nlohmann::json& conversions = model.provenance["conversions"];
    if (!conversions.is_array()) conversions = nlohmann::json::array();
    conversions.push_back({{"from", dtype_short_name(from)}, {"to", dtype_short_name(dtype)}});
    const auto before = std::filesystem::file_size(input);
    save_model(model, output, dtype);
    std::fprintf(stderr, "wrote %s: weights as %s, %ju bytes (%s: %s, %ju bytes)\n", output.c_str(),
                 dtype_short_name(dtype), static_cast<uintmax_t>(std::filesystem::file_size(output)), input.c_str(),
                 dtype_short_name(from), static_cast<uintmax_t>(before));
    return 0;
}

}  // namespace s2s::cli
