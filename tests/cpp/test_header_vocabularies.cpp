// The quick path for a model header's vocabularies (header_vocabularies.cpp):
// it takes the two arrays out of the JSON text only when it is sure, gives
// up otherwise (the full JSON parse then decides), and a model loads the
// same tokens either way. Likewise the BPE merges of the two tokenizers.
#include "model/model.h"
#include "model/model_file_internal.h"
#include "text/bpe.h"
#include "model_file_bytes.h"
#include "test_helpers.h"

#include <doctest/doctest.h>

using namespace s2s;
using namespace s2s::model_file_detail;
using namespace s2s::testing;

namespace {

struct Split {
    bool ok = false;
    std::string rest;
    std::vector<std::string> source, target;
};

Split split(const std::string& text) {
    Split s;
    s.ok = split_header_vocabularies(text, s.rest, s.source, s.target);
    return s;
}

}  // namespace

TEST_CASE("the vocabularies come out of the header text; the rest keeps [] in their place") {
    const Split s = split(R"( {"a": {"b": [1, "x]"]}, "target_vocabulary": ["t\"1", "t\\2", ")" "\xC3\xA9" R"(" ], )"
                          R"("source_vocabulary":[], "z": "}"} )");
    REQUIRE(s.ok);
    CHECK(s.source.empty());
    CHECK(s.target == std::vector<std::string>{"t\"1", "t\\2", "\xC3\xA9"});
    CHECK(s.rest == R"( {"a": {"b": [1, "x]"]}, "target_vocabulary": [], "source_vocabulary":[], "z": "}"} )");
    CHECK(nlohmann::json::parse(s.rest)["z"] == "}");
}

TEST_CASE("the quick path gives up on anything outside its strict subset of JSON") {
    const char* cases[] = {
        R"({"source_vocabulary": ["\u00e9"], "target_vocabulary": []})",           // \u escape
        "{\"source_vocabulary\": [\"\xC3\"], \"target_vocabulary\": []}",           // truncated UTF-8
        "{\"source_vocabulary\": [\"\xED\xA0\x80\"], \"target_vocabulary\": []}",   // a surrogate
        "{\"source_vocabulary\": [\"\xC0\xAF\"], \"target_vocabulary\": []}",       // overlong
        "{\"source_vocabulary\": [\"a\tb\"], \"target_vocabulary\": []}",           // raw control character
        R"({"source_vocabulary": ["a",], "target_vocabulary": []})",               // trailing comma
        R"({"source_vocabulary": ["a" "b"], "target_vocabulary": []})",            // missing comma
        R"({"source_vocabulary": [1], "target_vocabulary": []})",                  // not a string
        R"({"source_vocabulary": [], "source_vocabulary": [], "target_vocabulary": []})",  // repeated key
        R"({"x": {"source_vocabulary": [], "target_vocabulary": []}})",             // not at the top level
        R"({"source_vocabulary": []})",                                             // one missing
        R"(["source_vocabulary", "target_vocabulary"])",                           // not an object
        R"({"source_vocabulary": [], "target_vocabulary": [])",                    // unterminated
    };
    for (const char* text : cases) {
        INFO(text);
        CHECK_FALSE(split(text).ok);
    }
}

TEST_CASE("a model loads the same vocabularies through the quick path and through the full parse") {
    Model model;
    model.config = tiny_config(AttentionKind::kAdditive);
    set_placeholder_vocabularies(model);
    model.params = random_parameters(model.config, 3);
    std::vector<std::string> plain = model.source_vocabulary.tokens();
    plain[4] = "caf\xC3\xA9";
    plain[5] = "a\"b\\c/d";
    plain[6] = "tab\there";
    for (const bool control : {false, true}) {
        INFO("a token that JSON writes with \\u (the full parse): " << control);
        std::vector<std::string> tokens = plain;
        if (control) tokens[7] = "bell\x07";  // written as \u0007
        model.source_vocabulary = Vocabulary::from_tokens(tokens);
        const std::vector<uint8_t> bytes = serialize_model(model);
        const ModelFileLayout layout = read_model_layout(bytes.data(), bytes.size(), /*separate_vocabularies=*/true);
        CHECK(layout.vocabularies_separate == !control);
        const Model loaded = model_from_bytes(bytes.data(), bytes.size());
        CHECK(loaded.source_vocabulary.tokens() == tokens);
        CHECK(loaded.target_vocabulary.tokens() == model.target_vocabulary.tokens());
        CHECK(loaded.provenance == model.provenance);
    }
}

namespace {

struct SplitMerges {
    bool ok = false;
    std::string rest;
    std::vector<std::string> source, target;
    HeaderMerges merges;
};

SplitMerges split_merges(const std::string& text) {
    SplitMerges s;
    s.ok = split_header_vocabularies(text, s.rest, s.source, s.target, &s.merges);
    return s;
}

// A tiny subword model: `merges` on the source side, the pieces they need
// in its vocabulary (and `extra_token`, when given, as well).
Model subword_model(const std::vector<BpeModel::Merge>& merges, const std::string& extra_token = "") {
    const std::string m(kWordMarker);
    Model model;
    model.source_tokenizer = TokenizerSettings(TokenizerKind::kSubwords, "en", std::make_shared<const BpeModel>(merges));
    model.target_tokenizer = TokenizerSettings(TokenizerKind::kWords, "fr");
    std::vector<std::string> tokens = {"<pad>", "<unk>", "<bos>", "<eos>", m, "l", "o", m + "l", m + "lo"};
    if (!extra_token.empty()) tokens.push_back(extra_token);
    model.source_vocabulary = Vocabulary::from_tokens(tokens);
    model.target_vocabulary = Vocabulary::from_tokens({"<pad>", "<unk>", "<bos>", "<eos>", "a", "b"});
    model.config = tiny_config(AttentionKind::kAdditive);
    model.config.source_vocab_size = model.source_vocabulary.size();
    model.config.target_vocab_size = model.target_vocabulary.size();
    model.params = random_parameters(model.config, 5);
    return model;
}

}  // namespace

TEST_CASE("the tokenizers' BPE merges come out of the header text too; a tokenizer without merges is left alone") {
    const SplitMerges s = split_merges(
        R"({"source_tokenizer": {"kind": "bpe", "merges": ["a b", "ab \"c"], "language": "en"}, )"
        R"("source_vocabulary": ["x"], "target_tokenizer": {"kind": "words", "language": "fr"}, "target_vocabulary": []})");
    REQUIRE(s.ok);
    CHECK(s.merges.source_found);
    CHECK_FALSE(s.merges.target_found);
    CHECK(s.merges.source == std::vector<std::string>{"a b", "ab \"c"});
    CHECK(s.rest == R"({"source_tokenizer": {"kind": "bpe", "merges": [], "language": "en"}, )"
                    R"("source_vocabulary": [], "target_tokenizer": {"kind": "words", "language": "fr"}, "target_vocabulary": []})");
    const char* give_up[] = {
        R"({"source_tokenizer": {"merges": [], "merges": []}, "source_vocabulary": [], "target_vocabulary": []})",
        R"({"source_tokenizer": {"merges": ["a b", 3]}, "source_vocabulary": [], "target_vocabulary": []})",
        R"({"source_tokenizer": {"merges": ["\u0061 b"]}, "source_vocabulary": [], "target_vocabulary": []})",
        R"({"source_tokenizer": {}, "source_tokenizer": {}, "source_vocabulary": [], "target_vocabulary": []})",
        R"({"source_tokenizer": {"merges": ["a b"] "kind": "bpe"}, "source_vocabulary": [], "target_vocabulary": []})",
    };
    for (const char* text : give_up) {
        INFO(text);
        CHECK_FALSE(split_merges(text).ok);
    }
    // Without the HeaderMerges the tokenizers stay as they are.
    Split plain = split(R"({"source_tokenizer": {"merges": ["a b"]}, "source_vocabulary": [], "target_vocabulary": []})");
    REQUIRE(plain.ok);
    CHECK(plain.rest == R"({"source_tokenizer": {"merges": ["a b"]}, "source_vocabulary": [], "target_vocabulary": []})");
}

TEST_CASE("the shortlist's base64 triggers come out of the header text too, replaced by an empty string") {
    const SplitMerges s = split_merges(
        R"({"target_shortlist": {"always": 9, "triggers": "AAB/+w==", "built_from": {"data": "t.tsv"}}, )"
        R"("source_vocabulary": [], "target_vocabulary": []})");
    REQUIRE(s.ok);
    CHECK(s.merges.shortlist_found);
    CHECK(s.merges.shortlist_triggers == "AAB/+w==");
    CHECK(s.rest == R"({"target_shortlist": {"always": 9, "triggers": "", "built_from": {"data": "t.tsv"}}, )"
                    R"("source_vocabulary": [], "target_vocabulary": []})");
    const char* give_up[] = {
        R"({"target_shortlist": {"triggers": "AA", "triggers": "BB"}, "source_vocabulary": [], "target_vocabulary": []})",
        R"({"target_shortlist": {"triggers": 3}, "source_vocabulary": [], "target_vocabulary": []})",
        R"({"target_shortlist": {"triggers": "\u0041"}, "source_vocabulary": [], "target_vocabulary": []})",
        R"({"target_shortlist": {}, "target_shortlist": {}, "source_vocabulary": [], "target_vocabulary": []})",
    };
    for (const char* text : give_up) {
        INFO(text);
        CHECK_FALSE(split_merges(text).ok);
    }
    // A shortlist that is not an object is stepped over (the full parse refuses it).
    const SplitMerges odd = split_merges(R"({"target_shortlist": 3, "source_vocabulary": [], "target_vocabulary": []})");
    REQUIRE(odd.ok);
    CHECK_FALSE(odd.merges.shortlist_found);
}

TEST_CASE("a subword model loads the same merges through the quick path and through the full parse") {
    const std::string m(kWordMarker);
    for (const bool control : {false, true}) {
        INFO("a vocabulary token that JSON writes with \\u (the full parse): " << control);
        const Model model = subword_model({{m, "l"}, {m + "l", "o"}}, control ? "bell\x07" : "");
        const std::vector<uint8_t> bytes = serialize_model(model);
        const ModelFileLayout layout = read_model_layout(bytes.data(), bytes.size(), /*separate_vocabularies=*/true);
        CHECK(layout.source_merges_separate == !control);
        CHECK_FALSE(layout.target_merges_separate);  // a word tokenizer has none
        const Model loaded = model_from_bytes(bytes.data(), bytes.size());
        REQUIRE(loaded.source_tokenizer.bpe);
        REQUIRE(loaded.source_tokenizer.bpe->merges().size() == 2);
        CHECK(loaded.source_tokenizer.bpe->merges()[1].left == m + "l");
        CHECK(loaded.source_tokenizer.bpe->merges()[1].right == "o");
        CHECK(loaded.source_tokenizer.bpe->encode("lol", "en") == model.source_tokenizer.bpe->encode("lol", "en"));
        // What a model's info shows: the merges' count, not the merges.
        const nlohmann::json info = model_header_without_vocabularies(loaded);
        CHECK(info.at("source_tokenizer") == nlohmann::json({{"kind", "bpe"}, {"language", "en"}, {"merge_count", 2}}));
        CHECK(info.at("target_tokenizer").count("merge_count") == 0);
        CHECK(model_header(loaded).at("source_tokenizer").at("merges").size() == 2);
    }
}

TEST_CASE("through the quick path a merge still needs its pieces in the vocabulary, and a bad merge is refused") {
    const std::string m(kWordMarker);
    // "o" + "x" makes "ox", which the vocabulary lacks.
    const std::vector<uint8_t> missing = serialize_model(subword_model({{m, "l"}, {"o", "x"}}));
    CHECK_THROWS_WITH_AS(model_from_bytes(missing.data(), missing.size()),
                         doctest::Contains("source BPE merge 1 (\"o x\") needs the piece \"x\""), ModelFileError);
    const std::vector<uint8_t> joined = serialize_model(subword_model({{m, "l"}, {"l", "o"}}));
    CHECK_THROWS_WITH_AS(model_from_bytes(joined.data(), joined.size()),
                         doctest::Contains("needs the piece \"lo\""), ModelFileError);
    // A merge that is not two pieces: "▁l o" patched to "▁l  " in place
    // (same length), the checksum made to match again.
    std::vector<uint8_t> bytes = serialize_model(subword_model({{m, "l"}, {m + "l", "o"}}));
    const std::string from = "\"" + m + "l o\"";
    const size_t at = std::string(bytes.begin(), bytes.end()).find(from);
    REQUIRE(at != std::string::npos);
    bytes[at + from.size() - 2] = ' ';
    reseal(bytes);
    CHECK_THROWS_WITH_AS(model_from_bytes(bytes.data(), bytes.size()), doctest::Contains(("BPE merge 1 is \"" + m + "l  \"; each merge must be two pieces").c_str()), ModelFileError);
}
