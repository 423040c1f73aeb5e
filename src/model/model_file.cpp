// The model file (model_file.h): encoding a model's header and tensors into
// the bytes of a .s2s file (format version 3) and decoding them back (every
// version), and reading and writing the file. The checks of the structure
// are in model_file_checks.cpp, the tensor values' encodings in
// model_file_values.cpp.
#include "model/model_file.h"

#include "common/error.h"
#include "common/hash.h"
#include "model/model_file_internal.h"

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

std::vector<TensorLayout> read_table(Reader& reader, uint32_t version) {
    const uint32_t table_count = reader.u32("the tensor count");
    // Every version has a checksum after the entries (at the end of the file from version 3 on).
    const uint64_t table_minimum = static_cast<uint64_t>(table_count) * kTableEntryFixedSize + kChecksumSize;
    reader.require(table_minimum, "the tensor table (" + std::to_string(table_count) + " entries)");
    std::vector<TensorLayout> entries;
    entries.reserve(table_count);
    std::unordered_set<std::string> seen;
    for (uint32_t i = 0; i < table_count; ++i) entries.push_back(read_table_entry(reader, version, i, seen));
    return entries;
}

// Format versions 1 and 2: the checksum after the table covers the tensor
// data only; the checks run in the order they always have.
ModelFileLayout read_layout_checked_data(Reader& reader, uint32_t version, const uint8_t* bytes, size_t size,
                                         bool separate_vocabularies) {
    ModelFileLayout layout;
    read_header_into(layout, read_header_text(reader), separate_vocabularies);
    layout.tensors = read_table(reader, version);
    const std::vector<TensorLayout>& entries = layout.tensors;
    const uint64_t recorded_checksum = reader.u64("the data checksum");
    const size_t data_start = reader.position();

    check_nothing_after_tensors(check_tensor_placement(entries, data_start, size), size);

    const size_t checked_from = entries.empty() ? size : static_cast<size_t>(entries.front().offset);
    const uint64_t actual_checksum = fnv1a64(bytes + checked_from, size - checked_from);
    if (actual_checksum != recorded_checksum) {
        throw ModelFileError("model file checksum mismatch: the tensor data hashes to 0x" + to_hex64(actual_checksum) +
                             " but the file records 0x" + to_hex64(recorded_checksum) + "; " + kDamaged);
    }
    check_padding(bytes, entries, data_start);
    return layout;
}

// Format version 3: the checksum covers every byte, so it decides what a
// failure is called. The structure is walked first, without parsing the
// header, for one reason: when the checksum differs and the file's length
// does not fit its own table, the message says the file is truncated (or
// has bytes after its end), which is the likely cause. Any other problem
// of a file whose checksum differs is reported as the checksum mismatch:
// the damage, not its consequence. The header is parsed only once the
// checksum matches.
ModelFileLayout read_layout_checked_whole(Reader& reader, const uint8_t* bytes, size_t size, bool separate_vocabularies) {
    const FileChecksum checksum = check_file_checksum(bytes, size);
    ModelFileLayout layout;
    std::string_view header_text;
    size_t data_start = 0;
    try {
        header_text = read_header_text(reader);
        layout.tensors = read_table(reader, kWholeFileChecksumVersion);
        data_start = reader.position();
        check_checksum_ends_file(check_tensor_placement(layout.tensors, data_start, size), size);
    } catch (const FileSizeError& error) {
        if (checksum != FileChecksum::kDiffers) throw;
        throw ModelFileError(error.problem + ", and its checksum does not match; " + error.fix);
    } catch (const ModelFileError&) {
        if (checksum != FileChecksum::kDiffers) throw;
        throw_checksum_mismatch(bytes, size);
    }
    // The walk needs the checksum's 8 bytes, so here it either matches or differs.
    if (checksum == FileChecksum::kDiffers) throw_checksum_mismatch(bytes, size);
    read_header_into(layout, header_text, separate_vocabularies);
    check_padding(bytes, layout.tensors, data_start);
    return layout;
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

    uint64_t data_start = kPreambleSize + header_text.size() + 4;
    for (const TensorToWrite& tensor : tensors) data_start += kTableEntryFixedSize + tensor.name.size();
    std::vector<uint64_t> offsets;
    std::vector<uint64_t> byte_sizes;
    uint64_t data_end = data_start;
    for (const TensorToWrite& tensor : tensors) {
        const uint64_t offset = align_up(data_end);
        uint64_t byte_size = 0;
        tensor_byte_size(tensor.dtype, static_cast<uint64_t>(tensor.rows), static_cast<uint64_t>(tensor.cols),
                         byte_size);  // checked above
        offsets.push_back(offset);
        byte_sizes.push_back(byte_size);
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
    for (size_t t = 0; t < tensors.size(); ++t) encode_tensor_values(tensors[t], out.data() + offsets[t]);

    const auto covered = static_cast<size_t>(data_end);
    store_u64(out.data() + covered, word_hash64(out.data(), covered));
    return out;
}

ModelFileLayout read_model_layout(const uint8_t* bytes, size_t size, bool separate_vocabularies) {
    Reader reader(bytes, size);
    const uint32_t version = check_magic_and_version(reader, bytes, size);
    if (version >= kWholeFileChecksumVersion) return read_layout_checked_whole(reader, bytes, size, separate_vocabularies);
    try {
        return read_layout_checked_data(reader, version, bytes, size, separate_vocabularies);
    } catch (const ModelFileError&) {
        // A version 3 file whose version field was damaged to 1 or 2 fails
        // as an older file; say what happened instead. (Never true of a real
        // version 1 or 2 file, whose messages stay as they were.)
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
