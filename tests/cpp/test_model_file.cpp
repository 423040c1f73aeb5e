// The model file container (model_file.h): round trips of float32, float16
// and int8 values and of records of strings and uint16 values, files of
// format versions 1 and 2, and the file system.
// Damaged files are refused in test_model_file_damage.cpp.
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
    CHECK(get_u32(bytes, 8) == kModelFormatVersion);  // every writer writes the current format version

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

TEST_CASE("model file: records of strings and uint16 values round-trip, read where they lie") {
    const RecordsModel model;
    const std::vector<uint8_t> bytes = model.bytes();
    const ModelFileLayout layout = read_model_layout(bytes.data(), bytes.size());
    CHECK(layout.version == kModelFormatVersion);
    REQUIRE(layout.tensors.size() == 1);
    REQUIRE(layout.records.size() == 3);
    const RecordLayout& strings = layout.records[0];
    CHECK(strings.name == "vocabulary");
    CHECK(strings.dtype == RecordDtype::kStrings);
    CHECK(strings.rows == 5);
    CHECK(strings.cols == 17);  // the bytes of the text
    CHECK(strings.byte_size == 4 + 4 * 6 + 17);
    // Tensors first, then the records, each 64-byte aligned.
    CHECK(strings.offset > layout.tensors[0].offset);
    for (const RecordLayout& r : layout.records) CHECK(r.offset % 64 == 0);
    const StringTableView view(bytes.data(), strings);
    REQUIRE(view.size() == model.tokens.size());
    for (size_t i = 0; i < view.size(); ++i) {
        CHECK(view[i] == model.tokens[i]);
        // In place: a view of the file's own bytes.
        CHECK(reinterpret_cast<const uint8_t*>(view[i].data()) >= bytes.data() + strings.offset);
    }
    CHECK(StringTableView(bytes.data(), layout.records[1]).size() == 0);
    CHECK(layout.records[2].dtype == RecordDtype::kUint16);
    CHECK(layout.records[2].rows == 3);
    CHECK(layout.records[2].cols == 2);
    for (size_t i = 0; i < model.ids.size(); ++i) CHECK(uint16_record_value(bytes.data(), layout.records[2], i) == model.ids[i]);
    CHECK_THROWS_AS(StringTableView(bytes.data(), layout.records[2]), std::invalid_argument);

    const ModelFileContents loaded = decode(bytes);
    REQUIRE(loaded.records.size() == 3);
    CHECK(loaded.records[0].strings == model.tokens);
    CHECK(loaded.records[1].strings.empty());
    CHECK(loaded.records[2].values == model.ids);
    // Written again from what was read: the same bytes.
    std::vector<TensorToWrite> tensors;
    for (const LoadedTensor& t : loaded.tensors) tensors.push_back({t.name, t.rows, t.cols, t.data.data(), t.stored_dtype});
    CHECK(encode_model_file(loaded.header, tensors, records_to_rewrite(loaded)) == bytes);
}

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

        // Written again, a model file is of the current version.
        std::vector<TensorToWrite> again;
        for (const LoadedTensor& t : loaded.tensors) again.push_back({t.name, t.rows, t.cols, t.data.data(), t.stored_dtype});
        const std::vector<uint8_t> rewritten = encode_model_file(loaded.header, again);
        CHECK(get_u32(rewritten, 8) == kModelFormatVersion);
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


TEST_CASE("model file: int8 round trip is within half a step of each row's scale, and stable") {
    const Int8Model model;
    const std::vector<uint8_t> bytes = model.bytes();
    CHECK(get_u32(bytes, 8) == kModelFormatVersion);
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

TEST_CASE("int8 tensors decode into column-major matrices as value times row scale, 16 x 16 blocks and the rest alike") {
    std::mt19937 random(21);
    std::uniform_int_distribution<int> value(-127, 127);
    std::uniform_real_distribution<float> scale(0.0f, 0.05f);
    for (const auto& [rows, cols] : {std::pair{16, 16}, std::pair{16, 17}, std::pair{32, 48}, std::pair{40, 33},
                                     std::pair{7, 20}, std::pair{384, 64}, std::pair{1, 1}}) {
        CAPTURE(rows);
        CAPTURE(cols);
        std::vector<float> scales(static_cast<size_t>(rows));
        for (float& s : scales) s = scale(random);
        std::vector<uint8_t> bytes(static_cast<size_t>(rows) * 4 + static_cast<size_t>(rows) * cols);
        std::memcpy(bytes.data(), scales.data(), scales.size() * 4);  // little-endian float32 scales
        std::vector<int8_t> values(static_cast<size_t>(rows) * cols);
        for (int8_t& v : values) v = static_cast<int8_t>(value(random));
        std::memcpy(bytes.data() + scales.size() * 4, values.data(), values.size());
        TensorLayout layout{"w", TensorDtype::kInt8, static_cast<uint32_t>(rows), static_cast<uint32_t>(cols), 0, bytes.size()};
        std::vector<float> column_major(values.size()), row_major(values.size());
        decode_tensor_values(bytes.data(), layout, column_major.data(), /*column_major=*/true);
        decode_tensor_values(bytes.data(), layout, row_major.data(), /*column_major=*/false);
        bool all_equal = true;
        for (int r = 0; r < rows; ++r) {
            for (int c = 0; c < cols; ++c) {
                const float expected = static_cast<float>(values[static_cast<size_t>(r) * cols + c]) * scales[static_cast<size_t>(r)];
                const float a = column_major[static_cast<size_t>(c) * rows + r], b = row_major[static_cast<size_t>(r) * cols + c];
                all_equal = all_equal && std::memcmp(&a, &expected, 4) == 0 && std::memcmp(&b, &expected, 4) == 0;
            }
        }
        CHECK(all_equal);
    }
}
