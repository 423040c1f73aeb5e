// The checks of a model file's structure (model_file.h): magic and version,
// the checksum over every byte (format version 3 on), the JSON header, each
// table entry, where the records lie, the padding between them and what
// follows the last; and on the writing side, the checks of the tensors a
// caller asks to store. Tensor values are checked as they are decoded
// (model_file_values.cpp), the inside of records of strings in
// model_file_strings.cpp.
//
// The decoder is a trust boundary: model files come from downloads and, in the
// browser, from whatever the user drops on the page. Every length is checked
// against the bytes that remain before it is used, so a hostile file can cost
// at most a few times its own size in memory and never a read out of bounds.
#include "format/model_file_internal.h"

#include "common/error.h"
#include "common/hash.h"
#include "format/float16.h"
#include "text/utf8.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <new>
#include <stdexcept>

namespace s2s::model_file_detail {

bool is_valid_tensor_name(std::string_view name) {
    if (name.empty() || name.size() > kMaxNameLength) return false;
    const bool has_control = std::any_of(name.begin(), name.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte < 0x20 || byte == 0x7F;
    });
    return !has_control && is_valid_utf8(name);
}

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
    throw FileSizeError("model file is truncated: " + what + " needs " + range + " but the file has " +
                            std::to_string(file_size) + " bytes",
                        kReDownload);
}

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
        const std::string newer = "model file has format version " + std::to_string(version) +
                                  ", but this build of seq2seq-attention reads format version " +
                                  std::to_string(kModelFormatVersion);
        // Every version from 3 on ends with the checksum, so a mismatch here
        // means damage (perhaps to the version field itself), not only age.
        if (check_file_checksum(bytes, size) == FileChecksum::kDiffers) {
            throw ModelFileError(newer + ", and its checksum does not match: the file is damaged or newer than this "
                                         "build; download or copy it again, or upgrade the seq2seq-attention package");
        }
        throw ModelFileError(newer + "; upgrade the seq2seq-attention package to load it");
    }
    if (version < kOldestModelFormatVersion) {
        check_version_field_damage(bytes, size, version);
        throw ModelFileError("model file has format version " + std::to_string(version) +
                             ", which no release of seq2seq-attention writes (this build reads format versions " +
                             std::to_string(kOldestModelFormatVersion) + " to " +
                             std::to_string(kModelFormatVersion) + "); " + kDamaged);
    }
    return version;
}

FileChecksum check_file_checksum(const uint8_t* bytes, size_t size) {
    if (size < kPreambleSize + kChecksumSize) return FileChecksum::kAbsent;
    const size_t covered = size - kChecksumSize;
    return word_hash64(bytes, covered) == load_u64(bytes + covered) ? FileChecksum::kMatches : FileChecksum::kDiffers;
}

[[noreturn]] void throw_checksum_mismatch(const uint8_t* bytes, size_t size) {
    const size_t covered = size - kChecksumSize;
    throw ModelFileError("model file checksum mismatch: its first " + std::to_string(covered) + " bytes hash to 0x" +
                         to_hex64(word_hash64(bytes, covered)) + " but its last 8 bytes record 0x" +
                         to_hex64(load_u64(bytes + covered)) + "; " + kDamaged);
}

void check_version_field_damage(const uint8_t* bytes, size_t size, uint32_t version) {
    if (size < kPreambleSize + kChecksumSize) return;
    // A copy with the version set to each one whose checksum covers every
    // byte (the hash has no way to skip four bytes). Only on the error path,
    // and only a diagnosis: without the memory for it, the older version's
    // own error stands.
    std::vector<uint8_t> repaired;
    try {
        repaired.assign(bytes, bytes + size);
    } catch (const std::bad_alloc&) {
        return;
    }
    for (uint32_t laid_out = kWholeFileChecksumVersion; laid_out <= kModelFormatVersion; ++laid_out) {
        if (laid_out == version) continue;
        for (int i = 0; i < 4; ++i) repaired[sizeof kModelMagic + i] = static_cast<uint8_t>(laid_out >> (8 * i));
        if (check_file_checksum(repaired.data(), size) != FileChecksum::kMatches) continue;
        throw ModelFileError("model file format version field is damaged: it reads " + std::to_string(version) +
                             ", but the file is laid out as version " + std::to_string(laid_out) +
                             " (its checksum matches only with " + std::to_string(laid_out) + "); " + kDamaged);
    }
}

std::string_view read_header_text(Reader& reader) {
    const uint32_t header_size = reader.u32("the header size");
    const uint8_t* text = reader.take(header_size, "the JSON header (" + std::to_string(header_size) + " bytes)");
    return {reinterpret_cast<const char*>(text), header_size};
}

nlohmann::json parse_header(std::string_view text) {
    if (json_nesting_depth(text.data(), text.size()) > kMaxHeaderDepth) {
        throw ModelFileError("model file header JSON is nested more than " + std::to_string(kMaxHeaderDepth) +
                             " levels deep; " + kDamaged);
    }
    nlohmann::json header;
    try {
        header = nlohmann::json::parse(text.data(), text.data() + text.size());
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
    if (!is_valid_tensor_name(entry.name)) {
        throw ModelFileError("model file " + where +
                             " has a name that is not valid UTF-8 or contains control characters; " + kDamaged);
    }
    if (!seen.insert(entry.name).second) {
        throw ModelFileError("model file has two records named " + in_quotes(entry.name) + "; " + kDamaged);
    }
    // Called a tensor until its dtype says otherwise (what every entry of
    // versions 1 to 3 is, and most of version 4).
    const std::string named = "tensor " + in_quotes(entry.name);

    entry.dtype = reader.u32(named + " (dtype)");
    const bool record = is_record_dtype(entry.dtype);
    if (!is_known_dtype(entry.dtype) && !record) {
        throw ModelFileError("model file " + named + " has unknown dtype " + std::to_string(entry.dtype) +
                             " (known: 0 = float32, 1 = float16, 2 = int8, 3 = strings, 4 = uint16); " + kDamaged);
    }
    if ((entry.dtype == static_cast<uint32_t>(TensorDtype::kInt8) && version < 2) ||
        (record && version < kStringRecordsVersion)) {
        const char* name_of_dtype = entry.dtype == 2 ? "int8" : entry.dtype == 3 ? "strings" : "uint16";
        throw ModelFileError("model file " + entry.label() + " has dtype " + std::to_string(entry.dtype) + " (" +
                             name_of_dtype + "), which format version " + std::to_string(version) +
                             " does not have; " + kDamaged);
    }
    const std::string labelled = entry.label();
    entry.rows = reader.u32(labelled + " (rows)");
    entry.cols = reader.u32(labelled + " (cols)");
    entry.offset = reader.u64(labelled + " (offset)");
    entry.byte_size = reader.u64(labelled + " (byte size)");

    const std::string shape = std::to_string(entry.rows) + " x " + std::to_string(entry.cols);
    if (record) {
        const auto dtype = static_cast<RecordDtype>(entry.dtype);
        uint64_t expected = 0;
        if (!record_byte_size(dtype, entry.rows, entry.cols, expected)) {
            throw ModelFileError("model file " + labelled + " has shape " + shape + ", too large to address; " + kDamaged);
        }
        if (entry.byte_size != expected) {
            const std::string holds = dtype == RecordDtype::kStrings
                                          ? std::to_string(entry.rows) + " strings of " + std::to_string(entry.cols) +
                                                " bytes (with a count and " + std::to_string(uint64_t{entry.rows} + 1) +
                                                " offsets) take "
                                          : shape + " uint16 values take ";
            throw ModelFileError("model file " + labelled + " records " + std::to_string(entry.byte_size) +
                                 " bytes, but " + holds + std::to_string(expected) + " bytes; " + kDamaged);
        }
        return entry;
    }
    const auto dtype = static_cast<TensorDtype>(entry.dtype);
    // LoadedTensor keeps its shape in int.
    if (entry.rows > static_cast<uint32_t>(INT_MAX) || entry.cols > static_cast<uint32_t>(INT_MAX)) {
        throw ModelFileError("model file " + labelled + " has shape " + shape + ", larger than this build supports; " +
                             kDamaged);
    }
    uint64_t expected = 0;
    if (!tensor_byte_size(dtype, entry.rows, entry.cols, expected)) {
        throw ModelFileError("model file " + labelled + " has shape " + shape + ", too large to address; " + kDamaged);
    }
    if (entry.byte_size != expected) {
        throw ModelFileError("model file " + labelled + " records " + std::to_string(entry.byte_size) +
                             " bytes, but " + shape + " " + dtype_name(dtype) + " values take " +
                             std::to_string(expected) + " bytes" +
                             (dtype == TensorDtype::kInt8 ? " (with one float32 scale per row)" : "") + "; " +
                             kDamaged);
    }
    return entry;
}

uint64_t check_placement(const std::vector<TableEntry>& entries, size_t data_start, size_t size) {
    uint64_t previous_end = data_start;
    const TableEntry* previous = nullptr;
    for (const TableEntry& entry : entries) {
        const std::string labelled = entry.label();
        if (entry.offset % kTensorAlignment != 0) {
            throw ModelFileError("model file " + labelled + " starts at offset " + std::to_string(entry.offset) +
                                 ", which is not a multiple of " + std::to_string(kTensorAlignment) + "; " + kDamaged);
        }
        if (entry.offset < data_start) {
            throw ModelFileError("model file " + labelled + " starts at offset " + std::to_string(entry.offset) +
                                 ", inside the header and tensor table (which end at " + std::to_string(data_start) +
                                 "); " + kDamaged);
        }
        if (entry.offset < previous_end) {
            throw ModelFileError("model file " + labelled + " starts at offset " + std::to_string(entry.offset) +
                                 ", before the end of " + previous->label() + " (" + std::to_string(previous_end) +
                                 "); records must be stored in table order without overlap; " + kDamaged);
        }
        if (entry.offset > size || entry.byte_size > size - entry.offset) {
            throw_truncated(labelled, entry.offset, entry.byte_size, size);
        }
        previous_end = entry.offset + entry.byte_size;
        previous = &entry;
    }
    return previous_end;
}

void check_checksum_ends_file(uint64_t data_end, size_t size) {
    if (data_end > size || kChecksumSize > size - data_end) throw_truncated("the checksum", data_end, kChecksumSize, size);
    const uint64_t file_end = data_end + kChecksumSize;
    if (file_end < size) {
        throw FileSizeError("model file has " + std::to_string(size - file_end) +
                                " unexpected bytes after its end (its checksum ends at byte " +
                                std::to_string(file_end) + ")",
                            kDamaged);
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

// Caller mistakes (not user-fixable) are std::invalid_argument; values a
// user can produce by training a broken model are ModelFileError so the CLI
// reports them like any other model problem.
void check_tensor_to_write(const TensorToWrite& tensor, std::unordered_set<std::string>& seen) {
    if (!is_valid_tensor_name(tensor.name)) {
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

}  // namespace s2s::model_file_detail
