#include "model/model_file.h"

#include "common/error.h"
#include "common/hash.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <unordered_set>

// The decoder is a trust boundary: model files come from downloads and, in the
// browser, from whatever the user drops on the page. Every length is checked
// against the bytes that remain before it is used, so a hostile file can cost
// at most a few times its own size in memory and never a read out of bounds.

namespace s2s {
namespace {

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

const char* const kReDownload = "the file may be incomplete, download or copy it again";
const char* const kDamaged = "the file is damaged, download or copy it again";

// Largest int8 scale: 127 * scale stays finite (dividing by a power of two is exact).
constexpr float kMaxInt8Scale = std::numeric_limits<float>::max() / 128.0f;

bool is_known_dtype(uint32_t dtype) { return dtype <= static_cast<uint32_t>(TensorDtype::kInt8); }

// Each dtype's two names: the file format's, for messages, and the CLI's
// short one (dtype_short_name, parse_dtype).
struct DtypeNames {
    TensorDtype dtype;
    const char* name;
    const char* short_name;
};
constexpr DtypeNames kDtypeNames[] = {
    {TensorDtype::kFloat32, "float32", "f32"},
    {TensorDtype::kFloat16, "float16", "f16"},
    {TensorDtype::kInt8, "int8", "i8"},
};

// An unknown value gets float32's names.
const DtypeNames& dtype_names(TensorDtype dtype) {
    for (const DtypeNames& names : kDtypeNames) {
        if (names.dtype == dtype) return names;
    }
    return kDtypeNames[0];
}

const char* dtype_name(TensorDtype dtype) { return dtype_names(dtype).name; }

// Bytes a rows x cols tensor takes, or false if that does not fit in 64 bits
// (rows and cols are at most 2^31 each, so only the last step can wrap).
bool tensor_byte_size(TensorDtype dtype, uint64_t rows, uint64_t cols, uint64_t& bytes) {
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

// Symmetric per-row quantization to L levels each side (L = 127 for 8
// bits): scale = max |x| / L, q = round(x / scale). A row of zeros has
// scale 0.
float int8_row_scale(const float* row, size_t cols, int levels) {
    float largest = 0.0f;
    for (size_t c = 0; c < cols; ++c) largest = std::max(largest, std::abs(row[c]));
    return std::min(static_cast<float>(static_cast<double>(largest) / levels), kMaxInt8Scale);
}
int8_t quantize_int8(float value, float scale, int levels) {
    if (scale == 0.0f) return 0;
    const double q = std::round(static_cast<double>(value) / static_cast<double>(scale));
    return static_cast<int8_t>(std::clamp(q, -static_cast<double>(levels), static_cast<double>(levels)));
}

// Explicit byte order: the same file must load on every host, and the WASM
// build reads it from an arbitrary (unaligned) offset in a JS ArrayBuffer.
void store_u64(uint8_t* p, uint64_t value) {
    for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(value >> (8 * i));
}
uint16_t load_u16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t load_u32(const uint8_t* p) {
    uint32_t value = 0;
    for (int i = 3; i >= 0; --i) value = (value << 8) | p[i];
    return value;
}
uint64_t load_u64(const uint8_t* p) {
    uint64_t value = 0;
    for (int i = 7; i >= 0; --i) value = (value << 8) | p[i];
    return value;
}

uint32_t float_bits(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}
float bits_float(uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

// Names end up in error messages, JSON and the browser console, so they must
// be well-formed UTF-8 without control characters. A local check keeps this
// file independent of src/text.
bool is_valid_name(std::string_view name) {
    if (name.empty() || name.size() > kMaxNameLength) return false;
    size_t i = 0;
    while (i < name.size()) {
        const auto lead = static_cast<unsigned char>(name[i]);
        if (lead < 0x80) {
            if (lead < 0x20 || lead == 0x7F) return false;
            ++i;
            continue;
        }
        size_t length = 0;
        uint32_t code_point = 0;
        uint32_t minimum = 0;  // smallest code point that needs `length` bytes: rejects overlong forms
        if ((lead & 0xE0) == 0xC0) {
            length = 2;
            code_point = lead & 0x1F;
            minimum = 0x80;
        } else if ((lead & 0xF0) == 0xE0) {
            length = 3;
            code_point = lead & 0x0F;
            minimum = 0x800;
        } else if ((lead & 0xF8) == 0xF0) {
            length = 4;
            code_point = lead & 0x07;
            minimum = 0x10000;
        } else {
            return false;
        }
        if (length > name.size() - i) return false;
        for (size_t k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(name[i + k]);
            if ((next & 0xC0) != 0x80) return false;
            code_point = (code_point << 6) | (next & 0x3F);
        }
        if (code_point < minimum || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF)) {
            return false;
        }
        i += length;
    }
    return true;
}

std::string in_quotes(std::string_view name) { return "'" + std::string(name) + "'"; }

// The deepest nesting of arrays and objects, ignoring brackets inside
// strings. Run on the raw bytes before parsing so that depth is bounded
// before any recursive nlohmann code sees the value.
int json_nesting_depth(const char* text, size_t size) {
    int depth = 0;
    int deepest = 0;
    bool in_string = false;
    bool escaped = false;
    for (size_t i = 0; i < size; ++i) {
        const char c = text[i];
        if (in_string) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                in_string = false;
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

[[noreturn]] void throw_truncated(const std::string& what, uint64_t begin, uint64_t length, size_t file_size) {
    std::string range;
    if (length <= std::numeric_limits<uint64_t>::max() - begin) {
        range = "bytes " + std::to_string(begin) + ".." + std::to_string(begin + length);
    } else {
        range = std::to_string(length) + " bytes from offset " + std::to_string(begin);
    }
    throw ModelFileError("model file is truncated: " + what + " needs " + range + " but the file has " +
                         std::to_string(file_size) + " bytes; " + kReDownload);
}

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

using TableEntry = TensorLayout;

uint32_t check_magic_and_version(Reader& reader, const uint8_t* bytes, size_t size) {
    if (size == 0) throw ModelFileError(std::string("model file is empty (0 bytes); ") + kReDownload);
    // A prefix of the magic is a cut-off model file; anything else is some
    // other kind of file, which deserves the clearer message.
    const size_t compared = std::min(size, sizeof kModelMagic);
    if (std::memcmp(bytes, kModelMagic, compared) != 0) {
        throw ModelFileError(
            "not a seq2seq-attention model file (bad magic); expected a .s2s file made by `seq2seq train`");
    }
    reader.take(sizeof kModelMagic, "the magic \"S2SMODEL\"");
    const uint32_t version = reader.u32("the format version");
    if (version > kModelFormatVersion) {
        throw ModelFileError("model file has format version " + std::to_string(version) +
                             ", but this build of seq2seq-attention reads format version " +
                             std::to_string(kModelFormatVersion) +
                             "; upgrade the seq2seq-attention package to load it");
    }
    if (version < kOldestModelFormatVersion) {
        throw ModelFileError("model file has format version " + std::to_string(version) +
                             ", which no release of seq2seq-attention writes (this build reads format versions " +
                             std::to_string(kOldestModelFormatVersion) + " to " +
                             std::to_string(kModelFormatVersion) + "); " + kDamaged);
    }
    return version;
}

nlohmann::json read_header(Reader& reader) {
    const uint32_t header_size = reader.u32("the header size");
    const auto* text = reinterpret_cast<const char*>(
        reader.take(header_size, "the JSON header (" + std::to_string(header_size) + " bytes)"));
    if (json_nesting_depth(text, header_size) > kMaxHeaderDepth) {
        throw ModelFileError("model file header JSON is nested more than " + std::to_string(kMaxHeaderDepth) +
                             " levels deep; " + kDamaged);
    }
    nlohmann::json header;
    try {
        header = nlohmann::json::parse(text, text + header_size);
    } catch (const nlohmann::json::exception& error) {
        throw ModelFileError(std::string("model file header is not valid JSON: ") + error.what() + "; " + kDamaged);
    }
    if (!header.is_object()) {
        throw ModelFileError(std::string("model file header must be a JSON object, but it is ") +
                             header.type_name() + "; " + kDamaged);
    }
    return header;
}

TableEntry read_table_entry(Reader& reader, uint32_t version, uint32_t index, std::unordered_set<std::string>& seen) {
    const std::string where = "tensor table entry " + std::to_string(index + 1);
    TableEntry entry;
    const uint32_t name_length = reader.u32(where + " (name length)");
    if (name_length == 0) throw ModelFileError("model file " + where + " has an empty name; " + kDamaged);
    if (name_length > kMaxNameLength) {
        throw ModelFileError("model file " + where + " has a name of " + std::to_string(name_length) +
                             " bytes, but names are at most " + std::to_string(kMaxNameLength) + " bytes; " +
                             kDamaged);
    }
    const uint8_t* name = reader.take(name_length, where + " (name)");
    entry.name.assign(reinterpret_cast<const char*>(name), name_length);
    if (!is_valid_name(entry.name)) {
        throw ModelFileError("model file " + where +
                             " has a name that is not valid UTF-8 or contains control characters; " + kDamaged);
    }
    if (!seen.insert(entry.name).second) {
        throw ModelFileError("model file has two tensors named " + in_quotes(entry.name) + "; " + kDamaged);
    }
    const std::string tensor = "tensor " + in_quotes(entry.name);

    const uint32_t dtype = reader.u32(tensor + " (dtype)");
    if (!is_known_dtype(dtype)) {
        throw ModelFileError("model file " + tensor + " has unknown dtype " + std::to_string(dtype) +
                             " (known: 0 = float32, 1 = float16, 2 = int8); " + kDamaged);
    }
    if (dtype == static_cast<uint32_t>(TensorDtype::kInt8) && version < 2) {
        throw ModelFileError("model file " + tensor + " has dtype 2 (int8), which format version " +
                             std::to_string(version) + " does not have; " + kDamaged);
    }
    entry.dtype = static_cast<TensorDtype>(dtype);
    entry.rows = reader.u32(tensor + " (rows)");
    entry.cols = reader.u32(tensor + " (cols)");
    entry.offset = reader.u64(tensor + " (offset)");
    entry.byte_size = reader.u64(tensor + " (byte size)");

    const std::string shape = std::to_string(entry.rows) + " x " + std::to_string(entry.cols);
    // LoadedTensor keeps its shape in int.
    if (entry.rows > static_cast<uint32_t>(INT_MAX) || entry.cols > static_cast<uint32_t>(INT_MAX)) {
        throw ModelFileError("model file " + tensor + " has shape " + shape + ", larger than this build supports; " +
                             kDamaged);
    }
    uint64_t expected = 0;
    if (!tensor_byte_size(entry.dtype, entry.rows, entry.cols, expected)) {
        throw ModelFileError("model file " + tensor + " has shape " + shape + ", too large to address; " + kDamaged);
    }
    if (entry.byte_size != expected) {
        throw ModelFileError("model file " + tensor + " records " + std::to_string(entry.byte_size) +
                             " bytes, but " + shape + " " + dtype_name(entry.dtype) + " values take " +
                             std::to_string(expected) + " bytes" +
                             (entry.dtype == TensorDtype::kInt8 ? " (with one float32 scale per row)" : "") + "; " +
                             kDamaged);
    }
    return entry;
}

void check_tensor_placement(const std::vector<TableEntry>& entries, size_t data_start, size_t size) {
    uint64_t previous_end = data_start;
    const TableEntry* previous = nullptr;
    for (const TableEntry& entry : entries) {
        const std::string tensor = "tensor " + in_quotes(entry.name);
        if (entry.offset % kTensorAlignment != 0) {
            throw ModelFileError("model file " + tensor + " starts at offset " + std::to_string(entry.offset) +
                                 ", which is not a multiple of " + std::to_string(kTensorAlignment) + "; " + kDamaged);
        }
        if (entry.offset < data_start) {
            throw ModelFileError("model file " + tensor + " starts at offset " + std::to_string(entry.offset) +
                                 ", inside the header and tensor table (which end at " + std::to_string(data_start) +
                                 "); " + kDamaged);
        }
        if (entry.offset < previous_end) {
            throw ModelFileError("model file " + tensor + " starts at offset " + std::to_string(entry.offset) +
                                 ", before the end of tensor " + in_quotes(previous->name) + " (" +
                                 std::to_string(previous_end) +
                                 "); tensors must be stored in table order without overlap; " + kDamaged);
        }
        if (entry.offset > size || entry.byte_size > size - entry.offset) {
            throw_truncated(tensor, entry.offset, entry.byte_size, size);
        }
        previous_end = entry.offset + entry.byte_size;
        previous = &entry;
    }
    if (previous_end < size) {
        throw ModelFileError("model file has " + std::to_string(size - previous_end) +
                             " unexpected bytes after the last tensor (which ends at " + std::to_string(previous_end) +
                             "); " + kDamaged);
    }
}

void check_padding(const uint8_t* bytes, const std::vector<TableEntry>& entries, size_t data_start) {
    uint64_t gap_start = data_start;
    for (const TableEntry& entry : entries) {
        for (uint64_t i = gap_start; i < entry.offset; ++i) {
            if (bytes[i] != 0) {
                throw ModelFileError("model file has a nonzero padding byte at offset " + std::to_string(i) + "; " +
                                     kDamaged);
            }
        }
        gap_start = entry.offset + entry.byte_size;
    }
}

// The value decoders work a row at a time in small functions that are not
// inlined: in WASM a browser first runs code from a quick baseline compiler
// and swaps in optimized code only between calls, so one call per row lets
// the optimized code take over after the first rows of a large tensor.
// The float decoders return the column of the first value they refuse, or `cols`.
[[gnu::noinline]] size_t decode_row_f32(const uint8_t* source, size_t cols, float* out, size_t stride) {
    for (size_t col = 0; col < cols; ++col) {
        const uint32_t bits = load_u32(source + 4 * col);
        if ((bits & 0x7F800000) == 0x7F800000) return col;
        out[col * stride] = bits_float(bits);
    }
    return cols;
}
[[gnu::noinline]] size_t decode_row_f16(const uint8_t* source, size_t cols, float* out, size_t stride) {
    for (size_t col = 0; col < cols; ++col) {
        const uint16_t half = load_u16(source + 2 * col);
        if ((half & 0x7C00) == 0x7C00) return col;
        out[col * stride] = half_to_float(half);
    }
    return cols;
}
[[gnu::noinline]] void decode_row_i8(const int8_t* source, float scale, size_t cols, float* out) {
    for (size_t col = 0; col < cols; ++col) out[col] = static_cast<float>(source[col]) * scale;
}
// int8 into a column-major matrix, `tile_rows` file rows at a time: a file
// row is strided in the matrix, so decoding row by row sent every value to
// another cache line (the largest cost of loading a model in a cold page).
// Tile by tile, each column's values land together. The values were checked
// beforehand (no -128).
[[gnu::noinline]] void decode_tile_i8(const int8_t* source, const float* scales, size_t tile_rows, size_t cols,
                                      float* out, size_t rows) {
    for (size_t col = 0; col < cols; ++col) {
        float* column = out + col * rows;
        for (size_t r = 0; r < tile_rows; ++r) column[r] = static_cast<float>(source[r * cols + col]) * scales[r];
    }
}

}  // namespace

const int8_t* int8_tensor_values(const uint8_t* bytes, const TensorLayout& entry, float* scales) {
    const uint8_t* source = bytes + entry.offset;
    for (size_t row = 0; row < entry.rows; ++row) scales[row] = bits_float(load_u32(source + 4 * row));
    return reinterpret_cast<const int8_t*>(source + 4 * static_cast<size_t>(entry.rows));
}

void check_int8_tensor(const uint8_t* bytes, const TensorLayout& entry) {
    const std::string tensor = "model file tensor " + in_quotes(entry.name);
    const size_t rows = entry.rows, cols = entry.cols;
    std::vector<float> scales(rows);
    const auto* values = int8_tensor_values(bytes, entry, scales.data());  // the row scales come first
    for (size_t row = 0; row < rows; ++row) {
        if (!(scales[row] >= 0.0f && scales[row] <= kMaxInt8Scale)) {  // also refuses NaN
            throw ModelFileError(tensor + " has int8 scale " + std::to_string(scales[row]) + " for row " +
                                 std::to_string(row) + "; scales are finite, at least 0 and at most " +
                                 std::to_string(kMaxInt8Scale) + "; " + kDamaged);
        }
    }
    if (const void* found = std::memchr(values, 0x80, rows * cols)) {
        const auto at = static_cast<size_t>(static_cast<const int8_t*>(found) - values);
        throw ModelFileError(tensor + " holds int8 value -128 at row " + std::to_string(at / cols) + ", column " +
                             std::to_string(at % cols) + "; values are -127 to 127; " + kDamaged);
    }
}

void decode_tensor_values(const uint8_t* bytes, const TensorLayout& entry, float* out, bool column_major) {
    const std::string tensor = "model file tensor " + in_quotes(entry.name);
    const size_t rows = entry.rows, cols = entry.cols;
    const uint8_t* source = bytes + entry.offset;
    if (entry.dtype == TensorDtype::kInt8) {
        check_int8_tensor(bytes, entry);
        std::vector<float> scales(rows);
        const auto* values = int8_tensor_values(bytes, entry, scales.data());
        if (!column_major) {
            for (size_t row = 0; row < rows; ++row) decode_row_i8(values + row * cols, scales[row], cols, out + row * cols);
            return;
        }
        constexpr size_t kTile = 16;
        for (size_t row = 0; row < rows; row += kTile) {
            decode_tile_i8(values + row * cols, scales.data() + row, std::min(kTile, rows - row), cols, out + row, rows);
        }
        return;
    }
    for (size_t row = 0; row < rows; ++row) {
        float* destination = column_major ? out + row : out + row * cols;
        const size_t stride = column_major ? rows : 1;
        size_t bad = cols;
        switch (entry.dtype) {
            case TensorDtype::kInt8: break;  // above
            case TensorDtype::kFloat16: bad = decode_row_f16(source + 2 * row * cols, cols, destination, stride); break;
            case TensorDtype::kFloat32: bad = decode_row_f32(source + 4 * row * cols, cols, destination, stride); break;
        }
        if (bad < cols) {
            const bool nan = entry.dtype == TensorDtype::kFloat16
                                 ? (load_u16(source + 2 * (row * cols + bad)) & 0x03FF) != 0
                                 : (load_u32(source + 4 * (row * cols + bad)) & 0x007FFFFF) != 0;
            throw ModelFileError(tensor + " holds " + (nan ? "NaN" : "infinity") + " at row " + std::to_string(row) +
                                 ", column " + std::to_string(bad) + "; the model is unusable (training may have diverged)");
        }
    }
}

namespace {

LoadedTensor decode_tensor(const uint8_t* bytes, const TableEntry& entry) {
    const uint64_t count = static_cast<uint64_t>(entry.rows) * entry.cols;
    LoadedTensor tensor;
    tensor.name = entry.name;
    tensor.rows = static_cast<int>(entry.rows);
    tensor.cols = static_cast<int>(entry.cols);
    tensor.stored_dtype = entry.dtype;
    // Only reachable on 32-bit hosts (WASM), where float16 data near 1 GiB
    // would need more float32 memory than a size_t can count.
    if (count > tensor.data.max_size()) {
        throw ModelFileError("model file tensor " + in_quotes(entry.name) + " is too large for this build to load");
    }
    tensor.data.resize(static_cast<size_t>(count));
    decode_tensor_values(bytes, entry, tensor.data.data(), /*column_major=*/false);
    return tensor;
}

uint64_t align_up(uint64_t value) {
    return (value + kTensorAlignment - 1) / kTensorAlignment * kTensorAlignment;
}

// Caller mistakes (not user-fixable) are std::invalid_argument; values a
// user can produce by training a broken model are ModelFileError so the CLI
// reports them like any other model problem.
void check_tensor_to_write(const TensorToWrite& tensor, std::unordered_set<std::string>& seen) {
    if (!is_valid_name(tensor.name)) {
        throw std::invalid_argument("tensor name " + in_quotes(tensor.name) +
                                    " must be 1 to 256 bytes of UTF-8 without control characters");
    }
    if (!seen.insert(tensor.name).second) throw std::invalid_argument("two tensors named " + in_quotes(tensor.name));
    if (tensor.rows < 0 || tensor.cols < 0) {
        throw std::invalid_argument("tensor " + in_quotes(tensor.name) + " has a negative shape");
    }
    if (!is_known_dtype(static_cast<uint32_t>(tensor.dtype))) {
        throw std::invalid_argument("tensor " + in_quotes(tensor.name) + " has an unknown dtype");
    }
    if (tensor.int8_levels < 1 || tensor.int8_levels > kMaxInt8Levels) {
        throw std::invalid_argument("tensor " + in_quotes(tensor.name) + " has int8 levels outside 1..127");
    }
    const uint64_t count64 = static_cast<uint64_t>(tensor.rows) * static_cast<uint64_t>(tensor.cols);
    uint64_t bytes = 0;
    if (count64 > std::numeric_limits<size_t>::max() / sizeof(float) ||
        !tensor_byte_size(tensor.dtype, static_cast<uint64_t>(tensor.rows), static_cast<uint64_t>(tensor.cols), bytes)) {
        throw std::invalid_argument("tensor " + in_quotes(tensor.name) + " is too large to encode");
    }
    const auto count = static_cast<size_t>(count64);
    if (count > 0 && tensor.data == nullptr) {
        throw std::invalid_argument("tensor " + in_quotes(tensor.name) + " has no data");
    }
    // The loader refuses non-finite values, so writing them would produce a
    // file that cannot be opened again.
    for (size_t i = 0; i < count; ++i) {
        const float value = tensor.data[i];
        // int8 stores any finite float (beyond 127/128 of FLT_MAX it clamps).
        const bool representable = std::isfinite(value) &&
                                   (tensor.dtype != TensorDtype::kFloat16 || (float_to_half(value) & 0x7C00) != 0x7C00);
        if (!representable) {
            const std::string where = " at row " + std::to_string(i / static_cast<size_t>(tensor.cols)) +
                                      ", column " + std::to_string(i % static_cast<size_t>(tensor.cols));
            if (!std::isfinite(value)) {
                throw ModelFileError("cannot save the model: tensor " + in_quotes(tensor.name) + " holds " +
                                     (std::isnan(value) ? "NaN" : "infinity") + where +
                                     " (training may have diverged)");
            }
            throw ModelFileError("cannot save the model: tensor " + in_quotes(tensor.name) + " holds " +
                                 std::to_string(value) + where +
                                 ", outside the float16 range (at most 65504 in magnitude); store it as float32");
        }
    }
}

}  // namespace

const char* dtype_short_name(TensorDtype dtype) { return dtype_names(dtype).short_name; }

bool parse_dtype(const std::string& name, TensorDtype& dtype) {
    for (const DtypeNames& names : kDtypeNames) {
        if (name == names.short_name) {
            dtype = names.dtype;
            return true;
        }
    }
    return false;
}

uint16_t float_to_half(float value) {
    const uint32_t bits = float_bits(value);
    const auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
    const uint32_t exponent = (bits >> 23) & 0xFF;
    const uint32_t mantissa = bits & 0x7FFFFF;

    if (exponent == 0xFF) {
        if (mantissa == 0) return static_cast<uint16_t>(sign | 0x7C00);
        // Keep the top payload bits and force the quiet bit so that a NaN
        // whose payload lives only in the low bits does not become infinity.
        return static_cast<uint16_t>(sign | 0x7C00 | 0x0200 | (mantissa >> 13));
    }
    const int unbiased = static_cast<int>(exponent) - 127;
    if (unbiased > 15) return static_cast<uint16_t>(sign | 0x7C00);

    if (unbiased >= -14) {
        uint32_t half = (static_cast<uint32_t>(unbiased + 15) << 10) | (mantissa >> 13);
        const uint32_t rest = mantissa & 0x1FFF;
        // A carry out of the mantissa correctly bumps the exponent, and from
        // the largest finite value on to infinity (0x7C00).
        if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;
        return static_cast<uint16_t>(sign | half);
    }

    // Below the normal range: the result is a half subnormal, a count of
    // 2^-24 units. The float (with its implicit bit) is full * 2^(unbiased-23),
    // i.e. full * 2^(unbiased+1) units, so shift right by -(unbiased+1) >= 14.
    const int shift = -(unbiased + 1);
    if (shift > 24) return sign;  // below half of the smallest subnormal (also float zeros and subnormals)
    const uint32_t full = mantissa | 0x800000;
    uint32_t half = full >> shift;
    const uint32_t rest = full & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1))) ++half;  // may round up to the smallest normal
    return static_cast<uint16_t>(sign | half);
}

float half_to_float(uint16_t value) {
    const uint32_t sign = static_cast<uint32_t>(value & 0x8000) << 16;
    const uint32_t exponent = (value >> 10) & 0x1F;
    uint32_t mantissa = value & 0x3FF;

    if (exponent == 0x1F) return bits_float(sign | 0x7F800000 | (mantissa << 13));
    if (exponent != 0) return bits_float(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
    if (mantissa == 0) return bits_float(sign);
    // Every half subnormal is a normal float: move the leading one up to the
    // implicit bit position and lower the exponent to match.
    int unbiased = -14;
    while ((mantissa & 0x400) == 0) {
        mantissa <<= 1;
        --unbiased;
    }
    mantissa &= 0x3FF;
    return bits_float(sign | (static_cast<uint32_t>(unbiased + 127) << 23) | (mantissa << 13));
}

std::vector<uint8_t> encode_model_file(const nlohmann::json& header, const std::vector<TensorToWrite>& tensors) {
    if (!header.is_object()) throw std::invalid_argument("the model file header must be a JSON object");
    std::string header_text;
    try {
        header_text = header.dump();
    } catch (const nlohmann::json::exception& error) {
        throw std::invalid_argument(std::string("the model file header cannot be written: ") + error.what());
    }
    if (json_nesting_depth(header_text.data(), header_text.size()) > kMaxHeaderDepth) {
        throw std::invalid_argument("the model file header is nested more than " + std::to_string(kMaxHeaderDepth) +
                                    " levels deep");
    }
    if (header_text.size() > std::numeric_limits<uint32_t>::max() ||
        tensors.size() > std::numeric_limits<uint32_t>::max()) {
        throw std::invalid_argument("the model file header or tensor table is too large");
    }
    std::unordered_set<std::string> seen;
    for (const TensorToWrite& tensor : tensors) check_tensor_to_write(tensor, seen);

    uint64_t data_start = kPreambleSize + header_text.size() + 4 + kChecksumSize;
    for (const TensorToWrite& tensor : tensors) data_start += kTableEntryFixedSize + tensor.name.size();
    std::vector<uint64_t> offsets;
    std::vector<uint64_t> byte_sizes;
    uint64_t end = data_start;
    for (const TensorToWrite& tensor : tensors) {
        const uint64_t offset = align_up(end);
        uint64_t byte_size = 0;
        tensor_byte_size(tensor.dtype, static_cast<uint64_t>(tensor.rows), static_cast<uint64_t>(tensor.cols),
                         byte_size);  // checked above
        offsets.push_back(offset);
        byte_sizes.push_back(byte_size);
        end = offset + byte_size;
    }
    if (end > std::numeric_limits<size_t>::max()) throw std::invalid_argument("the model is too large to encode");

    // Sized up front: every padding byte is already zero and each field is
    // stored at a position the layout above has fixed.
    std::vector<uint8_t> out(static_cast<size_t>(end), 0);
    Writer writer(out.data());
    // Version 1 unless int8 needs 2: files without int8 stay readable by
    // every release.
    const bool has_int8 = std::any_of(tensors.begin(), tensors.end(),
                                      [](const TensorToWrite& t) { return t.dtype == TensorDtype::kInt8; });
    writer.bytes(kModelMagic, sizeof kModelMagic);
    writer.u32(has_int8 ? kModelFormatVersion : kOldestModelFormatVersion);
    writer.u32(static_cast<uint32_t>(header_text.size()));
    writer.bytes(header_text.data(), header_text.size());
    writer.u32(static_cast<uint32_t>(tensors.size()));
    for (size_t t = 0; t < tensors.size(); ++t) {
        const TensorToWrite& tensor = tensors[t];
        writer.u32(static_cast<uint32_t>(tensor.name.size()));
        writer.bytes(tensor.name.data(), tensor.name.size());
        writer.u32(static_cast<uint32_t>(tensor.dtype));
        writer.u32(static_cast<uint32_t>(tensor.rows));
        writer.u32(static_cast<uint32_t>(tensor.cols));
        writer.u64(offsets[t]);
        writer.u64(byte_sizes[t]);
    }
    const size_t checksum_position = writer.position();

    for (size_t t = 0; t < tensors.size(); ++t) {
        const TensorToWrite& tensor = tensors[t];
        writer.seek(static_cast<size_t>(offsets[t]));
        const size_t count = static_cast<size_t>(tensor.rows) * static_cast<size_t>(tensor.cols);
        if (tensor.dtype == TensorDtype::kInt8) {
            const auto cols = static_cast<size_t>(tensor.cols);
            std::vector<float> scales(static_cast<size_t>(tensor.rows));
            for (size_t row = 0; row < scales.size(); ++row) {
                scales[row] = int8_row_scale(tensor.data + row * cols, cols, tensor.int8_levels);
                writer.u32(float_bits(scales[row]));
            }
            for (size_t i = 0; i < count; ++i) {
                const int8_t q = quantize_int8(tensor.data[i], scales[i / cols], tensor.int8_levels);
                const auto byte = static_cast<uint8_t>(q);
                writer.bytes(&byte, 1);
            }
            continue;
        }
        for (size_t i = 0; i < count; ++i) {
            if (tensor.dtype == TensorDtype::kFloat16) {
                writer.u16(float_to_half(tensor.data[i]));
            } else {
                writer.u32(float_bits(tensor.data[i]));
            }
        }
    }

    const uint64_t checksum =
        tensors.empty() ? fnv1a64(nullptr, 0) : fnv1a64(out.data() + offsets[0], out.size() - offsets[0]);
    store_u64(out.data() + checksum_position, checksum);
    return out;
}

ModelFileLayout read_model_layout(const uint8_t* bytes, size_t size) {
    Reader reader(bytes, size);
    const uint32_t version = check_magic_and_version(reader, bytes, size);

    ModelFileLayout layout;
    layout.header = read_header(reader);

    const uint32_t table_count = reader.u32("the tensor count");
    const uint64_t table_minimum = static_cast<uint64_t>(table_count) * kTableEntryFixedSize + kChecksumSize;
    reader.require(table_minimum, "the tensor table (" + std::to_string(table_count) + " entries)");
    std::vector<TableEntry>& entries = layout.tensors;
    entries.reserve(table_count);
    std::unordered_set<std::string> seen;
    for (uint32_t i = 0; i < table_count; ++i) entries.push_back(read_table_entry(reader, version, i, seen));
    const uint64_t recorded_checksum = reader.u64("the data checksum");
    const size_t data_start = reader.position();

    check_tensor_placement(entries, data_start, size);

    const size_t checked_from = entries.empty() ? size : static_cast<size_t>(entries.front().offset);
    const uint64_t actual_checksum = fnv1a64(bytes + checked_from, size - checked_from);
    if (actual_checksum != recorded_checksum) {
        throw ModelFileError("model file checksum mismatch: the tensor data hashes to 0x" + to_hex64(actual_checksum) +
                             " but the file records 0x" + to_hex64(recorded_checksum) + "; " + kDamaged);
    }
    check_padding(bytes, entries, data_start);
    return layout;
}

ModelFileContents decode_model_file(const uint8_t* bytes, size_t size) {
    ModelFileLayout layout = read_model_layout(bytes, size);
    ModelFileContents contents;
    contents.header = std::move(layout.header);
    contents.tensors.reserve(layout.tensors.size());
    for (const TableEntry& entry : layout.tensors) contents.tensors.push_back(decode_tensor(bytes, entry));
    return contents;
}

void write_model_file(const std::string& path, const nlohmann::json& header, const std::vector<TensorToWrite>& tensors) {
    // Encode first so that a bad model never leaves a partial file behind.
    const std::vector<uint8_t> bytes = encode_model_file(header, tensors);
    const std::string temporary = path + ".tmp";
    std::FILE* file = std::fopen(temporary.c_str(), "wb");
    if (file == nullptr) {
        throw IoError("cannot write model file " + temporary + ": " + std::strerror(errno));
    }
    int error = 0;
    errno = 0;  // so a short write without an errno is not blamed on an older failure
    if (std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size()) error = errno ? errno : EIO;
    if (std::fflush(file) != 0 && error == 0) error = errno ? errno : EIO;
    if (std::fclose(file) != 0 && error == 0) error = errno ? errno : EIO;
    if (error != 0) {
        std::remove(temporary.c_str());
        throw IoError("cannot write model file " + temporary + ": " + std::strerror(error));
    }
    // std::filesystem::rename replaces an existing file on every platform
    // (std::rename does not on Windows), which is what makes the save atomic.
    std::error_code rename_error;
    std::filesystem::rename(temporary, path, rename_error);
    if (rename_error) {
        std::remove(temporary.c_str());
        throw IoError("cannot write model file " + path + " (renaming " + temporary + "): " + rename_error.message());
    }
}

std::vector<uint8_t> read_file_bytes(const std::string& path) {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) throw IoError("cannot open model file " + path + ": " + std::strerror(errno));
    // Read to end of file rather than trusting a size from ftell/stat, which
    // pipes and some virtual files do not report. Chunks go straight into the
    // vector: a large stack buffer would not fit the WASM stack.
    constexpr size_t kChunk = size_t{1} << 16;
    std::vector<uint8_t> bytes;
    errno = 0;
    while (true) {
        const size_t before = bytes.size();
        bytes.resize(before + kChunk);
        const size_t got = std::fread(bytes.data() + before, 1, kChunk, file);
        bytes.resize(before + got);
        if (got < kChunk) break;
    }
    const int error = std::ferror(file) ? (errno ? errno : EIO) : 0;
    std::fclose(file);
    if (error != 0) throw IoError("cannot read model file " + path + ": " + std::strerror(error));
    return bytes;
}

ModelFileContents read_model_file(const std::string& path) {
    const std::vector<uint8_t> bytes = read_file_bytes(path);
    try {
        return decode_model_file(bytes.data(), bytes.size());
    } catch (const ModelFileError& problem) {
        throw ModelFileError(path + ": " + problem.what());
    }
}

}  // namespace s2s
