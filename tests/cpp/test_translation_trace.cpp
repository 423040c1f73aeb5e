// The one serializer of a translation's trace and beam tree
// (src/decode/translation_trace.h, to_json in translator.h): the fields as
// the CLI writes them, and the WebAssembly modules' packed layout, which
// holds only places in its JSON (but a hypothesis's score and logProb) and,
// read back, gives the same numbers, the hypotheses' included.
#include "decode/translator.h"
#include "test_helpers.h"

#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using namespace s2s;
using namespace s2s::testing;

namespace {

// A translation with a hand-made trace (S = 2) and beam tree: numbers that
// print exactly, and a score that no float32 holds.
Translation hand_made() {
    Translation t;
    t.source_tokens = {"a", "<eos>"};
    TranslationTrace trace;
    trace.scoring = AttentionKind::kAdditive;
    trace.temperature = 0.7f;
    trace.keys = Matrix(1, 2);
    trace.keys << 0.5f, -0.25f;
    trace.states = Matrix(2, 2);
    trace.states << 1.0f, 2.0f, 3.0f, 4.0f;
    TranslationTrace::Step step;
    step.previous_state = {0.125f};
    step.query = {-1.5f};
    step.scores = {2.0f, -2.0f};
    step.weights = {0.75f, 0.25f};
    step.context = {1.25f, 3.25f};
    step.top = {{"x", 0.5f}, {"y", 0.0625f}};
    trace.steps.push_back(step);
    t.trace = trace;
    t.beam_tree = BeamTree{{{"x", -1, -0.6931471805599453, true, {0.75f, 0.25f}}, {"y", -1, -2.75, false, {}}},
                           {{"<eos>", 0, -1.2345678901234, true, {0.5f, 0.5f}}}};
    return t;
}

// The packed layout read back as src/wasm/translation.js reads it: each
// place replaced by the numbers it points at.
nlohmann::json unpack_floats(const nlohmann::json& place, const std::vector<float>& packed) {
    if (place.is_null()) return place;
    const size_t offset = place.at(0).get<size_t>();
    const size_t length = place.at(1).get<size_t>();
    REQUIRE(offset + length <= packed.size());
    return std::vector<float>(packed.begin() + static_cast<std::ptrdiff_t>(offset),
                              packed.begin() + static_cast<std::ptrdiff_t>(offset + length));
}

nlohmann::json unpack_float64(const nlohmann::json& place, const std::vector<float>& packed) {
    const size_t offset = place.get<size_t>();
    REQUIRE(offset + 2 <= packed.size());
    double value;
    std::memcpy(&value, packed.data() + offset, sizeof value);
    return value;
}

nlohmann::json unpack(nlohmann::json out, const std::vector<float>& packed) {
    if (out.contains("trace")) {
        nlohmann::json& trace = out["trace"];
        trace["temperature"] = unpack_float64(trace["temperature"], packed);
        for (const char* side : {"keys", "states"}) {
            if (trace[side].is_null()) continue;
            for (auto& column : trace[side]) column = unpack_floats(column, packed);
        }
        for (auto& step : trace["steps"]) {
            for (const char* field : {"previousState", "query", "scores", "weights", "context"}) step[field] = unpack_floats(step[field], packed);
            for (auto& piece : step["top"]) piece["probability"] = packed.at(piece["probability"].get<size_t>());
        }
    }
    for (auto& h : out["hypotheses"]) {
        for (const char* field : {"coverage", "tokenProbabilities", "wordProbabilities"}) h[field] = unpack_floats(h[field], packed);
        if (!h.contains("alternatives")) continue;
        for (auto& position : h["alternatives"]) {
            for (auto& choice : position) choice["logProb"] = packed.at(choice["logProb"].get<size_t>());
        }
    }
    if (out.contains("beamTree")) {
        for (auto& nodes : out["beamTree"]) {
            for (auto& node : nodes) {
                node["score"] = unpack_float64(node["score"], packed);
                if (node.contains("attention")) node["attention"] = unpack_floats(node["attention"], packed);
            }
        }
    }
    return out;
}

// The hypotheses but their attention, which the modules read from the
// matrices themselves (test_translator.cpp checks it).
nlohmann::json but_attention(nlohmann::json hypotheses) {
    for (auto& h : hypotheses) h.erase("attention");
    return hypotheses;
}

// True when no number in `j` has a fractional form: places only.
bool integers_only(const nlohmann::json& j) {
    if (j.is_number_float()) return false;
    if (j.is_structured()) {
        for (const auto& item : j) {
            if (!integers_only(item)) return false;
        }
    }
    return true;
}

}  // namespace

TEST_CASE("the trace and the beam tree as the CLI writes them, and packed for the modules with the same numbers") {
    const Translation t = hand_made();
    const nlohmann::json document = to_json(t);
    CHECK(document.at("trace").dump() ==
          R"({"keys":[[0.5],[-0.25]],"scoring":"additive","states":[[1.0,3.0],[2.0,4.0]],)"
          R"("steps":[{"context":[1.25,3.25],"previousState":[0.125],"query":[-1.5],"scores":[2.0,-2.0],)"
          R"("top":[{"probability":0.5,"token":"x"},{"probability":0.0625,"token":"y"}],"weights":[0.75,0.25]}],)"
          R"("temperature":0.7})");
    CHECK(document.at("beamTree").dump() ==
          R"([[{"attention":[0.75,0.25],"kept":true,"parent":-1,"score":-0.6931471805599453,"token":"x"},)"
          R"({"kept":false,"parent":-1,"score":-2.75,"token":"y"}],)"
          R"([{"attention":[0.5,0.5],"kept":true,"parent":0,"score":-1.2345678901234,"token":"<eos>"}]])");

    std::vector<float> packed = {42.0f};  // cleared first
    const nlohmann::json places = to_json(t, TranslationLayout::kHypothesesOnly, &packed);
    CHECK(integers_only(places.at("trace")));
    CHECK(integers_only(places.at("beamTree")));
    // Each float once, each double in two slots: the temperature (2), the
    // keys (2), the states (4), the step (10, its top's probabilities
    // included); the tree's 3 scores (6) and 2 attention rows (4).
    CHECK(packed.size() == 2 + 2 + 4 + 10 + 6 + 4);
    const nlohmann::json read_back = unpack(places, packed);
    CHECK(read_back.at("trace") == document.at("trace"));
    CHECK(read_back.at("beamTree") == document.at("beamTree"));
    CHECK(read_back.at("beamTree")[1][0].at("score").get<double>() == -1.2345678901234);  // bit for bit, not a float32

    // The fixed-context model: no keys, and null where it has no attention.
    Translation fixed = hand_made();
    fixed.trace->scoring = AttentionKind::kNone;
    fixed.trace->keys = Matrix();
    fixed.trace->steps[0].query.clear();
    fixed.trace->steps[0].scores.clear();
    fixed.trace->steps[0].weights.clear();
    const nlohmann::json fixed_document = to_json(fixed);
    CHECK(fixed_document.at("trace").at("keys").is_null());
    CHECK(fixed_document.at("trace").at("steps")[0].at("weights").is_null());
    CHECK(unpack(to_json(fixed, TranslationLayout::kHypothesesOnly, &packed), packed).at("trace") == fixed_document.at("trace"));

    // Neither asked for: neither written; the packed layout needs its array.
    Translation plain = hand_made();
    plain.trace.reset();
    plain.beam_tree.reset();
    CHECK_FALSE(to_json(plain).contains("trace"));
    CHECK_FALSE(to_json(plain, TranslationLayout::kHypothesesOnly, &packed).contains("beamTree"));
    CHECK(packed.empty());
    CHECK_THROWS_AS(to_json(t, TranslationLayout::kHypothesesOnly), std::invalid_argument);
    CHECK_THROWS_AS(to_json(plain, TranslationLayout::kHypothesesOnly), std::invalid_argument);  // it packs the hypotheses too
}

TEST_CASE("a hypothesis's floats packed for the modules: places in the JSON, the same numbers; its doubles as JSON numbers") {
    Translation t = hand_made();
    t.trace.reset();
    t.beam_tree.reset();
    TranslationHypothesis h;
    h.text = "x";
    h.target_tokens = {"x", "<eos>"};
    h.target_words = {{"x", 0, 1}};
    h.coverage = {1.5f, 0.5f};
    h.token_probabilities = {0.25f, 0.75f};
    h.word_probabilities = {0.25f};
    h.alternatives = {{{"x", -0.125f}, {"y", -std::numeric_limits<float>::infinity()}}, {{"<eos>", -0.5f}}};
    h.score = -0.6931471805599453;  // no float32 holds these
    h.log_prob = -1.2345678901234;
    t.hypotheses = {h, h};
    const nlohmann::json document = to_json(t);
    // JSON has no infinity: the document writes null, the packed array keeps
    // -inf (JavaScript reads both as an impossible token).
    CHECK(document.at("hypotheses")[0].at("alternatives")[0].dump() == R"([{"logProb":-0.125,"token":"x"},{"logProb":null,"token":"y"}])");
    std::vector<float> packed;
    nlohmann::json places = to_json(t, TranslationLayout::kHypothesesOnly, &packed);
    // Each hypothesis: coverage (2), token and word probabilities (3), the alternatives' log probabilities (3).
    CHECK(packed.size() == 2 * (2 + 3 + 3));
    for (auto& hypothesis : places.at("hypotheses")) {
        CHECK(hypothesis.at("score").get<double>() == -0.6931471805599453);
        CHECK(hypothesis.at("logProb").get<double>() == -1.2345678901234);
        hypothesis.erase("score");
        hypothesis.erase("logProb");
        CHECK(integers_only(hypothesis));
    }
    const nlohmann::json read_back = unpack(to_json(t, TranslationLayout::kHypothesesOnly, &packed), packed);
    CHECK(but_attention(read_back.at("hypotheses")) == but_attention(document.at("hypotheses")));
}

TEST_CASE("a decoded translation's trace, beam tree and hypotheses: packed and read back, the document's numbers") {
    Model model = scaled_model(13, 7);
    DecodeOptions options;
    options.beam_size = 3;
    options.alternatives = 3;
    options.trace = true;
    options.beam_tree = true;
    const Translation t = translate(model, "s4 s5 s6 s7 s8", options);
    REQUIRE(t.trace.has_value());
    REQUIRE(t.beam_tree.has_value());
    REQUIRE(t.best() != nullptr);
    REQUIRE(t.trace->steps.size() == t.best()->target_tokens.size());
    for (size_t r = 0; r < t.trace->steps.size(); ++r) CHECK(t.trace->steps[r].weights == t.best()->attention[r]);
    CHECK(t.trace->steps[0].top.size() == static_cast<size_t>(kTraceTopK));
    for (const TranslationTrace::Piece& p : t.trace->steps[0].top) {  // named from the target vocabulary
        CHECK(model.target_vocabulary.token(model.target_vocabulary.id(p.token)) == p.token);
    }
    std::vector<float> packed;
    const nlohmann::json places = to_json(t, TranslationLayout::kHypothesesOnly, &packed);
    CHECK(integers_only(places.at("trace")));
    CHECK(integers_only(places.at("beamTree")));
    const nlohmann::json document = to_json(t);
    const nlohmann::json read_back = unpack(places, packed);
    CHECK(read_back.at("trace") == document.at("trace"));
    CHECK(read_back.at("beamTree") == document.at("beamTree"));
    CHECK(but_attention(read_back.at("hypotheses")) == but_attention(document.at("hypotheses")));
    // Not asked for: absent (and the empty input has neither).
    CHECK_FALSE(translate(model, "s4 s5", DecodeOptions{}).trace.has_value());
    CHECK_FALSE(translate(model, "   ", options).trace.has_value());
}
