// The .s2s model file: one binary file that carries everything a model needs.
//
// Layout of format version 3, the one every writer writes (all integers
// little-endian):
//   offset 0   magic        8 bytes  "S2SMODEL"
//   offset 8   version      u32      3
//   offset 12  header_size  u32      bytes of the JSON header that follows
//   offset 16  header       JSON (UTF-8): architecture and sizes,
//                           vocabularies, tokenizer settings, provenance
//   then       table_count  u32      number of tensors
//              table        table_count entries, each:
//                 name_length u32, name bytes (UTF-8, <= 256),
//                 dtype u32 (0 = float32, 1 = float16, 2 = int8),
//                 rows u32, cols u32,
//                 offset u64 (from the start of the file, a multiple of 64),
//                 byte_size u64 (= rows * cols * dtype size; for int8,
//                                rows * 4 + rows * cols)
//   then       tensor data, each tensor at its offset, padding bytes zero
//   last       checksum     u64      word_hash64 (src/common/hash.h) of every
//                                    byte before it: magic, version, header,
//                                    table and data. It follows the last
//                                    tensor (or, without tensors, the table)
//                                    directly and ends the file.
// Every later version will end with the same checksum, so that a reader
// tells a damaged file from one newer than itself.
//
// Versions 1 and 2 (written before version 3; the shipped models/*.s2s are
// version 3, tests/fixtures holds one file of each older version) still
// load exactly as before, with their own checksum:
//   version 1  as version 3 without int8 (dtype 2), and with the checksum
//              right after the table instead of at the end:
//              data_checksum u64, FNV-1a 64 (src/common/hash.h) of the
//              bytes from the first tensor's offset to the end of the file
//              (of no bytes, without tensors). The magic, version, header
//              and table are not covered: a flipped bit in the header
//              (say, in the provenance) loads silently.
//   version 2  version 1 with int8.
// Rewriting such a file (`seq2seq convert`, or loading and saving a model)
// writes version 3.
//
// Tensors are stored row-major. An int8 tensor is rows float32 scales
// (finite, >= 0, at most FLT_MAX / 128), then rows * cols int8 values in
// -127..127 (-128 is refused): value = q * scale of its row. Symmetric
// per-row quantization, scale = max |row| / 127; it is dequantized to
// float32 at load.
//
// Every load validates magic, version, sizes, offsets (inside the file,
// aligned, non-overlapping, in order), dtypes, the checksum and the header
// JSON; every failure is a ModelFileError whose message names the problem,
// never a crash or a huge allocation. A version 3 file is checked against
// its checksum before its header is parsed. If the checksum differs, the
// message names the checksum and the fix ("download or copy it again"),
// and says the file is truncated (or has bytes after its end) when its
// length does not fit its own table.
#pragma once

#include "model/float16.h"  // float_to_half, half_to_float: the float16 dtype

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace s2s {

inline constexpr char kModelMagic[8] = {'S', '2', 'S', 'M', 'O', 'D', 'E', 'L'};
// The format version every writer writes, the newest this build reads; it
// reads every version from kOldestModelFormatVersion on.
inline constexpr uint32_t kModelFormatVersion = 3;
inline constexpr uint32_t kOldestModelFormatVersion = 1;
// The first version whose checksum covers every byte (and ends the file).
inline constexpr uint32_t kWholeFileChecksumVersion = 3;
inline constexpr size_t kTensorAlignment = 64;

// The widest int8 quantization: values -127..127 (-128 is never written).
inline constexpr int kMaxInt8Levels = 127;

enum class TensorDtype : uint32_t { kFloat32 = 0, kFloat16 = 1, kInt8 = 2 };

// "f32", "f16", "i8" (the CLI's names) and back; parse returns false for
// anything else.
const char* dtype_short_name(TensorDtype dtype);
bool parse_dtype(const std::string& name, TensorDtype& dtype);

// A tensor to write: `data` holds rows * cols floats in row-major order.
struct TensorToWrite {
    std::string name;
    int rows = 0;
    int cols = 0;
    const float* data = nullptr;
    TensorDtype dtype = TensorDtype::kFloat32;  // float16 rounds to nearest even; int8 see above
    // int8 only: values are quantized to -int8_levels..int8_levels, with
    // scale = max |row| / int8_levels (127: 8 bits; 63: 7 bits, which gzip
    // then stores in about 7 bits a value).
    int int8_levels = kMaxInt8Levels;
};

struct LoadedTensor {
    std::string name;
    int rows = 0;
    int cols = 0;
    TensorDtype stored_dtype = TensorDtype::kFloat32;
    std::vector<float> data;  // rows * cols floats, row-major, always float32 in memory
};

struct ModelFileContents {
    nlohmann::json header;
    std::vector<LoadedTensor> tensors;  // in file order
};

// decode_model_file in two halves, for a loader that decodes the values
// straight into its own storage (one pass over the data, no intermediate
// copy: the model loader does this, which matters most in WASM).
struct TensorLayout {
    std::string name;
    TensorDtype dtype = TensorDtype::kFloat32;
    uint32_t rows = 0;
    uint32_t cols = 0;
    uint64_t offset = 0;     // from the start of the file
    uint64_t byte_size = 0;
};
struct ModelFileLayout {
    nlohmann::json header;
    std::vector<TensorLayout> tensors;  // in file order
    // With read_model_layout's separate_vocabularies, when the quick path
    // took them: the two vocabularies' tokens (the header holds [] for each).
    bool vocabularies_separate = false;
    std::vector<std::string> source_vocabulary;
    std::vector<std::string> target_vocabulary;
    // Likewise the BPE merges ("left right" strings) of each tokenizer whose
    // "merges" the quick path took (the header holds [] in their place).
    bool source_merges_separate = false, target_merges_separate = false;
    std::vector<std::string> source_merges, target_merges;
    // And the lexical shortlist's base64 "triggers" (the header holds "").
    bool shortlist_triggers_separate = false;
    std::string shortlist_triggers;
};
// Every check of decode_model_file but those of the values themselves.
// Throws ModelFileError. `bytes` must outlive the decode_tensor_values calls.
// `separate_vocabularies`: read the header's two vocabularies into the
// layout's vectors instead of JSON when the quick path can (a model load
// does; see header_vocabularies.cpp); the checks are the same.
ModelFileLayout read_model_layout(const uint8_t* bytes, size_t size, bool separate_vocabularies = false);
// Decodes one tensor of a file read_model_layout accepted into `out`
// (rows * cols floats), row-major, or column-major (Eigen's default order)
// when `column_major`. Throws ModelFileError for a value the format does not
// allow (NaN, infinity, int8 -128, a bad int8 scale), naming it.
void decode_tensor_values(const uint8_t* bytes, const TensorLayout& tensor, float* out, bool column_major);
// An int8 tensor's row scales (rows floats into `scales`, unless it is
// null) and a pointer to its values (rows x cols, row-major, inside
// `bytes`), as stored: unchecked (decode_tensor_values checks them, or
// check_int8_tensor alone).
const int8_t* int8_tensor_values(const uint8_t* bytes, const TensorLayout& tensor, float* scales);
// The same row scales read where they lie, as floats: the file stores them
// as little-endian float32 bits, which are the floats' own bytes on a
// little-endian machine (WebAssembly, x86, ARM as run). Null where they are
// not (a big-endian machine, or `bytes` not 4-byte aligned): read them with
// int8_tensor_values then.
const float* file_int8_scales(const uint8_t* bytes, const TensorLayout& tensor);
// The checks decode_tensor_values makes of an int8 tensor (every scale
// finite and in range, no value -128), without decoding it: throws
// ModelFileError naming the row and column.
void check_int8_tensor(const uint8_t* bytes, const TensorLayout& tensor);

// Writes format version 3. Throws std::invalid_argument for caller mistakes
// (a header that is not an object, bad or duplicate names, negative shapes)
// and ModelFileError for values the file cannot hold (NaN, infinity, beyond
// the float16 range).
std::vector<uint8_t> encode_model_file(const nlohmann::json& header, const std::vector<TensorToWrite>& tensors);
// Throws ModelFileError.
ModelFileContents decode_model_file(const uint8_t* bytes, size_t size);

// Writes atomically (to PATH.tmp, then rename). Throws IoError.
void write_model_file(const std::string& path, const nlohmann::json& header, const std::vector<TensorToWrite>& tensors);
// Throws IoError if the file cannot be read, ModelFileError if it is invalid.
ModelFileContents read_model_file(const std::string& path);
// The bytes of a file. Throws IoError naming the path.
std::vector<uint8_t> read_file_bytes(const std::string& path);

}  // namespace s2s
