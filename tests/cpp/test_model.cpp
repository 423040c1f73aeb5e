// Model files at the model level: exact round trips for every variant, and
// the loader's checks that go beyond the container format (header fields,
// vocabularies against the config, tensor names and shapes).
#include "common/error.h"
#include "decode/translator.h"
#include "model/model.h"
#include "text/bpe.h"
#include "model_file_bytes.h"
#include "test_helpers.h"

#include <doctest/doctest.h>

#include <algorithm>
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

// Re-encodes a model whose file contents (header, tensors, records) were
// edited by `edit`.
// The loader's message for `bytes`, or "accepted".
std::string refused(const std::vector<uint8_t>& bytes) {
    try {
        model_from_bytes(bytes.data(), bytes.size());
    } catch (const ModelFileError& e) {
        return e.what();
    }
    return "accepted";
}

std::vector<uint8_t> with_contents(const Model& model, const std::function<void(ModelFileContents&)>& edit) {
    const std::vector<uint8_t> bytes = serialize_model(model);
    ModelFileContents contents = decode_model_file(bytes.data(), bytes.size());
    edit(contents);
    std::vector<TensorToWrite> tensors;
    for (const auto& t : contents.tensors) tensors.push_back({t.name, t.rows, t.cols, t.data.data()});
    return encode_model_file(contents.header, tensors, records_to_rewrite(contents));
}

// Re-encodes a model whose header was edited by `edit`.
std::vector<uint8_t> with_header(const Model& model, const std::function<void(nlohmann::json&)>& edit) {
    return with_contents(model, [&](ModelFileContents& contents) { edit(contents.header); });
}

// The strings of the record called `name`.
std::vector<std::string>& record_strings(ModelFileContents& contents, const std::string& name) {
    for (LoadedRecord& record : contents.records) {
        if (record.name == name) return record.strings;
    }
    FAIL("no record " << name);
    throw;
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
        const auto damaged = with_header(model, [&](nlohmann::json& h) { h["int8_levels"] = bad; });
        CHECK_THROWS_WITH_AS(model_from_bytes(damaged.data(), damaged.size()),
                             doctest::Contains("int8_levels"), ModelFileError);
    }
}

TEST_CASE("the loader refuses headers and tensors that do not fit together, naming the problem") {
    const Model model = tiny_model(AttentionKind::kAdditive);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["format"] = "something-else"; })).find("format") != std::string::npos);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h.erase("config"); })).find("config") != std::string::npos);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["config"]["attention"] = "magic"; })).find("magic") != std::string::npos);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["config"]["embedding_size"] = -3; })).find("embedding_size") != std::string::npos);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["config"]["embedding_size"] = 6; })).find("shape") != std::string::npos);
    CHECK(refused(with_contents(model, [](ModelFileContents& c) { record_strings(c, "target_vocabulary").pop_back(); }))
              .find("entries but the config says") != std::string::npos);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["config"]["attention"] = "none"; })).find("unexpected tensor") != std::string::npos);
    CHECK(refused(with_contents(model, [](ModelFileContents& c) { record_strings(c, "source_vocabulary")[5] = "s4"; }))
              .find("duplicate") != std::string::npos);
    CHECK(refused(with_contents(model, [](ModelFileContents& c) { record_strings(c, "source_vocabulary")[5] = ""; }))
              .find("vocabulary entry 5 is an empty token") != std::string::npos);

    // A tensor missing from the table.
    CHECK(refused(with_contents(model, [](ModelFileContents& c) {
              c.tensors.erase(std::find_if(c.tensors.begin(), c.tensors.end(),
                                           [](const LoadedTensor& t) { return t.name == "attention_vector"; }));
          })).find("attention_vector") != std::string::npos);
}

TEST_CASE("a version 3 file (everything in its header) loads, and saved again as version 4 it is the same model") {
    // tests/fixtures/model-v3-subword.s2s: BPE on both sides, int8, beam
    // penalties and a lexical shortlist, written by the version 3 writer.
    const std::vector<uint8_t> old = fixture("model-v3-subword.s2s");
    REQUIRE(get_u32(old, 8) == 3);
    const Model model = model_from_bytes(old.data(), old.size());
    REQUIRE(model.source_tokenizer.kind == TokenizerKind::kSubwords);
    REQUIRE(model.target_tokenizer.kind == TokenizerKind::kSubwords);
    REQUIRE(model.target_shortlist.has_value());
    CHECK(model.length_penalty == 1.2);
    const std::vector<uint8_t> rewritten = serialize_model(model, model.stored_dtype);
    CHECK(get_u32(rewritten, 8) == kModelFormatVersion);
    const ModelFileLayout layout = read_model_layout(rewritten.data(), rewritten.size());
    std::vector<std::string> names;
    for (const RecordLayout& r : layout.records) names.push_back(r.name);
    CHECK(names == std::vector<std::string>{"source_vocabulary", "target_vocabulary", "source_tokenizer.merges",
                                            "target_tokenizer.merges", "target_shortlist.triggers"});
    CHECK(layout.header.at("source_tokenizer") == nlohmann::json({{"kind", "bpe"}, {"language", "en"}}));
    CHECK_FALSE(layout.header.contains("source_vocabulary"));
    CHECK_FALSE(layout.header.at("target_shortlist").contains("triggers"));
    const StringTableView merges(rewritten.data(), layout.records[2]);
    REQUIRE(merges.size() == model.source_tokenizer.bpe->merge_count());
    for (size_t i = 0; i < merges.size(); ++i) CHECK(merges[i] == model.source_tokenizer.bpe->joined(i));

    const Model again = model_from_bytes(rewritten.data(), rewritten.size());
    check_same(again, model);
    CHECK(to_json(again.source_tokenizer) == to_json(model.source_tokenizer));
    CHECK(again.target_shortlist->triggers == model.target_shortlist->triggers);
    CHECK(again.target_shortlist->built_from == model.target_shortlist->built_from);
    CHECK(again.length_penalty == model.length_penalty);
    CHECK(again.coverage_penalty == model.coverage_penalty);
    CHECK(serialize_model(again, again.stored_dtype) == rewritten);
    for (const char* text : {"I see the cat.", "We drink water."}) {
        const Translation before = translate(model, text, decode_defaults(model));
        const Translation after = translate(again, text, decode_defaults(again));
        CHECK(to_json(after).dump() == to_json(before).dump());
    }
}

TEST_CASE("version 4: the records a model needs must be there, of their kind, once, and not in the header too") {
    const std::vector<uint8_t> old = fixture("model-v3-subword.s2s");
    const Model model = model_from_bytes(old.data(), old.size());
    const auto without = [&](const std::string& name) {
        return with_contents(model, [&](ModelFileContents& c) {
            c.records.erase(std::find_if(c.records.begin(), c.records.end(),
                                         [&](const LoadedRecord& r) { return r.name == name; }));
        });
    };
    CHECK(refused(without("source_vocabulary")) ==
          "model file has no record 'source_vocabulary' (strings), which this model needs; the file is incomplete, "
          "download or copy it again");
    CHECK(refused(without("target_tokenizer.merges")).find("no record 'target_tokenizer.merges'") != std::string::npos);
    CHECK(refused(without("target_shortlist.triggers")).find("no record 'target_shortlist.triggers' (uint16 values)") !=
          std::string::npos);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h.erase("target_shortlist"); })) ==
          "model file has an unexpected record 'target_shortlist.triggers'; the file is damaged, download or copy it again");
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["source_tokenizer"]["kind"] = "words"; }))
              .find("unexpected record 'source_tokenizer.merges'") != std::string::npos);
    CHECK(refused(with_contents(model, [](ModelFileContents& c) { c.records.push_back(LoadedRecord{"extra", RecordDtype::kStrings, {}, 0, 0, {}}); }))
              .find("unexpected record 'extra'") != std::string::npos);
    CHECK(refused(with_contents(model, [](ModelFileContents& c) {
              for (LoadedRecord& r : c.records) {
                  if (r.name == "target_vocabulary") r = {"target_vocabulary", RecordDtype::kUint16, {}, 1, 1, {7}};
              }
          })) == "model file record 'target_vocabulary' does not hold strings; the file is damaged, download or copy it again");
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["source_vocabulary"] = {"<pad>"}; })) ==
          "model header holds 'source_vocabulary', which format version 4 stores as a record; the file is damaged, "
          "download or copy it again");
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["target_tokenizer"]["merges"] = nlohmann::json::array(); }))
              .find("merges were given twice") != std::string::npos);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["target_shortlist"]["triggers"] = ""; }))
              .find("holds 'triggers'") != std::string::npos);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["target_shortlist"]["per_target"] = 3; }))
              .find("were expected") != std::string::npos);
    CHECK(refused(with_header(model, [](nlohmann::json& h) { h["source_tokenizer"]["kind"] = 7; }))
              .find("tokenizer field \"kind\" is 7") != std::string::npos);
    // A merge that is not two pieces, and a merge whose piece is not in the vocabulary.
    CHECK(refused(with_contents(model, [](ModelFileContents& c) { record_strings(c, "source_tokenizer.merges")[0] = "ab"; }))
              .find("BPE merge 0 is \"ab\"") != std::string::npos);
    CHECK(refused(with_contents(model, [](ModelFileContents& c) { record_strings(c, "source_tokenizer.merges")[0] = "Q Z"; }))
              .find("source BPE merge 0 (\"Q Z\") needs the piece \"Q\"") != std::string::npos);
    // The vocabulary sizes are checked against the config before the tokens are copied.
    CHECK(refused(with_contents(model, [](ModelFileContents& c) { record_strings(c, "source_vocabulary").push_back("zz"); }))
              .find("the vocabularies have 61 and 80 entries but the config says 60 and 80") != std::string::npos);
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
    // The checksum covers every byte (format version 3 on), the header and the records included.
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

TEST_CASE("every shipped model is version 4 and loads, and saved again it is the same bytes") {
    // Older versions of the format are checked on tests/fixtures
    // (test_model_file.cpp); here the full-size files users get.
    for (const char* name : {"en-fr", "en-fr-fixed", "en-zh", "en-zh-fixed"}) {
        CAPTURE(name);
        const std::vector<uint8_t> shipped = read_file_bytes(std::string(S2S_SOURCE_DIR) + "/models/" + name + ".s2s");
        REQUIRE(shipped.size() > 16);
        CHECK(shipped[8] == kModelFormatVersion);
        const Model model = model_from_bytes(shipped.data(), shipped.size());
        CHECK(model.stored_dtype == TensorDtype::kInt8);
        const std::vector<uint8_t> rewritten = serialize_model(model, model.stored_dtype);  // what seq2seq convert does
        CHECK(rewritten == shipped);
        check_same(model_from_bytes(rewritten.data(), rewritten.size()), model);
    }
}

TEST_CASE("model_fingerprint: the same after an evaluation is recorded, different after any other change") {
    Model model = scaled_model(12, 5);
    const std::string before = model_fingerprint(model);
    CHECK(before.size() == 16);
    CHECK(model_fingerprint(model) == before);  // deterministic
    model.provenance["evaluations"]["dev-beam4"] = {{"bleu", 12.5}};
    CHECK(model_fingerprint(model) == before);  // a record is not what it measures
    SUBCASE("a weight") {
        model.params.output_weights(0, 0) += 0.25f;
        CHECK(model_fingerprint(model) != before);
    }
    SUBCASE("the decoding penalties") {
        model.length_penalty = 1.0;
        CHECK(model_fingerprint(model) != before);
    }
    SUBCASE("another provenance entry") {
        model.provenance["conversions"] = nlohmann::json::array({{{"to", "i8"}}});
        CHECK(model_fingerprint(model) != before);
    }
    SUBCASE("read back from its bytes (int8), the same") {
        model.stored_dtype = TensorDtype::kInt8;
        const std::vector<uint8_t> bytes = serialize_model(model, TensorDtype::kInt8);
        const Model loaded = model_from_bytes(bytes.data(), bytes.size());
        CHECK(model_fingerprint(loaded) == model_fingerprint(model_from_bytes(bytes.data(), bytes.size())));
        const std::vector<uint8_t> again = serialize_model(loaded, TensorDtype::kInt8);
        CHECK(model_fingerprint(model_from_bytes(again.data(), again.size())) == model_fingerprint(loaded));
    }
}
