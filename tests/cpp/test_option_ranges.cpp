// The option table (src/decode/option_ranges.h): decode() enforces exactly
// its ranges, the options JSON is read through it, and its JSON export (what
// dist/options.js is generated from) holds its ranges in its order with
// DecodeOptions' defaults.
#include "common/error.h"
#include "decode/option_ranges.h"
#include "test_helpers.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>

using namespace s2s;
using namespace s2s::testing;

namespace {

bool is_integer(const OptionRange& range) { return std::holds_alternative<int DecodeOptions::*>(range.field); }

void set(DecodeOptions& options, const OptionRange& range, double value) {
    if (is_integer(range)) {
        options.*std::get<int DecodeOptions::*>(range.field) = static_cast<int>(value);
    } else {
        options.*std::get<float DecodeOptions::*>(range.field) = static_cast<float>(value);
    }
}

double get(const DecodeOptions& options, const OptionRange& range) {
    return std::visit([&](auto field) { return static_cast<double>(options.*field); }, range.field);
}

// The next value past `value` in the direction of `toward`: one whole number,
// or the next float.
double step(const OptionRange& range, double value, double toward) {
    if (is_integer(range)) return value + (toward > value ? 1 : -1);
    return std::nextafter(static_cast<float>(value), static_cast<float>(toward));
}

}  // namespace

TEST_CASE("decode() accepts each option's range and refuses one step beyond it, naming the option") {
    const ModelConfig config = tiny_config(AttentionKind::kAdditive);
    const Parameters params = random_parameters(config, 1);
    const std::vector<int> source = {4, 5, 3};
    for (const OptionRange& range : kOptionRanges) {
        CAPTURE(range.name);
        for (double value : {range.min, range.max}) {
            DecodeOptions options;
            options.beam_size = 2;  // the penalties count in beam search only
            set(options, range, value);
            CHECK_NOTHROW(decode(params, config, source, options));
        }
        DecodeOptions below;
        set(below, range, step(range, range.min, -100));
        if (range.zero_is_automatic) {
            CHECK(get(below, range) == 0);  // one below 1 is 0: automatic, accepted
            CHECK_NOTHROW(decode(params, config, source, below));
            set(below, range, -1);
        }
        CHECK_THROWS_WITH_AS(decode(params, config, source, below), doctest::Contains(range.label), UsageError);
        DecodeOptions above;
        set(above, range, step(range, range.max, 1e6));
        if (range.zero_is_automatic) {  // capped, not refused
            const auto best = decode(params, config, source, above).front();
            CHECK(best.tokens.size() <= static_cast<size_t>(range.max));
        } else {
            char min_text[32];  // as the message writes it: "1", "0.05"
            std::snprintf(min_text, sizeof min_text, "%g", range.min);
            const std::string range_text = std::string("use ") + min_text + " to ";
            CHECK_THROWS_WITH_AS(decode(params, config, source, above), doctest::Contains(range_text.c_str()), UsageError);
        }
    }
    DecodeOptions nan;
    nan.length_penalty = std::nanf("");
    CHECK_THROWS_AS(decode(params, config, source, nan), UsageError);
}

TEST_CASE("the table's ranges are the bounds of limits.h") {
    const nlohmann::ordered_json table = option_ranges_json();
    CHECK(table["beamSize"]["max"] == kMaxBeamSize);
    CHECK(table["maxLength"]["max"] == kMaxOutputLength);
    CHECK(table["alternatives"]["max"] == kMaxAlternatives);
    CHECK(table["lengthPenalty"]["max"] == kMaxPenalty);
    CHECK(table["coveragePenalty"]["max"] == kMaxPenalty);
    CHECK(table["temperature"].dump() == R"({"min":0.05,"max":20.0,"default":1.0,"integer":false})");
}

TEST_CASE("option_ranges_json: every option of the table in its order, with DecodeOptions' defaults") {
    const nlohmann::ordered_json table = option_ranges_json();
    const DecodeOptions defaults;
    REQUIRE(table.size() == std::size(kOptionRanges));
    size_t index = 0;
    for (const auto& [name, entry] : table.items()) {
        const OptionRange& range = kOptionRanges[index++];
        CAPTURE(name);
        CHECK(name == range.name);
        CHECK(entry["min"].get<double>() == range.min);
        CHECK(entry["max"].get<double>() == range.max);
        CHECK(entry["integer"].get<bool>() == is_integer(range));
        if (range.zero_is_automatic) {
            CHECK(entry["default"].is_null());
        } else {
            CHECK(static_cast<float>(entry["default"].get<double>()) == static_cast<float>(get(defaults, range)));
        }
        CHECK(entry.size() == 4);
    }
    // Defaults as written in C++, not widened floats: JavaScript reads 0.2.
    CHECK(table["coveragePenalty"]["default"].dump() == "0.2");
    CHECK(table["beamSize"].dump() == R"({"min":1,"max":16,"default":4,"integer":true})");
}

TEST_CASE("read_decode_options reads each option of the table and keeps the defaults of those left out") {
    const DecodeOptions defaults;
    const DecodeOptions none = read_decode_options(nlohmann::json::object());
    for (const OptionRange& range : kOptionRanges) {
        CAPTURE(range.name);
        CHECK(get(none, range) == get(defaults, range));
        const nlohmann::json max = is_integer(range) ? nlohmann::json(static_cast<int>(range.max)) : nlohmann::json(range.max);
        const DecodeOptions read = read_decode_options({{range.name, max}, {"unrelated", 1}});
        CHECK(get(read, range) == range.max);
        CHECK(get(read_decode_options({{range.name, nullptr}}), range) == get(defaults, range));
        if (is_integer(range)) {
            CHECK_THROWS_WITH_AS(read_decode_options({{range.name, 1.5}}), doctest::Contains("must be a whole number"), UsageError);
        } else {
            CHECK_THROWS_WITH_AS(read_decode_options({{range.name, "1"}}), doctest::Contains("must be a number"), UsageError);
        }
    }
}

TEST_CASE("the switches: read_decode_options reads each as true or false over the base, option_switches_json exports the defaults") {
    const DecodeOptions defaults;
    const nlohmann::ordered_json table = option_switches_json();
    REQUIRE(table.size() == std::size(kOptionSwitches));
    CHECK(table.dump() == R"({"trace":false,"beamTree":false,"shortlist":true,"keepNames":true})");
    size_t index = 0;
    for (const auto& [name, fallback] : table.items()) {
        const OptionSwitch& option = kOptionSwitches[index++];
        CAPTURE(name);
        CHECK(name == option.name);
        CHECK(fallback.get<bool>() == defaults.*option.field);
        CHECK(read_decode_options(nlohmann::json::object()).*option.field == defaults.*option.field);
        CHECK(read_decode_options({{option.name, nullptr}}).*option.field == defaults.*option.field);
        for (bool value : {true, false}) CHECK(read_decode_options({{option.name, value}}).*option.field == value);
        DecodeOptions base;
        base.*option.field = !(defaults.*option.field);
        CHECK(read_decode_options(nlohmann::json::object(), base).*option.field == base.*option.field);
        CHECK_THROWS_WITH_AS(read_decode_options({{option.name, 1}}), doctest::Contains("must be true or false"), UsageError);
    }
}
