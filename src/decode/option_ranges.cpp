// The three uses of the option table (option_ranges.h): range checks, the
// options JSON read into DecodeOptions, and the table exported as JSON.
#include "decode/option_ranges.h"

#include "common/error.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace s2s {
namespace {

// A number as people write it: "16", "0.2", "5".
std::string format_number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

double value_of(const DecodeOptions& options, const OptionRange& range) {
    return std::visit([&](auto field) { return static_cast<double>(options.*field); }, range.field);
}

}  // namespace

double as_written(float value) {
    char text[32];
    for (int digits = 6; digits < 9; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(value));
        if (std::strtof(text, nullptr) == value) break;
    }
    return std::strtod(text, nullptr);
}

void check_option_ranges(const DecodeOptions& options) {
    for (const OptionRange& range : kOptionRanges) {
        const double value = value_of(options, range);
        if (range.zero_is_automatic && (value == 0 || value > range.max)) continue;  // automatic, or capped
        if (!(value >= range.min && value <= range.max)) {  // also refuses NaN
            throw UsageError(std::string(range.label) + " " + format_number(value) + " is out of range; use " +
                             format_number(range.min) + " to " + format_number(range.max) + range.note);
        }
    }
}

DecodeOptions read_decode_options(const nlohmann::json& options, const DecodeOptions& base) {
    DecodeOptions decode = base;
    for (const OptionRange& range : kOptionRanges) {
        auto it = options.find(range.name);
        if (it == options.end() || it->is_null()) continue;
        if (std::holds_alternative<int DecodeOptions::*>(range.field)) {
            if (!it->is_number_integer()) throw UsageError(std::string("option ") + range.name + " must be a whole number");
            decode.*std::get<int DecodeOptions::*>(range.field) = it->get<int>();
        } else {
            if (!it->is_number()) throw UsageError(std::string("option ") + range.name + " must be a number");
            decode.*std::get<float DecodeOptions::*>(range.field) = it->get<float>();
        }
    }
    for (const OptionSwitch& option : kOptionSwitches) {
        auto it = options.find(option.name);
        if (it == options.end() || it->is_null()) continue;
        if (!it->is_boolean()) throw UsageError(std::string("option ") + option.name + " must be true or false");
        decode.*option.field = it->get<bool>();
    }
    return decode;
}

nlohmann::ordered_json option_values_json(const DecodeOptions& options) {
    nlohmann::ordered_json values = nlohmann::ordered_json::object();
    for (const OptionRange& range : kOptionRanges) {
        if (auto field = std::get_if<int DecodeOptions::*>(&range.field)) {
            values[range.name] = options.**field;
        } else {
            values[range.name] = as_written(options.*std::get<float DecodeOptions::*>(range.field));
        }
        if (range.zero_is_automatic && value_of(options, range) == 0) values[range.name] = nullptr;
    }
    return values;
}

nlohmann::ordered_json option_ranges_json() {
    const nlohmann::ordered_json defaults = option_values_json(DecodeOptions{});
    nlohmann::ordered_json table = nlohmann::ordered_json::object();
    for (const OptionRange& range : kOptionRanges) {
        const bool integer = std::holds_alternative<int DecodeOptions::*>(range.field);
        nlohmann::ordered_json entry;
        if (integer) {
            entry = {{"min", static_cast<int>(range.min)}, {"max", static_cast<int>(range.max)}};
        } else {
            entry = {{"min", range.min}, {"max", range.max}};
        }
        entry["default"] = defaults[range.name];
        entry["integer"] = integer;
        table[range.name] = entry;
    }
    return table;
}

nlohmann::ordered_json option_switches_json() {
    const DecodeOptions defaults;
    nlohmann::ordered_json table = nlohmann::ordered_json::object();
    for (const OptionSwitch& option : kOptionSwitches) table[option.name] = defaults.*option.field;
    return table;
}

}  // namespace s2s
