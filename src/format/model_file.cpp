// The model file (model_file.h): encoding a model's header, tensors and
// records into the bytes of a .s2s file (format version 4) and decoding
// them back (every version: versions 1 and 2 through legacy.cpp), and
// reading and writing the file. The checks of the structure are in
// model_file_checks.cpp, the tensor values' encodings in
// model_file_values.cpp, the records of strings and uint16 values in
// model_file_strings.cpp.
#include "format/model_file.h"

#include "common/error.h"
#include "common/hash.h"
#include "format/model_file_internal.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <unordered_set>

namespace s2s {

using namespace model_file_detail;

namespace {

uint64_t align_up(uint64_t value) {
    return (value + kTensorAlignment - 1) / kTensorAlignment * kTensorAlignment;
}

LoadedTensor decode_tensor(const uint8_t* bytes, const TensorLayout& entry) {
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

}  // namespace

namespace model_file_detail {

std::vector<TableEntry> read_table(Reader& reader, uint32_t version) {
    const uint32_t table_count = reader.u32("the tensor count");
    // Every version has a checksum after the entries (at the end of the file from version 3 on).
    const uint64_t table_minimum = static_cast<uint64_t>(table_count) * kTableEntryFixedSize + kChecksumSize;
    reader.require(table_minimum, "the tensor table (" + std::to_string(table_count) + " entries)");
    std::vector<TableEntry> entries;
    entries.reserve(table_count);
    std::unordered_set<std::string> seen;
    for (uint32_t i = 0; i < table_count; ++i) entries.push_back(read_table_entry(reader, version, i, seen));
    return entries;
}

// The entries as the layout gives them: tensors and records apart, each in
// file order.
void split_entries(std::vector<TableEntry>& entries, ModelFileLayout& layout) {
    for (TableEntry& entry : entries) {
        if (entry.is_tensor()) {
            layout.tensors.push_back({std::move(entry.name), static_cast<TensorDtype>(entry.dtype), entry.rows,
                                      entry.cols, entry.offset, entry.byte_size});
        } else {
            layout.records.push_back({std::move(entry.name), static_cast<RecordDtype>(entry.dtype), entry.rows,
                                      entry.cols, entry.offset, entry.byte_size});
        }
    }
}

}  // namespace model_file_detail

namespace {

// Format version 3 on: the checksum covers every byte, so it decides what
// a failure is called. The structure is walked first, without parsing the
// header, for one reason: when the checksum differs and the file's length
// does not fit its own table, the message says the file is truncated (or
// has bytes after its end), which is the likely cause. Any other problem
// of a file whose checksum differs is reported as the checksum mismatch:
// the damage, not its consequence. The header is parsed, and the inside of
// each record of strings checked, only once the checksum matches.
ModelFileLayout read_layout_checked_whole(Reader& reader, uint32_t version, const uint8_t* bytes, size_t size) {
    const FileChecksum checksum = check_file_checksum(bytes, size);
    ModelFileLayout layout;
    layout.version = version;
    std::string_view header_text;
    std::vector<TableEntry> entries;
    size_t data_start = 0;
    try {
        header_text = read_header_text(reader);
        entries = read_table(reader, version);
        data_start = reader.position();
        check_checksum_ends_file(check_placement(entries, data_start, size), size);
    } catch (const FileSizeError& error) {
        if (checksum != FileChecksum::kDiffers) throw;
        throw ModelFileError(error.problem + ", and its checksum does not match; " + error.fix);
    } catch (const ModelFileError&) {
        if (checksum != FileChecksum::kDiffers) throw;
        throw_checksum_mismatch(bytes, size);
    }
    // The walk needs the checksum's 8 bytes, so here it either matches or differs.
    if (checksum == FileChecksum::kDiffers) throw_checksum_mismatch(bytes, size);
    layout.header = parse_header(header_text);
    check_padding(bytes, entries, data_start);
    for (const TableEntry& entry : entries) {
        if (entry.dtype == static_cast<uint32_t>(RecordDtype::kStrings)) check_string_record(bytes, entry);
    }
    split_entries(entries, layout);
    return layout;
}

LoadedRecord decode_record(const uint8_t* bytes, const RecordLayout& record) {
    LoadedRecord loaded;
    loaded.name = record.name;
    loaded.dtype = record.dtype;
    loaded.rows = record.rows;
    loaded.cols = record.cols;
    if (record.dtype == RecordDtype::kStrings) {
        const StringTableView strings(bytes, record);
        loaded.strings.reserve(strings.size());
        for (size_t i = 0; i < strings.size(); ++i) loaded.strings.emplace_back(strings[i]);
    } else {
        loaded.values.resize(static_cast<size_t>(uint64_t{record.rows} * record.cols));
        for (size_t i = 0; i < loaded.values.size(); ++i) loaded.values[i] = uint16_record_value(bytes, record, i);
    }
    return loaded;
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

std::vector<uint8_t> encode_model_file(const nlohmann::json& header, const std::vector<TensorToWrite>& tensors,
                                       const std::vector<RecordToWrite>& records) {
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
        tensors.size() + records.size() > std::numeric_limits<uint32_t>::max()) {
        throw std::invalid_argument("the model file header or tensor table is too large");
    }
    std::unordered_set<std::string> seen;
    for (const TensorToWrite& tensor : tensors) check_tensor_to_write(tensor, seen);
    std::vector<uint64_t> byte_sizes;
    for (const TensorToWrite& tensor : tensors) {
        uint64_t byte_size = 0;
        tensor_byte_size(tensor.dtype, static_cast<uint64_t>(tensor.rows), static_cast<uint64_t>(tensor.cols),
                         byte_size);  // checked above
        byte_sizes.push_back(byte_size);
    }
    for (const RecordToWrite& record : records) byte_sizes.push_back(check_record_to_write(record, seen));

    uint64_t data_start = kPreambleSize + header_text.size() + 4;
    for (const TensorToWrite& tensor : tensors) data_start += kTableEntryFixedSize + tensor.name.size();
    for (const RecordToWrite& record : records) data_start += kTableEntryFixedSize + record.name.size();
    std::vector<uint64_t> offsets;
    uint64_t data_end = data_start;
    for (const uint64_t byte_size : byte_sizes) {
        const uint64_t offset = align_up(data_end);
        offsets.push_back(offset);
        data_end = offset + byte_size;
    }
    if (data_end > std::numeric_limits<size_t>::max() - kChecksumSize) {
        throw std::invalid_argument("the model is too large to encode");
    }

    // Sized up front: every padding byte is already zero and each field is
    // stored at a position the layout above has fixed.
    std::vector<uint8_t> out(static_cast<size_t>(data_end) + kChecksumSize, 0);
    Writer writer(out.data());
    writer.bytes(kModelMagic, sizeof kModelMagic);
    writer.u32(kModelFormatVersion);
    writer.u32(static_cast<uint32_t>(header_text.size()));
    writer.bytes(header_text.data(), header_text.size());
    writer.u32(static_cast<uint32_t>(tensors.size() + records.size()));
    const auto entry = [&](const std::string& name, uint32_t dtype, uint32_t rows, uint32_t cols, size_t index) {
        writer.u32(static_cast<uint32_t>(name.size()));
        writer.bytes(name.data(), name.size());
        writer.u32(dtype);
        writer.u32(rows);
        writer.u32(cols);
        writer.u64(offsets[index]);
        writer.u64(byte_sizes[index]);
    };
    for (size_t t = 0; t < tensors.size(); ++t) {
        const TensorToWrite& tensor = tensors[t];
        entry(tensor.name, static_cast<uint32_t>(tensor.dtype), static_cast<uint32_t>(tensor.rows),
              static_cast<uint32_t>(tensor.cols), t);
    }
    for (size_t r = 0; r < records.size(); ++r) {
        const RecordToWrite& record = records[r];
        const size_t index = tensors.size() + r;
        if (record.dtype == RecordDtype::kUint16) {
            entry(record.name, static_cast<uint32_t>(record.dtype), record.rows, record.cols, index);
            continue;
        }
        // A record of strings: rows = the strings, cols = the bytes of their
        // text, what the byte size holds besides the count and the offsets.
        const auto count = static_cast<uint32_t>(record.strings.size());
        const uint64_t text = byte_sizes[index] - 4 - 4 * (uint64_t{count} + 1);
        entry(record.name, static_cast<uint32_t>(record.dtype), count, static_cast<uint32_t>(text), index);
    }
    for (size_t t = 0; t < tensors.size(); ++t) encode_tensor_values(tensors[t], out.data() + offsets[t]);
    for (size_t r = 0; r < records.size(); ++r) encode_record(records[r], out.data() + offsets[tensors.size() + r]);

    const auto covered = static_cast<size_t>(data_end);
    store_u64(out.data() + covered, word_hash64(out.data(), covered));
    return out;
}

ModelFileLayout read_model_layout(const uint8_t* bytes, size_t size) {
    Reader reader(bytes, size);
    const uint32_t version = check_magic_and_version(reader, bytes, size);
    try {
        if (version >= kWholeFileChecksumVersion) return read_layout_checked_whole(reader, version, bytes, size);
        return read_layout_of_versions_1_and_2(reader, version, bytes, size);
    } catch (const ModelFileError&) {
        // A file of version 3 on whose version field was damaged to another
        // version fails as a file of that version; say what happened
        // instead. (Never true of an intact file of the version it reads,
        // whose messages stay as they were.)
        check_version_field_damage(bytes, size, version);
        throw;
    }
}

ModelFileContents decode_model_file(const uint8_t* bytes, size_t size) {
    ModelFileLayout layout = read_model_layout(bytes, size);
    ModelFileContents contents;
    contents.header = std::move(layout.header);
    contents.tensors.reserve(layout.tensors.size());
    for (const TensorLayout& entry : layout.tensors) contents.tensors.push_back(decode_tensor(bytes, entry));
    for (const RecordLayout& record : layout.records) contents.records.push_back(decode_record(bytes, record));
    return contents;
}

void write_model_file(const std::string& path, const nlohmann::json& header, const std::vector<TensorToWrite>& tensors,
                      const std::vector<RecordToWrite>& records) {
    // Encode first so that a bad model never leaves a partial file behind.
    const std::vector<uint8_t> bytes = encode_model_file(header, tensors, records);
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
