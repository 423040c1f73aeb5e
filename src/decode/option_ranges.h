// The numeric options of a translation (DecodeOptions, search.h) as one
// table: for each, the name the JavaScript API gives it, its field, and its
// range. The range is written here (from the bounds of limits.h) and the
// default is the field's initializer in DecodeOptions, each once; everything
// else is derived from the two:
//   - check_option_ranges: decode() refuses a value outside its range;
//   - read_decode_options: the WebAssembly modules read translate's options
//     JSON field by field;
//   - option_ranges_json: {"beamSize": {"min", "max", "default", "integer"},
//     ...}, which both modules export (limits(), src/wasm/envelope.h) and the
//     WebAssembly build writes into dist/options.js
//     (scripts/write-option-ranges.mjs) for the JavaScript wrapper's checks,
//     the bin and the page's controls.
// So a new numeric option of translate is a field of DecodeOptions and one
// row of kOptionRanges. Its switches (trace, beamTree, shortlist,
// keepNames: true or false) are the rows of kOptionSwitches, read by
// read_decode_options too and exported by option_switches_json (the
// wrapper's checks, dist/options.js's optionSwitches). Only prefix, which
// is words, is read on its own (read_translate_options, src/wasm/envelope.h).
#pragma once

#include "common/limits.h"
#include "decode/search.h"

#include <nlohmann/json.hpp>

#include <variant>

namespace s2s {

struct OptionRange {
    const char* name;   // translate's option in the JavaScript API and the options JSON: "beamSize"
    const char* label;  // the option in error messages: "beam size"
    std::variant<int DecodeOptions::*, float DecodeOptions::*> field;  // int: whole numbers only
    double min;
    double max;
    const char* note;   // said after the range when a value is refused, or ""
    // 0, the field's default, asks for an automatic value: it is accepted
    // and exported as default null, and a value above max is capped by the
    // decoder rather than refused (max_length: 2 x source length + 10).
    bool zero_is_automatic = false;
};

inline constexpr OptionRange kOptionRanges[] = {
    {"beamSize", "beam size", &DecodeOptions::beam_size, 1, kMaxBeamSize, " (1 = greedy)"},
    {"maxLength", "max length", &DecodeOptions::max_length, 1, kMaxOutputLength, " (0 = automatic)", true},
    {"alternatives", "alternatives", &DecodeOptions::alternatives, 0, kMaxAlternatives, ""},
    {"lengthPenalty", "length penalty", &DecodeOptions::length_penalty, 0, kMaxPenalty, " (0 turns it off)"},
    {"coveragePenalty", "coverage penalty", &DecodeOptions::coverage_penalty, 0, kMaxPenalty, " (0 turns it off)"},
    {"temperature", "temperature", &DecodeOptions::temperature, kMinTemperature, kMaxTemperature,
     " (the attention softmax's tau; 1 = the trained model)"},
};

// The switches of a translation: for each, the name the JavaScript API
// gives it and its field; its default is the field's initializer in
// DecodeOptions.
struct OptionSwitch {
    const char* name;   // "beamTree"
    bool DecodeOptions::* field;
};

inline constexpr OptionSwitch kOptionSwitches[] = {
    {"trace", &DecodeOptions::trace},
    {"beamTree", &DecodeOptions::beam_tree},
    {"shortlist", &DecodeOptions::shortlist},
    {"keepNames", &DecodeOptions::keep_names},
};

// A float option as written: 0.2f reported as 0.2, not as the double it
// widens to (0.20000000298023224); the shortest decimal that reads back as
// the same float. Used for the exported defaults and the trace's temperature.
double as_written(float value);

// Throws UsageError naming the first option outside its range.
void check_option_ranges(const DecodeOptions& options);

// The options of the table and the switches that `options` (a JSON object)
// holds, over `base` (DecodeOptions' defaults, or a model's: decode_defaults
// in translator.h); a missing or null option keeps its value there.
// Throws UsageError for a value of the wrong type (not its range: decode()
// checks that). Keys the tables do not know are left to the caller.
DecodeOptions read_decode_options(const nlohmann::json& options, const DecodeOptions& base = DecodeOptions{});

// {"beamSize": 4, "maxLength": null, ..., "lengthPenalty": 0.6, ...}: the
// value of each option of the table in `options`, in the table's order;
// floats as written (as_written), null for an automatic value. With a
// model's decode_defaults (translator.h), what that model decodes with when
// no option is given (its info's decode_defaults, src/wasm/bindings.cpp).
nlohmann::ordered_json option_values_json(const DecodeOptions& options);

// {"beamSize": {"min": 1, "max": 16, "default": 1, "integer": true}, ...}:
// the table in its order (ordered_json: the JavaScript side lists the
// options in it), with each option's default read from DecodeOptions{}.
nlohmann::ordered_json option_ranges_json();

// {"trace": false, "beamTree": false, "shortlist": true, "keepNames": true}:
// each switch of kOptionSwitches in its order, with DecodeOptions' default.
nlohmann::ordered_json option_switches_json();

}  // namespace s2s
