// Model files at the model level: exact round trips for every variant, and
// the loader's checks that go beyond the container format (header fields,
// vocabularies against the config, tensor names and shapes).
#include "common/error.h"
#include "decode/translator.h"
#include "model/model.h"
#include "test_helpers.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <functional>

using namespace s2s;
using namespace s2s::testing;

namespace {

Model tiny_model(AttentionKind attention) {
    Model model;
    model.config = tiny_config(attention);
    set_placeholder_vocabularies(model);
    model.target_tokenizer = {TokenizerKind::kCharacters, "zh"};
    model.params = random_parameters(model.config, 9);
    model.provenance = {{"name", "tiny"}, {"dev_bleu", {{"overall", 12.5}}}};
    return model;
}

void check_same(const Model& a, const Model& b) {
    CHECK(to_json(a.config) == to_json(b.config));
    CHECK(a.source_vocabulary.tokens() == b.source_vocabulary.tokens());
    CHECK(a.target_vocabulary.tokens() == b.target_vocabulary.tokens());
    CHECK(to_json(a.target_tokenizer) == to_json(b.target_tokenizer));
    CHECK(a.provenance == b.provenance);
    std::vector<const Matrix*> tensors;
    a.params.for_each_tensor([&](const std::string&, const Matrix& m) { tensors.push_back(&m); });
    size_t i = 0;
    b.params.for_each_tensor([&](const std::string& name, const Matrix& m) {
        INFO(name);
        CHECK(m.rows() == tensors[i]->rows());
        CHECK(m.cols() == tensors[i]->cols());
        CHECK(m == *tensors[i]);  // bit-exact
        ++i;
    });
}

// Re-encodes a model whose header was edited by `edit`.
std::vector<uint8_t> with_header(const Model& model, const std::function<void(nlohmann::json&)>& edit) {
    const std::vector<uint8_t> bytes = serialize_model(model);
    ModelFileContents contents = decode_model_file(bytes.data(), bytes.size());
    edit(contents.header);
    std::vector<TensorToWrite> tensors;
    for (const auto& t : contents.tensors) tensors.push_back({t.name, t.rows, t.cols, t.data.data()});
    return encode_model_file(contents.header, tensors);
}

}  // namespace

TEST_CASE("a model round-trips exactly through bytes and through a file, for every variant") {
    for (AttentionKind attention : {AttentionKind::kAdditive, AttentionKind::kDot, AttentionKind::kScaledDot,
                                    AttentionKind::kGeneral, AttentionKind::kNone}) {
        const Model model = tiny_model(attention);
        const auto bytes = serialize_model(model);
        check_same(model, model_from_bytes(bytes.data(), bytes.size()));
        const auto path = (std::filesystem::temp_directory_path() / "s2s_test_model.s2s").string();
        save_model(model, path);
        check_same(model, load_model(path));
        std::filesystem::remove(path);
    }
}

TEST_CASE("float16 storage keeps the model within half precision") {
    const Model model = tiny_model(AttentionKind::kAdditive);
    const auto bytes = serialize_model(model, TensorDtype::kFloat16);
    CHECK(bytes.size() < serialize_model(model).size());
    const Model loaded = model_from_bytes(bytes.data(), bytes.size());
    std::vector<const Matrix*> tensors;
    model.params.for_each_tensor([&](const std::string&, const Matrix& m) { tensors.push_back(&m); });
    size_t i = 0;
    loaded.params.for_each_tensor([&](const std::string&, const Matrix& m) {
        const Matrix& original = *tensors[i++];
        if (m.size() == 0) return;
        CHECK((m - original).cwiseAbs().maxCoeff() <= 1e-3f * std::max(1.0f, original.cwiseAbs().maxCoeff()));
    });
}

TEST_CASE("int8 storage: matrices quantized per row, biases float16, and the model still translates alike") {
    for (AttentionKind attention : {AttentionKind::kAdditive, AttentionKind::kNone}) {
        const Model model = tiny_model(attention);
        const auto bytes = serialize_model(model, TensorDtype::kInt8);
        CHECK(bytes.size() < serialize_model(model, TensorDtype::kFloat16).size());
        const Model loaded = model_from_bytes(bytes.data(), bytes.size());
        CHECK(loaded.stored_dtype == TensorDtype::kInt8);
        CHECK(loaded.provenance == model.provenance);
        const ModelFileContents contents = decode_model_file(bytes.data(), bytes.size());
        for (const LoadedTensor& t : contents.tensors) {
            INFO(t.name);
            CHECK(t.stored_dtype == (t.cols == 1 ? TensorDtype::kFloat16 : TensorDtype::kInt8));
        }
        std::vector<const Matrix*> tensors;
        model.params.for_each_tensor([&](const std::string&, const Matrix& m) { tensors.push_back(&m); });
        size_t i = 0;
        loaded.params.for_each_tensor([&](const std::string& name, const Matrix& m) {
            const Matrix& original = *tensors[i++];
            if (m.size() == 0) return;
            INFO(name);
            for (Eigen::Index r = 0; r < m.rows(); ++r) {
                const float step = original.row(r).cwiseAbs().maxCoeff() / 127.0f;
                CHECK((m.row(r) - original.row(r)).cwiseAbs().maxCoeff() <= 0.51f * step + 1e-3f * std::abs(original(r, 0)));
            }
        });
        // Saving the loaded model as int8 again gives the same bytes.
        CHECK(serialize_model(loaded, TensorDtype::kInt8) == bytes);
        // And it converts back to float16 and float32 with the same values.
        const auto f32 = serialize_model(loaded, TensorDtype::kFloat32);
        check_same(loaded, model_from_bytes(f32.data(), f32.size()));
    }
}

TEST_CASE("int8 with fewer levels: values stay within them, the header records them, a rewrite keeps them") {
    Model model = tiny_model(AttentionKind::kAdditive);
    model.int8_levels = int8_levels_for_bits(7);
    REQUIRE(model.int8_levels == 63);
    const auto bytes = serialize_model(model, TensorDtype::kInt8);
    const ModelFileContents contents = decode_model_file(bytes.data(), bytes.size());
    CHECK(contents.header.at("int8_levels") == 63);
    const Model loaded = model_from_bytes(bytes.data(), bytes.size());
    CHECK(loaded.int8_levels == 63);
    // Every stored value is within -63..63 (the file's int8 bytes follow
    // each tensor's row scales).
    const ModelFileLayout layout = read_model_layout(bytes.data(), bytes.size());
    int largest = 0;
    for (const TensorLayout& t : layout.tensors) {
        if (t.dtype != TensorDtype::kInt8) continue;
        const auto* q = reinterpret_cast<const int8_t*>(bytes.data() + t.offset + 4 * t.rows);
        for (uint64_t i = 0; i < uint64_t(t.rows) * t.cols; ++i) largest = std::max(largest, std::abs(int(q[i])));
    }
    CHECK(largest == 63);
    // Within half a 63-level step of each row.
    std::vector<const Matrix*> tensors;
    model.params.for_each_tensor([&](const std::string&, const Matrix& m) { tensors.push_back(&m); });
    size_t i = 0;
    loaded.params.for_each_tensor([&](const std::string& name, const Matrix& m) {
        const Matrix& original = *tensors[i++];
        if (m.size() == 0 || m.cols() == 1) return;
        INFO(name);
        for (Eigen::Index r = 0; r < m.rows(); ++r) {
            const float step = original.row(r).cwiseAbs().maxCoeff() / 63.0f;
            CHECK((m.row(r) - original.row(r)).cwiseAbs().maxCoeff() <= 0.51f * step);
        }
    });
    CHECK(serialize_model(loaded, TensorDtype::kInt8) == bytes);
    // Only int8 files record levels.
    const auto f16 = serialize_model(loaded, TensorDtype::kFloat16);
    CHECK(decode_model_file(f16.data(), f16.size()).header.count("int8_levels") == 0);
    // A damaged value is refused, naming the field.
    for (const nlohmann::json& bad : {nlohmann::json(0), nlohmann::json(128), nlohmann::json("63"), nlohmann::json(6.5)}) {
        nlohmann::json header = model_header(model);
        header["int8_levels"] = bad;
        const auto damaged = encode_model_file(header, {});
        CHECK_THROWS_WITH_AS(model_from_bytes(damaged.data(), damaged.size()),
                             doctest::Contains("int8_levels"), ModelFileError);
    }
}

TEST_CASE("the loader refuses headers and tensors that do not fit together, naming the problem") {
    const Model model = tiny_model(AttentionKind::kAdditive);
    auto refused = [](const std::vector<uint8_t>& bytes) -> std::string {
        try {
            model_from_bytes(bytes.data(), bytes.size());
        } catch (const ModelFileError& e) {
            return e.what();
        }
        return "accepted";
    };
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["format"] = "something-else"; })).find("format") != std::string::npos);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h.erase("config"); })).find("config") != std::string::npos);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["config"]["attention"] = "magic"; })).find("magic") != std::string::npos);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["config"]["embedding_size"] = -3; })).find("embedding_size") != std::string::npos);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["config"]["embedding_size"] = 6; })).find("shape") != std::string::npos);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["target_vocabulary"].erase(h["target_vocabulary"].size() - 1); }))
              .find("vocabular") != std::string::npos);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["config"]["attention"] = "none"; })).find("unexpected tensor") != std::string::npos);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["source_vocabulary"][5] = "s4"; })).find("duplicate") != std::string::npos);

    // A tensor missing from the table.
    const auto bytes = serialize_model(model);
    ModelFileContents contents = decode_model_file(bytes.data(), bytes.size());
    std::vector<TensorToWrite> tensors;
    for (const auto& t : contents.tensors) {
        if (t.name != "attention_vector") tensors.push_back({t.name, t.rows, t.cols, t.data.data()});
    }
    const auto missing = encode_model_file(contents.header, tensors);
    CHECK(refused(missing).find("attention_vector") != std::string::npos);
}

TEST_CASE("a model's own beam penalties: kept through a file, used by decode_defaults, damaged values refused") {
    Model model = tiny_model(AttentionKind::kAdditive);
    CHECK(decode_defaults(model).length_penalty == DecodeOptions{}.length_penalty);
    CHECK(model_header(model).count("decoding") == 0);  // nothing recorded, nothing written
    model.length_penalty = 1.4;
    model.coverage_penalty = 0.0;
    const auto bytes = serialize_model(model);
    const Model loaded = model_from_bytes(bytes.data(), bytes.size());
    CHECK(loaded.length_penalty == 1.4);
    CHECK(loaded.coverage_penalty == 0.0);
    CHECK(model_header_without_vocabularies(loaded).at("decoding") == nlohmann::json({{"length_penalty", 1.4}, {"coverage_penalty", 0.0}}));
    const DecodeOptions options = decode_defaults(loaded);
    CHECK(options.length_penalty == 1.4f);
    CHECK(options.coverage_penalty == 0.0f);
    CHECK(options.beam_size == DecodeOptions{}.beam_size);
    Model only_alpha = tiny_model(AttentionKind::kAdditive);
    only_alpha.length_penalty = 1.0;
    CHECK(decode_defaults(only_alpha).coverage_penalty == DecodeOptions{}.coverage_penalty);

    for (const nlohmann::json& bad : {nlohmann::json(3), nlohmann::json({{"length_penalty", 9}}),
                                      nlohmann::json({{"coverage_penalty", "0.2"}}), nlohmann::json({{"length_penalty", -1}})}) {
        const auto damaged = with_header(model, [&](nlohmann::json& h) { h["decoding"] = bad; });
        CHECK_THROWS_WITH_AS(model_from_bytes(damaged.data(), damaged.size()), doctest::Contains("'decoding'"), ModelFileError);
    }
}

TEST_CASE("loading a missing file is an I/O error naming the path") {
    CHECK_THROWS_WITH_AS(load_model("/nonexistent/dir/model.s2s"), doctest::Contains("/nonexistent/dir/model.s2s"), IoError);
}

TEST_CASE("absurd sizes in a small file are refused before any allocation") {
    const Model model = tiny_model(AttentionKind::kAdditive);
    // Two sizes of 2^20 make a 2^40-float (4 TB) tensor: allocating before
    // checking would fail with bad_alloc, not a ModelFileError.
    const std::vector<std::pair<const char*, const char*>> pairs = {
        {"encoder_hidden_size", "decoder_hidden_size"}, {"embedding_size", "source_vocab_size"},
        {"output_hidden_size", "target_vocab_size"}, {"attention_size", "decoder_hidden_size"}};
    for (const auto& [first, second] : pairs) {
        const auto bytes = with_header(model, [&](nlohmann::json& h) {
            h["config"][first] = 1 << 20;
            h["config"][second] = 1 << 20;
        });
        INFO(first, " and ", second);
        CHECK_THROWS_AS(model_from_bytes(bytes.data(), bytes.size()), ModelFileError);
    }
}

TEST_CASE("every single-byte corruption of a real model file is refused, never a crash") {
    const Model model = tiny_model(AttentionKind::kGeneral);
    const std::vector<uint8_t> good = serialize_model(model);
    // The checksum covers every byte (format version 3), the header's strings included.
    for (size_t i = 0; i < good.size(); ++i) {
        std::vector<uint8_t> bad = good;
        bad[i] ^= 0x5a;
        INFO("byte " << i);
        CHECK_THROWS_AS(model_from_bytes(bad.data(), bad.size()), ModelFileError);
    }
    for (size_t length = 0; length < good.size(); length += 7) {
        CHECK_THROWS_AS(model_from_bytes(good.data(), length), ModelFileError);
    }
}

TEST_CASE("every shipped model loads, and saved again it is version 3 with the same weights") {
    // Versions 1 and 2 of the format are checked on tests/fixtures (above);
    // here the full-size files users get, whatever version wrote them.
    for (const char* name : {"en-fr", "en-fr-fixed", "en-zh"}) {
        CAPTURE(name);
        const std::vector<uint8_t> shipped = read_file_bytes(std::string(S2S_SOURCE_DIR) + "/models/" + name + ".s2s");
        REQUIRE(shipped.size() > 16);
        CHECK((shipped[8] == 2 || shipped[8] == 3));
        const Model model = model_from_bytes(shipped.data(), shipped.size());
        CHECK(model.stored_dtype == TensorDtype::kInt8);
        const std::vector<uint8_t> rewritten = serialize_model(model, model.stored_dtype);  // what seq2seq convert does
        CHECK(rewritten[8] == 3);
        check_same(model_from_bytes(rewritten.data(), rewritten.size()), model);
    }
}
