// The .s2s model file: one binary file that carries everything a model needs.
//
// Layout of format version 4, the one every writer writes (all integers
// little-endian):
//   offset 0   magic        8 bytes  "S2SMODEL"
//   offset 8   version      u32      4
//   offset 12  header_size  u32      bytes of the JSON header that follows
//   offset 16  header       JSON (UTF-8): small metadata only (architecture
//                           and sizes, tokenizer settings, provenance,
//                           decoding defaults); the bulk is in records
//   then       table_count  u32      number of records
//              table        table_count entries, each:
//                 name_length u32, name bytes (UTF-8, <= 256),
//                 dtype u32, rows u32, cols u32,
//                 offset u64 (from the start of the file, a multiple of 64),
//                 byte_size u64 (fixed by dtype, rows and cols, below)
//   then       record data, each record at its offset, padding bytes zero
//   last       checksum     u64      word_hash64 (src/common/hash.h) of every
//                                    byte before it: magic, version, header,
//                                    table and data. It follows the last
//                                    record (or, without records, the table)
//                                    directly and ends the file.
// Every later version will end with the same checksum, so that a reader
// tells a damaged file from one newer than itself.
//
// A record is a tensor (dtypes 0 to 2) or, from version 4 on, a table of
// strings or of small integers (dtypes 3 and 4):
//   0 float32  rows x cols values; byte_size = rows * cols * 4
//   1 float16  rows x cols values; byte_size = rows * cols * 2
//   2 int8     rows float32 scales (finite, >= 0, at most FLT_MAX / 128),
//              then rows * cols int8 values in -127..127 (-128 is refused):
//              value = q * scale of its row. Symmetric per-row
//              quantization, scale = max |row| / 127; dequantized to
//              float32 at load. byte_size = rows * 4 + rows * cols
//   3 strings  rows strings of cols bytes of UTF-8 in all: count u32
//              (= rows), then count + 1 u32 offsets into the text (the
//              first 0, never decreasing, the last = cols), then the text,
//              the strings one after another; string i is the bytes
//              [offset i, offset i + 1), each valid UTF-8 on its own.
//              byte_size = 4 + 4 * (rows + 1) + cols
//   4 uint16   rows x cols values; byte_size = rows * cols * 2
// Tensors are stored row-major. A model file (model.h) holds its tensors,
// then the records "source_vocabulary" and "target_vocabulary" (strings:
// the tokens, by id), "source_tokenizer.merges" and
// "target_tokenizer.merges" (strings: a BPE tokenizer's merges, "left
// right", in merge order; only for a BPE tokenizer) and
// "target_shortlist.triggers" (uint16: the lexical shortlist's trigger
// lists, target_shortlist.h; only with a shortlist). They are read in place:
// a load copies each string once, into the vocabulary or the merges, and
// builds no JSON for them.
//
// Versions 1 to 3 (written before version 4; tests/fixtures holds a file of
// each) still load exactly as before:
//   version 3  version 4 with tensors only (dtypes 0 to 2): the
//              vocabularies, the BPE merges and the shortlist's triggers
//              (base64 of little-endian uint16 ids) are in the JSON header
//              ("source_vocabulary", "source_tokenizer": {"merges": [...]},
//              "target_shortlist": {"triggers": "..."}).
//   version 2  version 3 with the checksum right after the table instead of
//              at the end: data_checksum u64, FNV-1a 64 (src/common/hash.h)
//              of the bytes from the first tensor's offset to the end of the
//              file (of no bytes, without tensors). The magic, version,
//              header and table are not covered: a flipped bit in the header
//              (say, in the provenance) loads silently.
//   version 1  version 2 without int8 (dtype 2).
// Rewriting such a file (`seq2seq convert`, or loading and saving a model)
// writes version 4.
//
// Every load validates magic, version, sizes, offsets (inside the file,
// aligned, non-overlapping, in order), dtypes, the checksum, the header
// JSON and, inside each table of strings, its count, its offsets and its
// UTF-8; every failure is a ModelFileError whose message names the problem,
// never a crash or a huge allocation. A file of version 3 on is checked
// against its checksum before its header is parsed. If the checksum
// differs, the message names the checksum and the fix ("download or copy it
// again"), and says the file is truncated (or has bytes after its end) when
// its length does not fit its own table.
#pragma once

#include "format/float16.h"  // float_to_half, half_to_float: the float16 dtype

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace s2s {

inline constexpr char kModelMagic[8] = {'S', '2', 'S', 'M', 'O', 'D', 'E', 'L'};
// The format version every writer writes, the newest this build reads; it
// reads every version from kOldestModelFormatVersion on.
inline constexpr uint32_t kModelFormatVersion = 4;
inline constexpr uint32_t kOldestModelFormatVersion = 1;
// The first version whose checksum covers every byte (and ends the file).
inline constexpr uint32_t kWholeFileChecksumVersion = 3;
// The first version with records of strings and of uint16 values.
inline constexpr uint32_t kStringRecordsVersion = 4;
inline constexpr size_t kTensorAlignment = 64;

// The widest int8 quantization: values -127..127 (-128 is never written).
inline constexpr int kMaxInt8Levels = 127;

enum class TensorDtype : uint32_t { kFloat32 = 0, kFloat16 = 1, kInt8 = 2 };
// The dtypes of the records that are not tensors (format version 4 on),
// numbered after the tensors' in the same table field.
enum class RecordDtype : uint32_t { kStrings = 3, kUint16 = 4 };

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

// A record of strings or of uint16 values to write. The views must stay
// valid until encode_model_file returns.
struct RecordToWrite {
    std::string name;
    RecordDtype dtype = RecordDtype::kStrings;
    std::vector<std::string_view> strings;  // kStrings: each valid UTF-8
    uint32_t rows = 0;                      // kUint16: rows x cols values at `values`, row-major
    uint32_t cols = 0;
    const uint16_t* values = nullptr;
};

struct LoadedTensor {
    std::string name;
    int rows = 0;
    int cols = 0;
    TensorDtype stored_dtype = TensorDtype::kFloat32;
    std::vector<float> data;  // rows * cols floats, row-major, always float32 in memory
};

struct LoadedRecord {
    std::string name;
    RecordDtype dtype = RecordDtype::kStrings;
    std::vector<std::string> strings;  // kStrings
    uint32_t rows = 0;                 // kUint16: the shape of `values`
    uint32_t cols = 0;
    std::vector<uint16_t> values;      // kUint16, row-major
};

struct ModelFileContents {
    nlohmann::json header;
    std::vector<LoadedTensor> tensors;  // in file order
    std::vector<LoadedRecord> records;  // in file order (version 4 on)
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
struct RecordLayout {
    std::string name;
    RecordDtype dtype = RecordDtype::kStrings;
    uint32_t rows = 0;  // kStrings: the number of strings
    uint32_t cols = 0;  // kStrings: the bytes of their text
    uint64_t offset = 0;
    uint64_t byte_size = 0;
};
struct ModelFileLayout {
    uint32_t version = 0;
    nlohmann::json header;
    std::vector<TensorLayout> tensors;  // in file order
    std::vector<RecordLayout> records;  // in file order
};
// Every check of decode_model_file but those of the tensor values
// themselves: the records of strings are checked whole (count, offsets,
// UTF-8), so reading them cannot fail. Throws ModelFileError. `bytes` must
// outlive the layout's use (decode_tensor_values, StringTableView).
ModelFileLayout read_model_layout(const uint8_t* bytes, size_t size);
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

// The strings of a record of strings that read_model_layout accepted, read
// where they lie: string i is a view of the file's bytes (which must outlive
// it), found through the record's offsets. Nothing is copied or allocated.
class StringTableView {
public:
    StringTableView(const uint8_t* bytes, const RecordLayout& record);
    size_t size() const { return count_; }
    std::string_view operator[](size_t i) const;

private:
    const uint8_t* offsets_ = nullptr;  // count_ + 1 little-endian u32
    const char* text_ = nullptr;
    size_t count_ = 0;
};
// Value i (row-major) of a uint16 record that read_model_layout accepted.
uint16_t uint16_record_value(const uint8_t* bytes, const RecordLayout& record, size_t i);

// Writes format version 4: the tensors, then the records. Throws
// std::invalid_argument for caller mistakes (a header that is not an
// object, bad or duplicate names, negative shapes, strings that are not
// UTF-8) and ModelFileError for values the file cannot hold (NaN, infinity,
// beyond the float16 range).
std::vector<uint8_t> encode_model_file(const nlohmann::json& header, const std::vector<TensorToWrite>& tensors,
                                       const std::vector<RecordToWrite>& records = {});
// Throws ModelFileError.
ModelFileContents decode_model_file(const uint8_t* bytes, size_t size);

// Writes atomically (to PATH.tmp, then rename). Throws IoError.
void write_model_file(const std::string& path, const nlohmann::json& header, const std::vector<TensorToWrite>& tensors,
                      const std::vector<RecordToWrite>& records = {});
// Throws IoError if the file cannot be read, ModelFileError if it is invalid.
ModelFileContents read_model_file(const std::string& path);
// The bytes of a file. Throws IoError naming the path.
std::vector<uint8_t> read_file_bytes(const std::string& path);

}  // namespace s2s
