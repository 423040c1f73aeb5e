#include "model/model_file.h"

#include "common/error.h"
#include "common/hash.h"

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>

using namespace s2s;

namespace {

// Test-side view of the layout (version 3, or 1 and 2 with their checksum
// after the table), written independently of the loader so that tests can
// corrupt one field and then re-seal the checksum.
struct EntryFields {
    size_t name_length = 0, name = 0, dtype = 0, rows = 0, cols = 0, offset = 0, byte_size = 0;
    uint32_t name_size = 0;
};
struct Layout {
    size_t header = 16;
    uint32_t header_size = 0;
    size_t table_count = 0;
    std::vector<EntryFields> entries;
    size_t checksum = 0;    // version 3: the last 8 bytes
    size_t data_start = 0;  // where the table (and in versions 1 and 2 the checksum) ends
};

uint32_t get_u32(const std::vector<uint8_t>& b, size_t p) {
    return uint32_t(b[p]) | uint32_t(b[p + 1]) << 8 | uint32_t(b[p + 2]) << 16 | uint32_t(b[p + 3]) << 24;
}
uint64_t get_u64(const std::vector<uint8_t>& b, size_t p) { return get_u32(b, p) | uint64_t(get_u32(b, p + 4)) << 32; }
void set_u32(std::vector<uint8_t>& b, size_t p, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[p + i] = uint8_t(v >> (8 * i));
}
void set_u64(std::vector<uint8_t>& b, size_t p, uint64_t v) {
    for (int i = 0; i < 8; ++i) b[p + i] = uint8_t(v >> (8 * i));
}

Layout layout_of(const std::vector<uint8_t>& b) {
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

uint64_t fnv1a(const std::vector<uint8_t>& b, size_t from) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = from; i < b.size(); ++i) h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

// Makes the checksum match again: version 3's over every byte before the
// last 8 (without walking the layout, so a damaged length field is fine),
// or the data checksum of versions 1 and 2.
void reseal(std::vector<uint8_t>& b) {
    if (get_u32(b, 8) >= 3) {
        set_u64(b, b.size() - 8, word_hash64(b.data(), b.size() - 8));
        return;
    }
    const Layout l = layout_of(b);
    const size_t from = l.entries.empty() ? b.size() : size_t(get_u64(b, l.entries[0].offset));
    set_u64(b, l.checksum, fnv1a(b, std::min(from, b.size())));
}

ModelFileContents decode(const std::vector<uint8_t>& b) { return decode_model_file(b.data(), b.size()); }

std::string decode_error(const std::vector<uint8_t>& b) {
    try {
        decode(b);
    } catch (const ModelFileError& e) {
        return e.what();
    }
    return "(no error)";
}

uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
float from_bits(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

const nlohmann::json kHeader = {
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

std::filesystem::path scratch_directory() {
    std::random_device random;
    auto dir = std::filesystem::temp_directory_path() / ("s2s_model_file_test_" + std::to_string(random()));
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace

TEST_CASE("model file: float32 round trip is bit-identical and the header is preserved") {
    std::vector<float> w(7 * 5);
    std::mt19937 rng(1);
    std::normal_distribution<float> normal(0.0f, 3.0f);
    for (float& x : w) x = normal(rng);
    w[0] = -0.0f;
    w[1] = std::numeric_limits<float>::denorm_min();
    w[2] = std::numeric_limits<float>::max();
    w[3] = -std::numeric_limits<float>::min();
    std::vector<float> bias = {0.125f, -7.0f, 1e30f};

    const std::vector<TensorToWrite> tensors = {{"encoder.embedding", 7, 5, w.data()},
                                                {"encoder.bias", 3, 1, bias.data()},
                                                {"empty", 0, 4, nullptr}};
    const std::vector<uint8_t> bytes = encode_model_file(kHeader, tensors);
    CHECK(std::memcmp(bytes.data(), "S2SMODEL", 8) == 0);
    CHECK(get_u32(bytes, 8) == 3);  // every writer writes format version 3

    const ModelFileContents loaded = decode(bytes);
    CHECK(loaded.header == kHeader);
    REQUIRE(loaded.tensors.size() == 3);
    CHECK(loaded.tensors[0].name == "encoder.embedding");
    CHECK(loaded.tensors[0].rows == 7);
    CHECK(loaded.tensors[0].cols == 5);
    CHECK(loaded.tensors[0].stored_dtype == TensorDtype::kFloat32);
    REQUIRE(loaded.tensors[0].data.size() == w.size());
    for (size_t i = 0; i < w.size(); ++i) CHECK(bits(loaded.tensors[0].data[i]) == bits(w[i]));
    CHECK(loaded.tensors[1].name == "encoder.bias");
    REQUIRE(loaded.tensors[1].data.size() == 3);
    for (size_t i = 0; i < bias.size(); ++i) CHECK(bits(loaded.tensors[1].data[i]) == bits(bias[i]));
    CHECK(loaded.tensors[2].rows == 0);
    CHECK(loaded.tensors[2].cols == 4);
    CHECK(loaded.tensors[2].data.empty());

    // Layout promises: compact JSON, 64-byte aligned tensors, zero padding,
    // and the checksum of every byte before it right after the last tensor.
    const Layout l = layout_of(bytes);
    CHECK(std::string(bytes.begin() + 16, bytes.begin() + 16 + l.header_size) == kHeader.dump());
    for (const EntryFields& e : l.entries) CHECK(get_u64(bytes, e.offset) % 64 == 0);
    for (size_t i = l.data_start; i < get_u64(bytes, l.entries[0].offset); ++i) CHECK(bytes[i] == 0);
    const EntryFields& last = l.entries.back();
    CHECK(get_u64(bytes, last.offset) + get_u64(bytes, last.byte_size) == bytes.size() - 8);
    CHECK(get_u64(bytes, bytes.size() - 8) == word_hash64(bytes.data(), bytes.size() - 8));

    // Encoding is deterministic.
    CHECK(encode_model_file(kHeader, tensors) == bytes);
}

TEST_CASE("model file: float16 round trip is within half precision") {
    std::vector<float> w(64 * 3);
    std::mt19937 rng(2);
    std::uniform_real_distribution<float> uniform(-100.0f, 100.0f);
    for (float& x : w) x = uniform(rng);
    w[0] = 1e-6f;  // a half subnormal
    w[1] = -65504.0f;
    const std::vector<uint8_t> bytes = encode_model_file(kHeader, {{"w", 64, 3, w.data(), TensorDtype::kFloat16}});
    const ModelFileContents loaded = decode(bytes);
    REQUIRE(loaded.tensors.size() == 1);
    CHECK(loaded.tensors[0].stored_dtype == TensorDtype::kFloat16);
    CHECK(get_u64(bytes, layout_of(bytes).entries[0].byte_size) == 64 * 3 * 2);
    REQUIRE(loaded.tensors[0].data.size() == w.size());
    for (size_t i = 0; i < w.size(); ++i) {
        // Half of a unit in the last place: 2^-11 relative, 2^-25 absolute for subnormals.
        const double tolerance = std::abs(w[i]) * std::ldexp(1.0, -11) + std::ldexp(1.0, -25);
        CHECK(std::abs(double(loaded.tensors[0].data[i]) - double(w[i])) <= tolerance);
        CHECK(loaded.tensors[0].data[i] == half_to_float(float_to_half(w[i])));
    }
}

TEST_CASE("model file: a model without tensors") {
    const std::vector<uint8_t> bytes = encode_model_file(nlohmann::json::object(), {});
    const Layout l = layout_of(bytes);
    CHECK(bytes.size() == l.data_start + 8);  // the checksum follows the table
    CHECK(get_u64(bytes, l.checksum) == word_hash64(bytes.data(), l.data_start));
    const ModelFileContents loaded = decode(bytes);
    CHECK(loaded.header == nlohmann::json::object());
    CHECK(loaded.tensors.empty());
}

TEST_CASE("model file: every truncation is refused") {
    const std::vector<uint8_t> bytes = SmallModel().bytes();
    REQUIRE_NOTHROW(decode(bytes));
    for (size_t length = 0; length < bytes.size(); ++length) {
        // A fresh, exactly sized buffer so that ASan catches any read past the end.
        std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + length);
        const std::string error = decode_error(prefix);
        INFO("length " << length << ": " << error);
        CHECK(error != "(no error)");
    }
    const std::string error = decode_error({bytes.begin(), bytes.begin() + bytes.size() - 1});
    CHECK(error.find("model file is truncated: the checksum needs bytes") != std::string::npos);
    CHECK(error.find("and its checksum does not match") != std::string::npos);
    CHECK(error.find("download or copy it again") != std::string::npos);
    const std::string in_data = decode_error({bytes.begin(), bytes.begin() + bytes.size() - 9});
    CHECK(in_data.find("model file is truncated: tensor 'decoder.b' needs bytes") != std::string::npos);
}

namespace {

// A header like a real model's (a provenance with BLEU figures and a data
// source: what a flipped bit used to change silently) and one tensor of
// each dtype.
struct ChecksumModel {
    nlohmann::json header = {
        {"format", "seq2seq-attention"},
        {"config", {{"attention", "additive"}, {"hidden", 4}}},
        {"provenance",
         {{"data", {{"file", "fra-eng.txt"}, {"fnv1a64", "39434dde89d48260"}}}, {"bleu", {{"greedy", 43.74}, {"beam4", 46.09}}}}},
    };
    std::vector<float> a = {1.0f, -2.5f, 3.25f, 0.0f, -0.0f, 1e-3f};
    std::vector<float> b = {0.5f, -1.0f, 2.0f, 65504.0f, -3.0f};
    std::vector<float> w = {0.5f, -1.0f, 0.25f, 0.0f, 2.0f, -4.0f, 1.0f, 3.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    std::vector<uint8_t> bytes() const {
        return encode_model_file(header, {{"encoder.W", 2, 3, a.data(), TensorDtype::kFloat32},
                                          {"decoder.b", 1, 5, b.data(), TensorDtype::kFloat16},
                                          {"decoder.W", 3, 4, w.data(), TensorDtype::kInt8}});
    }
};

}  // namespace

TEST_CASE("model file: version 3's checksum covers every byte: each flipped bit is refused naming the checksum and the fix") {
    const std::vector<uint8_t> original = ChecksumModel().bytes();
    REQUIRE_NOTHROW(decode(original));
    const Layout l = layout_of(original);
    // The sweep covers every part: header, table, padding, data of each dtype, checksum.
    REQUIRE(l.header_size > 100);
    REQUIRE(l.entries.size() == 3);
    REQUIRE(get_u64(original, l.entries[0].offset) > l.data_start);
    long refused = 0;
    for (size_t p = 0; p < original.size(); ++p) {
        for (int bit = 0; bit < 8; ++bit) {
            std::vector<uint8_t> b = original;
            b[p] ^= uint8_t(1u << bit);
            const std::string error = decode_error(b);
            INFO("byte " << p << ", bit " << bit << ": " << error);
            if (p < 8) {  // the magic: the file is no longer recognised as a model file at all
                CHECK(error.find("bad magic") != std::string::npos);
                continue;
            }
            CHECK(error.find("checksum") != std::string::npos);
            CHECK(error.find("download or copy it again") != std::string::npos);
            refused += error != "(no error)";
        }
    }
    CHECK(refused == long(original.size() - 8) * 8);
    // A flip inside a header string (the old way to change a BLEU figure
    // unnoticed) is refused as a checksum mismatch, before the header is parsed.
    const std::string text(original.begin() + 16, original.begin() + 16 + l.header_size);
    std::vector<uint8_t> bleu = original;
    bleu[16 + text.find("43.74") + 1] ^= 0x01;  // 43.74 -> 42.74
    CHECK(decode_error(bleu).rfind("model file checksum mismatch: its first " + std::to_string(original.size() - 8) +
                                       " bytes hash to 0x", 0) == 0);
}

TEST_CASE("model file: a truncated version 3 file and one with bytes after its end are refused saying so") {
    const std::vector<uint8_t> original = ChecksumModel().bytes();
    for (size_t length = 1; length < original.size(); ++length) {
        std::vector<uint8_t> prefix(original.begin(), original.begin() + length);
        const std::string error = decode_error(prefix);
        INFO("length " << length << ": " << error);
        CHECK(error.find("model file is truncated: ") == 0);
        CHECK(error.find("download or copy it again") != std::string::npos);
        // Once the file is long enough to hold one, the checksum is named too.
        CHECK((error.find("and its checksum does not match") != std::string::npos) == (length >= 24));
    }
    std::mt19937 rng(3);
    for (size_t extra : {1, 7, 8, 9, 64, 1000}) {
        std::vector<uint8_t> b = original;
        for (size_t i = 0; i < extra; ++i) b.push_back(uint8_t(rng()));
        const std::string error = decode_error(b);
        INFO(extra << " bytes more: " << error);
        CHECK(error.find("model file has " + std::to_string(extra) + " unexpected bytes after its end (its checksum ends at byte " +
                         std::to_string(original.size()) + "), and its checksum does not match; the file is damaged, "
                         "download or copy it again") == 0);
    }
    // Zeros after the end (a file padded by a copy tool) as well.
    std::vector<uint8_t> padded = original;
    padded.resize(original.size() + 4096, 0);
    CHECK(decode_error(padded).find("4096 unexpected bytes after its end") != std::string::npos);
}

TEST_CASE("model file: a newer format version is refused naming both versions") {
    std::vector<uint8_t> bytes = SmallModel().bytes();
    set_u32(bytes, 8, kModelFormatVersion + 1);
    const std::string error = decode_error(bytes);
    CHECK(error.find("version " + std::to_string(kModelFormatVersion + 1)) != std::string::npos);
    CHECK(error.find("reads format version " + std::to_string(kModelFormatVersion)) != std::string::npos);
    CHECK(error.find("upgrade") != std::string::npos);
    // Every version from 3 on ends with the checksum, and this one does not
    // match (the version field is covered): damaged or newer, both fixes named.
    CHECK(error.find("and its checksum does not match") != std::string::npos);
    CHECK(error.find("download or copy it again") != std::string::npos);
    // An intact newer file: only the upgrade.
    reseal(bytes);
    CHECK(decode_error(bytes) == "model file has format version " + std::to_string(kModelFormatVersion + 1) +
                                     ", but this build of seq2seq-attention reads format version " +
                                     std::to_string(kModelFormatVersion) +
                                     "; upgrade the seq2seq-attention package to load it");
    set_u32(bytes, 8, 0);
    CHECK(decode_error(bytes).find("version 0") != std::string::npos);
    // A version 3 file whose version field reads 1 or 2 is not taken for an older file.
    for (uint32_t older : {1u, 2u}) {
        std::vector<uint8_t> b = SmallModel().bytes();
        set_u32(b, 8, older);
        CHECK(decode_error(b) == "model file format version field is damaged: it reads " + std::to_string(older) +
                                     ", but the file is laid out as version 3 (its checksum matches only with 3); "
                                     "the file is damaged, download or copy it again");
    }
}

namespace {

std::vector<uint8_t> fixture(const std::string& name) {
    return read_file_bytes(std::string(S2S_SOURCE_DIR) + "/tests/fixtures/" + name);
}

}  // namespace

TEST_CASE("model file: versions 1 and 2 (written before version 3) load as before, with their data-only checksum") {
    // tests/fixtures/model-file-v1.s2s and -v2.s2s, written by the encoder of
    // before version 3 from these values (tests/fixtures/README.md).
    const nlohmann::json header = {
        {"architecture", {{"type", "gru_attention"}, {"hidden", 4}, {"layers", 1}}},
        {"source_vocabulary", {"<pad>", "<unk>", "hello", "caf\xc3\xa9"}},
        {"provenance", {{"created_by", "seq2seq train"}, {"seed", 7}, {"bleu", 12.5}}},
    };
    const std::vector<float> a = {1.0f, -2.5f, 3.25f, 0.0f, -0.0f, 1e-3f};
    const std::vector<float> b = {0.5f, -1.0f, 2.0f, 65504.0f, -3.0f};
    const std::vector<float> w = {0.5f, -1.0f, 0.25f, 0.0f, 2.0f, -4.0f, 1.0f, 3.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    std::vector<float> b_as_half, w_as_int8;
    for (float x : b) b_as_half.push_back(half_to_float(float_to_half(x)));
    for (int row = 0; row < 3; ++row) {  // scale = max |row| / 127, q = round(x / scale): model_file.h
        float largest = 0.0f;
        for (int col = 0; col < 4; ++col) largest = std::max(largest, std::abs(w[row * 4 + col]));
        const auto scale = static_cast<float>(double(largest) / 127.0);
        for (int col = 0; col < 4; ++col) {
            const double q = scale == 0.0f ? 0.0 : std::round(double(w[row * 4 + col]) / double(scale));
            w_as_int8.push_back(static_cast<float>(q) * scale);
        }
    }
    for (const uint32_t version : {1u, 2u}) {
        const std::vector<uint8_t> bytes = fixture("model-file-v" + std::to_string(version) + ".s2s");
        INFO("version " << version);
        REQUIRE(get_u32(bytes, 8) == version);
        const ModelFileContents loaded = decode(bytes);
        CHECK(loaded.header == header);
        REQUIRE(loaded.tensors.size() == (version == 1 ? 2 : 3));
        const LoadedTensor* int8 = version == 2 ? &loaded.tensors[0] : nullptr;
        const LoadedTensor& f32 = loaded.tensors[version == 2 ? 1 : 0];
        const LoadedTensor& f16 = loaded.tensors[version == 2 ? 2 : 1];
        CHECK(f32.name == "encoder.W");
        for (size_t i = 0; i < a.size(); ++i) CHECK(bits(f32.data[i]) == bits(a[i]));
        CHECK(f16.name == "decoder.b");
        CHECK(f16.data == b_as_half);
        if (int8 != nullptr) {
            CHECK(int8->name == "decoder.W");
            CHECK(int8->stored_dtype == TensorDtype::kInt8);
            CHECK(int8->data == w_as_int8);
        }

        // Their checksum covers the tensor data only, as it always did.
        const Layout l = layout_of(bytes);
        std::vector<uint8_t> damaged = bytes;
        damaged[bytes.size() - 3] ^= 0x10;
        CHECK(decode_error(damaged).rfind("model file checksum mismatch: the tensor data hashes to 0x", 0) == 0);
        std::vector<uint8_t> header_flip = bytes;
        const std::string text(bytes.begin() + 16, bytes.begin() + 16 + l.header_size);
        header_flip[16 + text.find("12.5") + 1] ^= 0x01;  // the BLEU 12.5 becomes 13.5: not covered, loads
        CHECK(decode(header_flip).header["provenance"]["bleu"] == 13.5);
        std::vector<uint8_t> cut(bytes.begin(), bytes.end() - 1);
        CHECK(decode_error(cut).rfind("model file is truncated: tensor 'decoder.b' needs bytes", 0) == 0);

        // Written again, a model file is version 3.
        std::vector<TensorToWrite> again;
        for (const LoadedTensor& t : loaded.tensors) again.push_back({t.name, t.rows, t.cols, t.data.data(), t.stored_dtype});
        const std::vector<uint8_t> rewritten = encode_model_file(loaded.header, again);
        CHECK(get_u32(rewritten, 8) == 3);
        const ModelFileContents reloaded = decode(rewritten);
        for (size_t t = 0; t < loaded.tensors.size(); ++t) CHECK(reloaded.tensors[t].data == loaded.tensors[t].data);
    }
    // Version 1 has no int8.
    std::vector<uint8_t> int8_as_v1 = fixture("model-file-v2.s2s");
    set_u32(int8_as_v1, 8, 1);
    CHECK(decode_error(int8_as_v1) ==
          "model file tensor 'decoder.W' has dtype 2 (int8), which format version 1 does not have; the file is damaged, "
          "download or copy it again");
}

namespace {

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

}  // namespace

TEST_CASE("model file: int8 round trip is within half a step of each row's scale, and stable") {
    const Int8Model model;
    const std::vector<uint8_t> bytes = model.bytes();
    CHECK(get_u32(bytes, 8) == 3);
    const Layout l = layout_of(bytes);
    CHECK(get_u32(bytes, l.entries[0].dtype) == 2);
    CHECK(get_u64(bytes, l.entries[0].byte_size) == 6 * 4 + 6 * 9);  // six float32 scales, then the values
    const ModelFileContents loaded = decode(bytes);
    REQUIRE(loaded.tensors.size() == 2);
    CHECK(loaded.tensors[0].stored_dtype == TensorDtype::kInt8);
    REQUIRE(loaded.tensors[0].data.size() == model.w.size());
    for (int r = 0; r < 6; ++r) {
        float largest = 0.0f;
        for (int c = 0; c < 9; ++c) largest = std::max(largest, std::abs(model.w[r * 9 + c]));
        const double step = double(largest) / 127.0;
        for (int c = 0; c < 9; ++c) {
            INFO("row " << r << ", column " << c);
            const double error = std::abs(double(loaded.tensors[0].data[r * 9 + c]) - double(model.w[r * 9 + c]));
            CHECK(error <= 0.5 * step * (1 + 1e-5) + (r == 4 ? step : 0.0));  // row 4 clamps at FLT_MAX / 128
            CHECK(std::isfinite(loaded.tensors[0].data[r * 9 + c]));
        }
    }
    for (int c = 0; c < 9; ++c) CHECK(loaded.tensors[0].data[3 * 9 + c] == 0.0f);
    CHECK(loaded.tensors[1].data == model.bias);
    // Quantizing what was loaded gives the same file: a rewrite (eval
    // --record, convert i8 to i8) does not drift.
    const std::vector<TensorToWrite> again = {{"decoder.W", 6, 9, loaded.tensors[0].data.data(), TensorDtype::kInt8},
                                              {"decoder.b", 3, 1, loaded.tensors[1].data.data(), TensorDtype::kFloat32}};
    CHECK(encode_model_file(kHeader, again) == bytes);
}

TEST_CASE("model file: damaged int8 tensors are refused naming the problem") {
    const std::vector<uint8_t> original = Int8Model().bytes();
    REQUIRE_NOTHROW(decode(original));
    const Layout l = layout_of(original);
    const size_t data = size_t(get_u64(original, l.entries[0].offset));
    auto expect = [](std::vector<uint8_t> bytes, const std::string& expected) {
        reseal(bytes);
        const std::string error = decode_error(bytes);
        INFO(error);
        CHECK(error.find(expected) != std::string::npos);
    };
    for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), -1.0f,
                      std::numeric_limits<float>::max()}) {
        std::vector<uint8_t> b = original;
        set_u32(b, data + 4 * 1, bits(bad));
        expect(b, "int8 scale");
    }
    {
        std::vector<uint8_t> b = original;
        b[data + 6 * 4 + 9 * 2 + 5] = 0x80;  // -128 at row 2, column 5
        expect(b, "int8 value -128 at row 2, column 5");
    }
    {
        std::vector<uint8_t> b = original;
        set_u64(b, l.entries[0].byte_size, 6 * 9);  // values without their scales
        expect(b, "records 54 bytes, but 6 x 9 int8 values take 78 bytes (with one float32 scale per row)");
    }
    {
        std::vector<uint8_t> b = original;
        set_u32(b, l.entries[0].dtype, 1);  // an int8 payload read as float16
        expect(b, "float16 values take 108 bytes");
    }
    {
        // A huge int8 shape with a consistent byte size: refused as truncated
        // before anything is allocated.
        std::vector<uint8_t> b = original;
        set_u32(b, l.entries[0].rows, 0x7FFFFFFF);
        set_u32(b, l.entries[0].cols, 0x7FFFFFFF);
        set_u64(b, l.entries[0].byte_size, uint64_t(0x7FFFFFFF) * 4 + uint64_t(0x7FFFFFFF) * 0x7FFFFFFF);
        expect(b, "truncated: tensor 'decoder.W'");
    }
    for (size_t length = 0; length < original.size(); ++length) {
        std::vector<uint8_t> prefix(original.begin(), original.begin() + length);
        INFO("length " << length);
        CHECK(decode_error(prefix) != "(no error)");
    }
    for (size_t p = data; p < original.size(); ++p) {  // every byte flip in the data is caught by the checksum
        std::vector<uint8_t> b = original;
        b[p] ^= 0x01;
        CHECK(decode_error(b).find("checksum mismatch") != std::string::npos);
    }
}

TEST_CASE("model file: other kinds of files are refused for bad magic") {
    const std::string kBadMagic =
        "not a seq2seq-attention model file (bad magic); expected a .s2s file made by `seq2seq train`";
    const std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
    CHECK(decode_error(png) == kBadMagic);
    const std::string text = "hello, this is a text file\n";
    CHECK(decode_error({text.begin(), text.end()}) == kBadMagic);
    const std::string json = R"({"architecture": "gru"})";
    CHECK(decode_error({json.begin(), json.end()}) == kBadMagic);
    CHECK(decode_error({'P', 'K'}) == kBadMagic);
    // A prefix of the magic is a truncated model file, not another kind of file.
    CHECK(decode_error({'S', '2', 'S'}).find("truncated") != std::string::npos);
    CHECK(decode_error({}).find("empty") != std::string::npos);
}

TEST_CASE("model file: oversized length fields are refused quickly") {
    const std::vector<uint8_t> original = SmallModel().bytes();
    const Layout l = layout_of(original);
    const auto start = std::chrono::steady_clock::now();
    auto refused = [&](std::vector<uint8_t> bytes, const std::string& expected) {
        reseal(bytes);  // so that the check of the field itself speaks, not the checksum
        const std::string error = decode_error(bytes);
        INFO(error);
        CHECK(error.find(expected) != std::string::npos);
    };
    {
        std::vector<uint8_t> b = original;
        set_u32(b, 12, 0xFFFFFFFF);
        refused(b, "truncated: the JSON header");
    }
    {
        std::vector<uint8_t> b = original;
        set_u32(b, l.table_count, 0xFFFFFFFF);
        refused(b, "truncated: the tensor table (4294967295 entries)");
    }
    {
        std::vector<uint8_t> b = original;
        set_u32(b, l.table_count, 1000);
        refused(b, "truncated");
    }
    {
        std::vector<uint8_t> b = original;
        set_u32(b, l.entries[0].name_length, 0xFFFFFFFF);
        refused(b, "name of 4294967295 bytes");
    }
    {
        std::vector<uint8_t> b = original;
        set_u32(b, l.entries[0].name_length, 257);
        refused(b, "at most 256 bytes");
    }
    for (uint32_t huge : {0xFFFFFFFFu, 0x80000000u, 0x40000000u, 0x10000u}) {
        std::vector<uint8_t> rows = original;
        set_u32(rows, l.entries[0].rows, huge);
        refused(rows, "tensor 'encoder.W'");
        std::vector<uint8_t> cols = original;
        set_u32(cols, l.entries[0].cols, huge);
        refused(cols, "tensor 'encoder.W'");
    }
    {
        // A consistent but enormous shape: passes the byte_size check, then
        // must be refused for not fitting in the file, before any allocation.
        std::vector<uint8_t> b = original;
        set_u32(b, l.entries[0].rows, 0x7FFFFFFF);
        set_u32(b, l.entries[0].cols, 0x7FFFFFFF);
        set_u64(b, l.entries[0].byte_size, uint64_t(0x7FFFFFFF) * 0x7FFFFFFF * 4);
        refused(b, "truncated: tensor 'encoder.W'");
    }
    {
        std::vector<uint8_t> b = original;
        set_u64(b, l.entries[1].offset, 0xFFFFFFFFFFFFFFC0ULL);
        refused(b, "truncated: tensor 'decoder.b'");
    }
    {
        std::vector<uint8_t> b = original;
        set_u64(b, l.entries[1].byte_size, 0xFFFFFFFFFFFFFFFFULL);
        refused(b, "tensor 'decoder.b'");
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(seconds < 2.0);
}

TEST_CASE("model file: structural validation names the problem") {
    const std::vector<uint8_t> original = SmallModel().bytes();
    const Layout l = layout_of(original);
    auto expect = [](std::vector<uint8_t> bytes, const std::string& expected) {
        reseal(bytes);
        const std::string error = decode_error(bytes);
        INFO(error);
        CHECK(error.find(expected) != std::string::npos);
    };
    {
        std::vector<uint8_t> b = original;
        set_u32(b, l.entries[0].dtype, 7);
        expect(b, "unknown dtype 7");
    }
    {
        std::vector<uint8_t> b = original;
        set_u32(b, l.entries[0].dtype, 1);  // float16 with a float32 byte size
        expect(b, "records 24 bytes, but 2 x 3 float16 values take 12 bytes");
    }
    {
        std::vector<uint8_t> b = original;
        set_u64(b, l.entries[1].offset, get_u64(b, l.entries[1].offset) + 1);
        expect(b, "not a multiple of 64");
    }
    {
        std::vector<uint8_t> b = original;
        set_u64(b, l.entries[0].offset, 0);
        expect(b, "inside the header and tensor table");
    }
    {
        std::vector<uint8_t> b = original;
        set_u64(b, l.entries[1].offset, get_u64(b, l.entries[0].offset));
        expect(b, "before the end of tensor 'encoder.W'");
    }
    {
        std::vector<uint8_t> b = original;
        b[l.entries[1].name] = 'e';  // "decoder.b" -> "eecoder.b" is fine, so make a duplicate instead
        std::memcpy(&b[l.entries[1].name], "encoder.W", 9);
        expect(b, "two tensors named 'encoder.W'");
    }
    {
        std::vector<uint8_t> b = original;
        b[l.entries[0].name] = 0xC3;  // a lone lead byte
        expect(b, "not valid UTF-8");
    }
    {
        std::vector<uint8_t> b = original;
        b[l.entries[0].name] = '\n';
        expect(b, "control characters");
    }
    {
        std::vector<uint8_t> b = original;
        set_u32(b, l.entries[0].name_length, 0);
        expect(b, "entry 1 has an empty name");
    }
    {
        std::vector<uint8_t> b = original;
        b[l.header] = '[';
        expect(b, "header is not valid JSON");
    }
    {
        std::vector<uint8_t> b = original;
        b[l.data_start] = 1;  // padding before the first tensor
        expect(b, "nonzero padding byte at offset " + std::to_string(l.data_start));
    }
    {
        std::vector<uint8_t> b = original;
        b.push_back(0);
        expect(b, "1 unexpected bytes after its end");  // only a broken writer could make it: the checksum matches
    }
    {
        std::vector<uint8_t> b = original;
        b.back() ^= 1;  // no reseal: data changed under the checksum
        const std::string error = decode_error(b);
        CHECK(error.find("checksum mismatch") != std::string::npos);
    }
}

TEST_CASE("model file: the header must be a JSON object of bounded depth") {
    auto file_with_header = [](const std::string& text) {  // version 3 without tensors
        std::vector<uint8_t> b(kModelMagic, kModelMagic + 8);
        b.resize(16 + text.size() + 4 + 8, 0);
        set_u32(b, 8, kModelFormatVersion);
        set_u32(b, 12, uint32_t(text.size()));
        std::memcpy(&b[16], text.data(), text.size());
        reseal(b);
        return b;
    };
    CHECK(decode(file_with_header(R"({"a":[1,2,{"b":null}]})")).header["a"][2].contains("b"));
    CHECK(decode_error(file_with_header("[1,2]")).find("must be a JSON object, but it is array") != std::string::npos);
    CHECK(decode_error(file_with_header("")).find("not valid JSON") != std::string::npos);
    CHECK(decode_error(file_with_header("{} x")).find("not valid JSON") != std::string::npos);
    CHECK(decode_error(file_with_header("{\"a\":\"\xff\"}")).find("not valid JSON") != std::string::npos);
    const std::string deep = "{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
    CHECK(decode_error(file_with_header(deep)).find("nested more than") != std::string::npos);
    // Brackets inside strings do not count.
    const std::string brackets = "{\"a\":\"" + std::string(1000, '[') + "\\\"\"}";
    CHECK_NOTHROW(decode(file_with_header(brackets)));
}

TEST_CASE("model file: non-finite values are refused naming the tensor") {
    const SmallModel model;
    std::vector<uint8_t> b = model.bytes();
    const Layout l = layout_of(b);
    const size_t a_data = size_t(get_u64(b, l.entries[0].offset));
    set_u32(b, a_data + 4 * 4, bits(std::numeric_limits<float>::quiet_NaN()));
    reseal(b);
    std::string error = decode_error(b);
    CHECK(error.find("tensor 'encoder.W' holds NaN at row 1, column 1") != std::string::npos);

    b = model.bytes();
    const size_t b_data = size_t(get_u64(b, l.entries[1].offset));
    b[b_data + 2 * 2] = 0x00;
    b[b_data + 2 * 2 + 1] = 0xFC;  // float16 -infinity
    reseal(b);
    error = decode_error(b);
    CHECK(error.find("tensor 'decoder.b' holds infinity at row 0, column 2") != std::string::npos);

    // The writer refuses what the reader would refuse.
    std::vector<float> bad = {1.0f, std::numeric_limits<float>::infinity()};
    CHECK_THROWS_AS(encode_model_file(kHeader, {{"x", 1, 2, bad.data()}}), ModelFileError);
    std::vector<float> large = {1.0f, 70000.0f};
    CHECK_NOTHROW(encode_model_file(kHeader, {{"x", 1, 2, large.data()}}));
    CHECK_THROWS_AS(encode_model_file(kHeader, {{"x", 1, 2, large.data(), TensorDtype::kFloat16}}), ModelFileError);
}

TEST_CASE("model file: the writer refuses caller mistakes") {
    std::vector<float> v = {1.0f, 2.0f};
    CHECK_THROWS_AS(encode_model_file(nlohmann::json::array(), {}), std::invalid_argument);
    CHECK_THROWS_AS(encode_model_file(kHeader, {{"", 1, 2, v.data()}}), std::invalid_argument);
    CHECK_THROWS_AS(encode_model_file(kHeader, {{std::string(257, 'n'), 1, 2, v.data()}}), std::invalid_argument);
    CHECK_NOTHROW(encode_model_file(kHeader, {{std::string(256, 'n'), 1, 2, v.data()}}));
    CHECK_THROWS_AS(encode_model_file(kHeader, {{"a", 1, 2, v.data()}, {"a", 2, 1, v.data()}}), std::invalid_argument);
    CHECK_THROWS_AS(encode_model_file(kHeader, {{"a", -1, 2, v.data()}}), std::invalid_argument);
    CHECK_THROWS_AS(encode_model_file(kHeader, {{"a", 1, 2, nullptr}}), std::invalid_argument);
}

TEST_CASE("model file: write and read through the file system") {
    const std::filesystem::path dir = scratch_directory();
    const std::string path = (dir / "model.s2s").string();
    const SmallModel model;
    write_model_file(path, kHeader, model.tensors());
    CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
    ModelFileContents loaded = read_model_file(path);
    CHECK(loaded.header == kHeader);
    REQUIRE(loaded.tensors.size() == 2);
    CHECK(loaded.tensors[0].data == model.a);

    // Overwriting an existing model replaces it.
    write_model_file(path, {{"second", true}}, {});
    loaded = read_model_file(path);
    CHECK(loaded.header["second"] == true);
    CHECK(loaded.tensors.empty());

    // A damaged file on disk is a ModelFileError naming the file.
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << "GIF89a";
    }
    try {
        read_model_file(path);
        FAIL("expected ModelFileError");
    } catch (const ModelFileError& e) {
        CHECK(std::string(e.what()).find(path) != std::string::npos);
        CHECK(std::string(e.what()).find("bad magic") != std::string::npos);
    }

    const std::string missing = (dir / "missing.s2s").string();
    CHECK_THROWS_WITH_AS(read_model_file(missing),
                         ("cannot open model file " + missing + ": No such file or directory").c_str(), IoError);
    CHECK_THROWS_AS(write_model_file((dir / "no_such_dir" / "m.s2s").string(), kHeader, {}), IoError);
    CHECK_THROWS_AS(read_model_file(dir.string()), IoError);  // a directory
    std::filesystem::remove_all(dir);
}

TEST_CASE("float16: conversions") {
    CHECK(float_to_half(0.0f) == 0x0000);
    CHECK(float_to_half(-0.0f) == 0x8000);
    CHECK(float_to_half(1.0f) == 0x3C00);
    CHECK(float_to_half(-2.0f) == 0xC000);
    CHECK(float_to_half(0.5f) == 0x3800);
    CHECK(float_to_half(0.1f) == 0x2E66);
    CHECK(float_to_half(65504.0f) == 0x7BFF);
    CHECK(float_to_half(65519.0f) == 0x7BFF);  // below the halfway point to 65536
    CHECK(float_to_half(65520.0f) == 0x7C00);  // the halfway point rounds (to even) to infinity
    CHECK(float_to_half(1e10f) == 0x7C00);
    CHECK(float_to_half(-1e10f) == 0xFC00);
    CHECK(float_to_half(std::numeric_limits<float>::infinity()) == 0x7C00);
    CHECK(float_to_half(-std::numeric_limits<float>::infinity()) == 0xFC00);
    const uint16_t nan = float_to_half(std::numeric_limits<float>::quiet_NaN());
    CHECK((nan & 0x7C00) == 0x7C00);
    CHECK((nan & 0x03FF) != 0);
    // A NaN whose payload is only in the low bits must stay a NaN.
    CHECK((float_to_half(from_bits(0x7F800001)) & 0x03FF) != 0);

    // Subnormals: units of 2^-24.
    CHECK(float_to_half(std::ldexp(1.0f, -14)) == 0x0400);  // smallest normal
    CHECK(float_to_half(std::ldexp(1.0f, -24)) == 0x0001);  // smallest subnormal
    CHECK(float_to_half(std::ldexp(1023.0f, -24)) == 0x03FF);
    CHECK(float_to_half(-std::ldexp(5.0f, -24)) == 0x8005);
    CHECK(float_to_half(std::ldexp(1.0f, -25)) == 0x0000);                     // tie -> even (0)
    CHECK(float_to_half(std::ldexp(1.0f, -25) * 1.0001f) == 0x0001);           // just above the tie
    CHECK(float_to_half(std::ldexp(3.0f, -25)) == 0x0002);                     // 1.5 units: tie -> even (2)
    CHECK(float_to_half(std::ldexp(5.0f, -25)) == 0x0002);                     // 2.5 units: tie -> even (2)
    CHECK(float_to_half(std::ldexp(2047.0f, -25)) == 0x0400);                  // 1023.5 units -> smallest normal
    CHECK(float_to_half(std::ldexp(1.0f, -26)) == 0x0000);
    CHECK(float_to_half(-std::ldexp(1.0f, -26)) == 0x8000);
    CHECK(float_to_half(std::numeric_limits<float>::denorm_min()) == 0x0000);

    // Rounding of normal numbers: 1 + 2^-11 is halfway between 1 and 1 + 2^-10.
    CHECK(float_to_half(1.0f + std::ldexp(1.0f, -11)) == 0x3C00);                        // tie -> even
    CHECK(float_to_half(1.0f + std::ldexp(3.0f, -11)) == 0x3C02);                        // tie -> even (up)
    CHECK(float_to_half(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)) == 0x3C01);  // above the tie
    CHECK(float_to_half(2.0f - std::ldexp(1.0f, -12)) == 0x4000);                        // carry into the exponent

    CHECK(bits(half_to_float(0x0000)) == bits(0.0f));
    CHECK(bits(half_to_float(0x8000)) == bits(-0.0f));
    CHECK(half_to_float(0x3C00) == 1.0f);
    CHECK(half_to_float(0x7BFF) == 65504.0f);
    CHECK(half_to_float(0x0001) == std::ldexp(1.0f, -24));
    CHECK(half_to_float(0x03FF) == std::ldexp(1023.0f, -24));
    CHECK(half_to_float(0x8001) == -std::ldexp(1.0f, -24));
    CHECK(half_to_float(0x0400) == std::ldexp(1.0f, -14));
    CHECK(half_to_float(0x7C00) == std::numeric_limits<float>::infinity());
    CHECK(half_to_float(0xFC00) == -std::numeric_limits<float>::infinity());
    CHECK(std::isnan(half_to_float(0x7E00)));
    CHECK(std::isnan(half_to_float(0x7C01)));

    // Every half value survives half -> float -> half exactly.
    for (uint32_t h = 0; h <= 0xFFFF; ++h) {
        const float f = half_to_float(uint16_t(h));
        if (std::isnan(f)) {
            CHECK((h & 0x7C00) == 0x7C00);
            CHECK(std::isnan(half_to_float(float_to_half(f))));
            continue;
        }
        if (float_to_half(f) != h) FAIL_CHECK("half " << h << " does not round trip");
    }
}
