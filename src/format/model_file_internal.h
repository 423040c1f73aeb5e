// What the source files of the model file share (internal to src/format;
// users include model_file.h):
//   model_file.cpp          encoding, decoding and file I/O
//   legacy.cpp              what only format versions 1 to 3 have
//   model_file_checks.cpp   checks of the structure: magic, version, header,
//                           table, record placement, padding, writer input
//   model_file_values.cpp   tensor values: float32, float16 and int8 in both
//                           directions, with the checks of the values
//   model_file_strings.cpp  records of strings and of uint16 values: their
//                           encoding, reading and checks
// Here: the sizes the layout fixes, the messages' fixes, little-endian
// access, cursors that cannot leave their buffer, and each file's functions
// that the others call.
#pragma once

#include "common/error.h"
#include "format/model_file.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace s2s::model_file_detail {

constexpr size_t kPreambleSize = 16;  // magic, version, header_size
// name_length, dtype, rows, cols, offset, byte_size: what every table entry
// takes besides its name. table_count is checked against it before anything
// is reserved, so a forged count cannot trigger a huge allocation.
constexpr size_t kTableEntryFixedSize = 4 + 4 + 4 + 4 + 8 + 8;
constexpr size_t kChecksumSize = 8;
constexpr size_t kMaxNameLength = 256;
// Copying, comparing and dumping nlohmann values recurses once per level; the
// WASM stack is small (64 KiB by default), so a header nested thousands deep
// could overflow it long after a successful parse. Real headers nest 3 or 4.
constexpr int kMaxHeaderDepth = 64;

inline const char* const kReDownload = "the file may be incomplete, download or copy it again";
inline const char* const kDamaged = "the file is damaged, download or copy it again";

// Largest int8 scale: 127 * scale stays finite (dividing by a power of two is exact).
constexpr float kMaxInt8Scale = std::numeric_limits<float>::max() / 128.0f;

// ---------------------------------------------------------------------------
// Explicit byte order: the same file must load on every host, and the WASM
// build reads it from an arbitrary (unaligned) offset in a JS ArrayBuffer.

inline void store_u64(uint8_t* p, uint64_t value) {
    for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(value >> (8 * i));
}
inline uint16_t load_u16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
inline uint32_t load_u32(const uint8_t* p) {
    uint32_t value = 0;
    for (int i = 3; i >= 0; --i) value = (value << 8) | p[i];
    return value;
}
inline uint64_t load_u64(const uint8_t* p) {
    uint64_t value = 0;
    for (int i = 7; i >= 0; --i) value = (value << 8) | p[i];
    return value;
}

inline uint32_t float_bits(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}
inline float bits_float(uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

// ---------------------------------------------------------------------------
// Dtypes.

inline bool is_known_dtype(uint32_t dtype) { return dtype <= static_cast<uint32_t>(TensorDtype::kInt8); }
inline bool is_record_dtype(uint32_t dtype) {
    return dtype == static_cast<uint32_t>(RecordDtype::kStrings) || dtype == static_cast<uint32_t>(RecordDtype::kUint16);
}

// Each dtype's two names: the file format's, for messages, and the CLI's
// short one (dtype_short_name, parse_dtype).
struct DtypeNames {
    TensorDtype dtype;
    const char* name;
    const char* short_name;
};
inline constexpr DtypeNames kDtypeNames[] = {
    {TensorDtype::kFloat32, "float32", "f32"},
    {TensorDtype::kFloat16, "float16", "f16"},
    {TensorDtype::kInt8, "int8", "i8"},
};

// An unknown value gets float32's names.
inline const DtypeNames& dtype_names(TensorDtype dtype) {
    for (const DtypeNames& names : kDtypeNames) {
        if (names.dtype == dtype) return names;
    }
    return kDtypeNames[0];
}
inline const char* dtype_name(TensorDtype dtype) { return dtype_names(dtype).name; }

// Bytes a rows x cols tensor takes, or false if that does not fit in 64 bits
// (rows and cols are at most 2^31 each, so only the last step can wrap).
inline bool tensor_byte_size(TensorDtype dtype, uint64_t rows, uint64_t cols, uint64_t& bytes) {
    const uint64_t count = rows * cols;
    const uint64_t max = std::numeric_limits<uint64_t>::max();
    switch (dtype) {
        case TensorDtype::kFloat16:
            if (count > max / 2) return false;
            bytes = count * 2;
            return true;
        case TensorDtype::kInt8:  // one float32 scale per row, then one byte per value
            if (count > max - 4 * rows) return false;
            bytes = 4 * rows + count;
            return true;
        case TensorDtype::kFloat32: break;
    }
    if (count > max / 4) return false;
    bytes = count * 4;
    return true;
}

// Bytes a record of strings or of uint16 values takes, or false if that
// does not fit in 64 bits (rows and cols are at most 2^32 - 1 each, so only
// uint16's last step can wrap).
inline bool record_byte_size(RecordDtype dtype, uint64_t rows, uint64_t cols, uint64_t& bytes) {
    if (dtype == RecordDtype::kStrings) {
        bytes = 4 + 4 * (rows + 1) + cols;
        return true;
    }
    const uint64_t count = rows * cols;
    if (count > std::numeric_limits<uint64_t>::max() / 2) return false;
    bytes = 2 * count;
    return true;
}

inline std::string in_quotes(std::string_view name) { return "'" + std::string(name) + "'"; }

// One entry of the table as read, whatever it holds: a tensor (dtype 0 to
// 2) or a record of strings or uint16 values (3, 4). The placement checks
// run over all of them in file order.
struct TableEntry {
    std::string name;
    uint32_t dtype = 0;
    uint32_t rows = 0;
    uint32_t cols = 0;
    uint64_t offset = 0;
    uint64_t byte_size = 0;
    bool is_tensor() const { return is_known_dtype(dtype); }
    // "tensor 'name'", "strings 'name'", "uint16 record 'name'": how messages call it.
    std::string label() const {
        if (is_tensor()) return "tensor " + in_quotes(name);
        return (dtype == static_cast<uint32_t>(RecordDtype::kStrings) ? "strings " : "uint16 record ") + in_quotes(name);
    }
};

// ---------------------------------------------------------------------------
// Cursors.

// A file shorter or longer than its own table says. The message's two
// halves are kept apart so that the reader of version 3 on can add between them
// that the checksum does not match either.
struct FileSizeError : ModelFileError {
    FileSizeError(const std::string& problem_text, const std::string& fix_text)
        : ModelFileError(problem_text + "; " + fix_text), problem(problem_text), fix(fix_text) {}
    std::string problem;  // "model file is truncated: ..."
    std::string fix;      // "the file may be incomplete, download or copy it again"
};

// Throws FileSizeError: `what` needs `length` bytes from `begin`, past the
// end of a file of `file_size` bytes.
[[noreturn]] void throw_truncated(const std::string& what, uint64_t begin, uint64_t length, size_t file_size);

// A cursor that can only move over bytes that exist.
class Reader {
public:
    Reader(const uint8_t* bytes, size_t size) : bytes_(bytes), size_(size) {}

    size_t position() const { return pos_; }
    size_t remaining() const { return size_ - pos_; }

    void require(uint64_t length, const std::string& what) const {
        if (length > remaining()) throw_truncated(what, pos_, length, size_);
    }
    const uint8_t* take(size_t length, const std::string& what) {
        require(length, what);
        const uint8_t* start = bytes_ + pos_;
        pos_ += length;
        return start;
    }
    uint32_t u32(const std::string& what) { return load_u32(take(4, what)); }
    uint64_t u64(const std::string& what) { return load_u64(take(8, what)); }

private:
    const uint8_t* bytes_;
    size_t size_;
    size_t pos_ = 0;
};

// Fills a buffer the encoder has already sized from the layout.
class Writer {
public:
    explicit Writer(uint8_t* bytes) : bytes_(bytes) {}

    size_t position() const { return pos_; }
    void seek(size_t position) { pos_ = position; }
    void bytes(const void* data, size_t length) {
        if (length != 0) std::memcpy(bytes_ + pos_, data, length);
        pos_ += length;
    }
    void u16(uint16_t value) { put(value, 2); }
    void u32(uint32_t value) { put(value, 4); }
    void u64(uint64_t value) { put(value, 8); }

private:
    void put(uint64_t value, int length) {
        for (int i = 0; i < length; ++i) bytes_[pos_ + i] = static_cast<uint8_t>(value >> (8 * i));
        pos_ += static_cast<size_t>(length);
    }

    uint8_t* bytes_;
    size_t pos_ = 0;
};

// ---------------------------------------------------------------------------
// model_file_checks.cpp: each throws ModelFileError naming the problem,
// except check_tensor_to_write (std::invalid_argument for caller mistakes).

// Tensor names end up in error messages, JSON and the browser console, so
// they must be 1 to kMaxNameLength bytes of well-formed UTF-8 without ASCII
// control characters.
bool is_valid_tensor_name(std::string_view name);
// The deepest nesting of arrays and objects, ignoring brackets inside
// strings. Run on the raw bytes before parsing so that depth is bounded
// before any recursive nlohmann code sees the value.
int json_nesting_depth(const char* text, size_t size);

// Reads and checks the magic and the format version; returns the version.
// A version newer than this build's is refused, saying whether the file's
// checksum (at its end from version 3 on) matches: if not, it is damaged.
uint32_t check_magic_and_version(Reader& reader, const uint8_t* bytes, size_t size);

// The checksum of format version 3 on: the file's last 8 bytes against the
// word_hash64 of every byte before them. kAbsent: the file is too short to
// hold a preamble and a checksum.
enum class FileChecksum { kMatches, kDiffers, kAbsent };
FileChecksum check_file_checksum(const uint8_t* bytes, size_t size);
// Throws the ModelFileError of a file whose checksum differs.
[[noreturn]] void throw_checksum_mismatch(const uint8_t* bytes, size_t size);
// For a file that claims an older version and fails to load as one: throws
// a ModelFileError saying the version field is damaged if the file is a
// file of version 3 on but for that field (its checksum matches with another
// version from 3 on).
void check_version_field_damage(const uint8_t* bytes, size_t size, uint32_t version);

// Reads header_size and takes the header's bytes (not parsed).
std::string_view read_header_text(Reader& reader);
// Checks that the header is a JSON object of bounded depth and parses it.
nlohmann::json parse_header(std::string_view text);
// Reads table entry `index` (0-based) and checks its name (valid, not in
// `seen`, which it joins), dtype (known, allowed in `version`), shape and
// byte size.
TableEntry read_table_entry(Reader& reader, uint32_t version, uint32_t index, std::unordered_set<std::string>& seen);
// Every entry aligned, after `data_start`, in table order without overlap,
// and inside the file. Returns where the last one ends (`data_start` if
// there are none).
uint64_t check_placement(const std::vector<TableEntry>& entries, size_t data_start, size_t size);
// Version 3 on: the checksum follows the data directly and ends the file.
void check_checksum_ends_file(uint64_t data_end, size_t size);
// Every byte between `data_start` and the last entry that belongs to no
// entry is zero.
void check_padding(const uint8_t* bytes, const std::vector<TableEntry>& entries, size_t data_start);
// What the writer can store: a valid unique name (joins `seen`), a shape,
// a dtype and values the reader will accept.
void check_tensor_to_write(const TensorToWrite& tensor, std::unordered_set<std::string>& seen);

// ---------------------------------------------------------------------------
// model_file.cpp.

// Reads the tensor count and every table entry (read_table_entry).
std::vector<TableEntry> read_table(Reader& reader, uint32_t version);
// The entries as the layout gives them: tensors and records apart, each in
// file order.
void split_entries(std::vector<TableEntry>& entries, ModelFileLayout& layout);

// ---------------------------------------------------------------------------
// legacy.cpp.

// The layout of a file of format version 1 or 2, after its magic and
// version (`reader` stands after them), checked in the order those
// versions always were.
ModelFileLayout read_layout_of_versions_1_and_2(Reader& reader, uint32_t version, const uint8_t* bytes, size_t size);

// ---------------------------------------------------------------------------
// model_file_strings.cpp.

// The inside of a record of strings placed in the file: its count equals
// its rows, its offsets start at 0, never decrease and end at its cols, and
// each string is valid UTF-8. (A uint16 record has nothing inside to check.)
void check_string_record(const uint8_t* bytes, const TableEntry& entry);
// What the writer can store: a valid unique name (joins `seen`), a known
// dtype, strings of valid UTF-8 that fit u32 sizes, values for every cell.
// Returns the record's byte size. Throws std::invalid_argument.
uint64_t check_record_to_write(const RecordToWrite& record, std::unordered_set<std::string>& seen);
// Stores the record at `out` (the bytes check_record_to_write gave).
void encode_record(const RecordToWrite& record, uint8_t* out);

// ---------------------------------------------------------------------------
// model_file_values.cpp.

// Stores the values of `tensor` at `out` in its dtype (the bytes its
// tensor_byte_size gives); check_tensor_to_write accepted it.
void encode_tensor_values(const TensorToWrite& tensor, uint8_t* out);

}  // namespace s2s::model_file_detail
