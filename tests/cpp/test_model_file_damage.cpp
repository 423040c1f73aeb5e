// Damaged model files (model_file.h): every truncation, every flipped bit
// under the checksum, bad magic, versions, sizes, offsets, dtypes, headers
// and values, each refused with a message that names the problem and the
// fix; and the writer refusing caller mistakes. (Past 400 lines because
// each kind of damage is one test with its table of cases; the byte helpers
// they share are in model_file_bytes.h.)
#include "format/model_file.h"
#include "model_file_bytes.h"

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
using namespace s2s::testing;

namespace {

// A header like a real model's (a provenance with BLEU figures and a data
// source: what a flipped bit used to change silently), one tensor of each
// dtype and one record of strings and of uint16 values.
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
    std::vector<std::string> tokens = {"<pad>", "caf\xc3\xa9", "x"};
    std::vector<uint16_t> ids = {3, 0xFFFF};
    std::vector<uint8_t> bytes() const {
        return encode_model_file(header,
                                 {{"encoder.W", 2, 3, a.data(), TensorDtype::kFloat32},
                                  {"decoder.b", 1, 5, b.data(), TensorDtype::kFloat16},
                                  {"decoder.W", 3, 4, w.data(), TensorDtype::kInt8}},
                                 {strings_record("vocabulary", tokens), uint16_record("triggers", 1, 2, ids.data())});
    }
};

}  // namespace

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


TEST_CASE("model file: the checksum covers every byte: each flipped bit is refused naming the checksum and the fix") {
    const std::vector<uint8_t> original = ChecksumModel().bytes();
    REQUIRE_NOTHROW(decode(original));
    const Layout l = layout_of(original);
    // The sweep covers every part: header, table, padding, data of each dtype, checksum.
    REQUIRE(l.header_size > 100);
    REQUIRE(l.entries.size() == 5);
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

TEST_CASE("model file: a truncated file and one with bytes after its end are refused saying so") {
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
    // A file whose version field reads an older version is not taken for an older file.
    for (uint32_t older = 1; older < kModelFormatVersion; ++older) {
        for (const std::vector<uint8_t>& original : {SmallModel().bytes(), RecordsModel().bytes()}) {
            std::vector<uint8_t> b = original;
            set_u32(b, 8, older);
            const std::string laid_out = std::to_string(kModelFormatVersion);
            CHECK(decode_error(b) == "model file format version field is damaged: it reads " + std::to_string(older) +
                                         ", but the file is laid out as version " + laid_out +
                                         " (its checksum matches only with " + laid_out +
                                         "); the file is damaged, download or copy it again");
        }
    }
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
        expect(b, "two records named 'encoder.W'");
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

TEST_CASE("model file: damaged records of strings and of uint16 values are refused naming the problem, before any allocation") {
    const std::vector<uint8_t> original = RecordsModel().bytes();
    REQUIRE_NOTHROW(decode(original));
    const Layout l = layout_of(original);
    REQUIRE(l.entries.size() == 4);
    const EntryFields& strings = l.entries[1];  // "vocabulary": 5 strings, 16 bytes of text
    const EntryFields& values = l.entries[3];   // "triggers": 3 x 2 uint16
    const size_t record = size_t(get_u64(original, strings.offset));
    // "<pad>", "café", "", "你好", "x": a count, 6 offsets, 17 bytes of text.
    const size_t offsets = record + 4;
    const size_t text = offsets + 4 * 6;
    REQUIRE(get_u32(original, strings.rows) == 5);
    REQUIRE(get_u32(original, strings.cols) == 17);
    REQUIRE(get_u32(original, record) == 5);
    const uint32_t expected_offsets[] = {0, 5, 10, 10, 16, 17};
    for (size_t i = 0; i < 6; ++i) CHECK(get_u32(original, offsets + 4 * i) == expected_offsets[i]);
    auto expect = [](std::vector<uint8_t> bytes, const std::string& expected) {
        reseal(bytes);
        const std::string error = decode_error(bytes);
        INFO(error);
        CHECK(error.find(expected) != std::string::npos);
        CHECK(error.find("download or copy it again") != std::string::npos);
    };
    const auto edited = [&](size_t at, uint32_t value) {
        std::vector<uint8_t> b = original;
        set_u32(b, at, value);
        return b;
    };
    expect(edited(record, 4), "strings 'vocabulary' counts 4 strings, but its table entry says 5");
    expect(edited(record, 0xFFFFFFFF), "counts 4294967295 strings");
    expect(edited(offsets, 1), "has its first string at offset 1 of its text instead of 0");
    expect(edited(offsets + 4 * 2, 4), "has string 1 ending at offset 4 of its text, before it starts (5)");
    expect(edited(offsets + 4 * 4, 18), "has string 3 ending at offset 18 of its text, past the end of the text (17 bytes)");
    expect(edited(offsets + 4 * 4, 0xFFFFFFFF), "past the end of the text");
    expect(edited(offsets + 4 * 5, 16), "has strings that end at offset 16 of its text of 17 bytes");
    expect(edited(offsets + 4 * 2, 9), "has string 2 starting inside a UTF-8 character");   // inside "é"
    expect(edited(offsets + 4 * 3, 11), "has string 3 starting inside a UTF-8 character");  // inside "你"
    {
        std::vector<uint8_t> b = original;
        b[text] = 0xFF;  // "<pad>" -> "\xFFpad>"
        expect(b, "strings 'vocabulary' holds text that is not valid UTF-8");
        b = original;
        b[text + 4] = 0xC3;  // a lead byte at the end of "<pad>", before "caf"
        expect(b, "not valid UTF-8");
    }
    // The table entry's sizes: byte_size must follow from rows and cols, and
    // a count or a text larger than the file is refused as truncated, before
    // anything is read or allocated for it.
    expect(edited(strings.cols, 18), "strings 'vocabulary' records 45 bytes, but 5 strings of 18 bytes (with a count and 6 offsets) take 46 bytes");
    {
        std::vector<uint8_t> b = edited(strings.rows, 0x40000000);
        set_u64(b, strings.byte_size, 4 + 4 * (uint64_t(0x40000000) + 1) + 17);
        expect(b, "model file is truncated: strings 'vocabulary' needs bytes");
        b = edited(strings.cols, 0xFFFFFFFF);
        set_u64(b, strings.byte_size, 4 + 4 * 6 + uint64_t(0xFFFFFFFF));
        expect(b, "model file is truncated: strings 'vocabulary' needs bytes");
    }
    expect(edited(values.cols, 3), "uint16 record 'triggers' records 12 bytes, but 3 x 3 uint16 values take 18 bytes");
    {
        std::vector<uint8_t> b = edited(values.rows, 0xFFFF);
        set_u32(b, values.cols, 0xFFFF);
        set_u64(b, values.byte_size, 2 * uint64_t(0xFFFF) * 0xFFFF);
        expect(b, "model file is truncated: uint16 record 'triggers' needs");
        b = edited(values.rows, 0xFFFFFFFF);
        set_u32(b, values.cols, 0xFFFFFFFF);
        expect(b, "uint16 record 'triggers' has shape 4294967295 x 4294967295, too large to address");
    }
    // Records overlap or leave the alignment like tensors.
    {
        std::vector<uint8_t> b = original;
        set_u64(b, l.entries[2].offset, get_u64(b, strings.offset));
        expect(b, "strings 'merges' starts at offset " + std::to_string(record) + ", before the end of strings 'vocabulary'");
        b = original;
        set_u64(b, values.offset, get_u64(b, values.offset) + 2);
        expect(b, "uint16 record 'triggers' starts at offset");
    }
    // Version 3 has no such records (versions 1 and 2 neither, but they
    // keep their checksum elsewhere: such a file is refused as damaged).
    expect(edited(8, 3), "strings 'vocabulary' has dtype 3 (strings), which format version 3 does not have");
    // A truncated text and an unknown dtype.
    for (size_t length = record; length < original.size(); ++length) {
        std::vector<uint8_t> prefix(original.begin(), original.begin() + length);
        INFO("length " << length);
        CHECK(decode_error(prefix).find("model file is truncated") == 0);
    }
    expect(edited(strings.dtype, 5), "unknown dtype 5 (known: 0 = float32, 1 = float16, 2 = int8, 3 = strings, 4 = uint16)");
    expect(edited(strings.dtype, 4), "uint16 record 'vocabulary' records 45 bytes, but 5 x 17 uint16 values take 170 bytes");
}

TEST_CASE("model file: the writer refuses records it could not read back") {
    CHECK_THROWS_AS(encode_model_file(kHeader, {}, {strings_record("v", {"ok", "caf\xc3"})}), std::invalid_argument);
    const std::vector<float> v = {1.0f, 2.0f};
    CHECK_THROWS_AS(encode_model_file(kHeader, {{"a", 1, 2, v.data()}}, {strings_record("a", {})}), std::invalid_argument);
    CHECK_THROWS_AS(encode_model_file(kHeader, {}, {strings_record("", {})}), std::invalid_argument);
    CHECK_THROWS_AS(encode_model_file(kHeader, {}, {uint16_record("u", 2, 2, nullptr)}), std::invalid_argument);
    RecordToWrite unknown = strings_record("u", {});
    unknown.dtype = static_cast<RecordDtype>(9);
    CHECK_THROWS_AS(encode_model_file(kHeader, {}, {unknown}), std::invalid_argument);
    CHECK_NOTHROW(encode_model_file(kHeader, {}, {uint16_record("u", 0, 5, nullptr)}));
}
