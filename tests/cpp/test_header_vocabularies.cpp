// The quick path for a model header's vocabularies (header_vocabularies.cpp):
// it takes the two arrays out of the JSON text only when it is sure, gives
// up otherwise (the full JSON parse then decides), and a model loads the
// same tokens either way.
#include "model/model.h"
#include "model/model_file_internal.h"
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
