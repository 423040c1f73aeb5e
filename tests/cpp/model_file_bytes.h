// Byte-level helpers for the model file tests (test_model_file.cpp,
// test_model_file_damage.cpp): a view of the layout written independently of
// the loader, so that a test can corrupt one field and re-seal the checksum,
// and small files to corrupt.
#pragma once

#include "format/model_file.h"

#include "common/error.h"
#include "common/hash.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace s2s::testing {

// Test-side view of the layout (version 3 on, or 1 and 2 with their
// checksum after the table), written independently of the loader so that
// tests can corrupt one field and then re-seal the checksum.
struct EntryFields {
    size_t name_length = 0, name = 0, dtype = 0, rows = 0, cols = 0, offset = 0, byte_size = 0;
    uint32_t name_size = 0;
};
struct Layout {
    size_t header = 16;
    uint32_t header_size = 0;
    size_t table_count = 0;
    std::vector<EntryFields> entries;
    size_t checksum = 0;    // version 3 on: the last 8 bytes
    size_t data_start = 0;  // where the table (and in versions 1 and 2 the checksum) ends
};

inline uint32_t get_u32(const std::vector<uint8_t>& b, size_t p) {
    return uint32_t(b[p]) | uint32_t(b[p + 1]) << 8 | uint32_t(b[p + 2]) << 16 | uint32_t(b[p + 3]) << 24;
}
inline uint64_t get_u64(const std::vector<uint8_t>& b, size_t p) { return get_u32(b, p) | uint64_t(get_u32(b, p + 4)) << 32; }
inline void set_u32(std::vector<uint8_t>& b, size_t p, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[p + i] = uint8_t(v >> (8 * i));
}
inline void set_u64(std::vector<uint8_t>& b, size_t p, uint64_t v) {
    for (int i = 0; i < 8; ++i) b[p + i] = uint8_t(v >> (8 * i));
}

inline Layout layout_of(const std::vector<uint8_t>& b) {
    Layout l;
    l.header_size = get_u32(b, 12);
    l.table_count = 16 + l.header_size;
    size_t p = l.table_count + 4;
    for (uint32_t i = 0; i < get_u32(b, l.table_count); ++i) {
        EntryFields e;
        e.name_length = p;
        e.name_size = get_u32(b, p);
        e.name = p + 4;
        p = e.name + e.name_size;
        e.dtype = p;
        e.rows = p + 4;
        e.cols = p + 8;
        e.offset = p + 12;
        e.byte_size = p + 20;
        p += 28;
        l.entries.push_back(e);
    }
    if (get_u32(b, 8) >= 3) {
        l.data_start = p;
        l.checksum = b.size() - 8;
    } else {
        l.checksum = p;
        l.data_start = p + 8;
    }
    return l;
}

inline uint64_t fnv1a(const std::vector<uint8_t>& b, size_t from) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = from; i < b.size(); ++i) h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

// Makes the checksum match again: that of version 3 on, over every byte before the
// last 8 (without walking the layout, so a damaged length field is fine),
// or the data checksum of versions 1 and 2.
inline void reseal(std::vector<uint8_t>& b) {
    if (get_u32(b, 8) >= 3) {
        set_u64(b, b.size() - 8, word_hash64(b.data(), b.size() - 8));
        return;
    }
    const Layout l = layout_of(b);
    const size_t from = l.entries.empty() ? b.size() : size_t(get_u64(b, l.entries[0].offset));
    set_u64(b, l.checksum, fnv1a(b, std::min(from, b.size())));
}

inline ModelFileContents decode(const std::vector<uint8_t>& b) { return decode_model_file(b.data(), b.size()); }

// The records of decoded contents as encode_model_file takes them again
// (views of `contents`, which must outlive them).
inline std::vector<RecordToWrite> records_to_rewrite(const ModelFileContents& contents) {
    std::vector<RecordToWrite> records;
    for (const LoadedRecord& loaded : contents.records) {
        RecordToWrite record;
        record.name = loaded.name;
        record.dtype = loaded.dtype;
        record.strings.assign(loaded.strings.begin(), loaded.strings.end());
        record.rows = loaded.rows;
        record.cols = loaded.cols;
        record.values = loaded.values.data();
        records.push_back(std::move(record));
    }
    return records;
}

inline std::string decode_error(const std::vector<uint8_t>& b) {
    try {
        decode(b);
    } catch (const ModelFileError& e) {
        return e.what();
    }
    return "(no error)";
}

inline uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline float from_bits(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

inline const nlohmann::json kHeader = {
    {"architecture", {{"type", "gru_attention"}, {"hidden", 4}, {"layers", 1}}},
    {"source_vocabulary", {"<pad>", "<unk>", "hello", "caf\xc3\xa9"}},
    {"provenance", {{"created_by", "seq2seq train"}, {"seed", 7}}},
};

// Two small tensors, one of each dtype, used by the corruption sweeps.
struct SmallModel {
    std::vector<float> a = {1.0f, -2.5f, 3.25f, 0.0f, -0.0f, 1e-3f};
    std::vector<float> b = {0.5f, -1.0f, 2.0f, 65504.0f, -3.0f};
    std::vector<TensorToWrite> tensors() const {
        return {{"encoder.W", 2, 3, a.data(), TensorDtype::kFloat32}, {"decoder.b", 1, 5, b.data(), TensorDtype::kFloat16}};
    }
    std::vector<uint8_t> bytes() const { return encode_model_file({{"k", 1}}, tensors()); }
};

// Records to write, every field set.
inline RecordToWrite strings_record(const std::string& name, const std::vector<std::string>& strings) {
    RecordToWrite record;
    record.name = name;
    record.strings.assign(strings.begin(), strings.end());
    return record;
}
inline RecordToWrite uint16_record(const std::string& name, uint32_t rows, uint32_t cols, const uint16_t* values) {
    RecordToWrite record;
    record.name = name;
    record.dtype = RecordDtype::kUint16;
    record.rows = rows;
    record.cols = cols;
    record.values = values;
    return record;
}

// A tensor, two records of strings (multi-byte UTF-8, an empty string, an
// empty table) and a record of uint16 values: what format version 4 adds.
struct RecordsModel {
    std::vector<float> a = {1.0f, -2.5f, 3.25f, 0.0f, -0.0f, 1e-3f};
    std::vector<std::string> tokens = {"<pad>", "caf\xc3\xa9", "", "\xe4\xbd\xa0\xe5\xa5\xbd", "x"};
    std::vector<uint16_t> ids = {0, 1, 0xFFFF, 65534, 7, 9};
    std::vector<RecordToWrite> records() const {
        return {strings_record("vocabulary", tokens), strings_record("merges", {}), uint16_record("triggers", 3, 2, ids.data())};
    }
    std::vector<uint8_t> bytes() const {
        return encode_model_file({{"k", 1}}, {{"encoder.W", 2, 3, a.data(), TensorDtype::kFloat32}}, records());
    }
};

inline std::filesystem::path scratch_directory() {
    std::random_device random;
    auto dir = std::filesystem::temp_directory_path() / ("s2s_model_file_test_" + std::to_string(random()));
    std::filesystem::create_directories(dir);
    return dir;
}

inline std::vector<uint8_t> fixture(const std::string& name) {
    return read_file_bytes(std::string(S2S_SOURCE_DIR) + "/tests/fixtures/" + name);
}

// Rows with different ranges, a zero row and extreme values.
struct Int8Model {
    std::vector<float> w = std::vector<float>(6 * 9);
    std::vector<float> bias = {0.5f, -1.0f, 2.0f};
    Int8Model() {
        std::mt19937 rng(5);
        std::normal_distribution<float> normal(0.0f, 1.0f);
        for (int r = 0; r < 6; ++r) {
            for (int c = 0; c < 9; ++c) w[r * 9 + c] = normal(rng) * std::pow(10.0f, float(r - 2));
        }
        for (int c = 0; c < 9; ++c) w[3 * 9 + c] = 0.0f;  // a zero row: scale 0
        w[4 * 9 + 2] = std::numeric_limits<float>::max();
        w[4 * 9 + 3] = -std::numeric_limits<float>::max();
    }
    std::vector<TensorToWrite> tensors() const {
        return {{"decoder.W", 6, 9, w.data(), TensorDtype::kInt8}, {"decoder.b", 3, 1, bias.data(), TensorDtype::kFloat32}};
    }
    std::vector<uint8_t> bytes() const { return encode_model_file(kHeader, tensors()); }
};

}  // namespace s2s::testing
