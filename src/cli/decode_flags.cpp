// Reading translate's numeric flags through the option table (decode_flags.h).
#include "cli/decode_flags.h"

#include "common/error.h"
#include "decode/option_ranges.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace s2s::cli {
namespace {

const OptionRange& option_range(const char* option) {
    for (const OptionRange& range : kOptionRanges) {
        if (std::strcmp(range.name, option) == 0) return range;
    }
    throw std::logic_error(std::string("no option '") + option + "' in the option table (src/decode/option_ranges.h)");
}

std::string number_text(const nlohmann::ordered_json& value, bool as_real = false) {
    if (value.is_null()) return "automatic";
    if (value.is_number_integer()) return std::to_string(value.get<long>());
    char text[32];
    std::snprintf(text, sizeof text, "%g", value.get<double>());
    std::string out = text;
    if (as_real && out.find_first_of(".e") == std::string::npos) out += ".0";  // a real default: "1.0"
    return out;
}

}  // namespace

DecodeOptions read_decode_flags(const Args& args, const DecodeOptions& base) {
    DecodeOptions options = base;
    for (const DecodeFlag& flag : kDecodeFlags) {
        if (!args.has(flag.flag)) continue;
        const OptionRange& range = option_range(flag.option);
        // Any number is read here; the table's check below names the range.
        const std::string text = args.string(flag.flag, "");
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value)) {
            throw UsageError(std::string("--") + flag.flag + " must be a number (" + decode_flag_range(flag.option) +
                             "), not '" + text + "'");
        }
        if (std::holds_alternative<int DecodeOptions::*>(range.field)) {
            if (std::floor(value) != value || std::fabs(value) > INT_MAX) {
                throw UsageError(std::string("--") + flag.flag + " must be a whole number (" +
                                 decode_flag_range(flag.option) + "), not '" + text + "'");
            }
        }
        // Checked alone (the other options at their defaults, which are in
        // range) so that the message can name the flag.
        DecodeOptions single;
        for (DecodeOptions* target : {&options, &single}) {
            std::visit([&](auto field) { target->*field = static_cast<std::remove_reference_t<decltype(target->*field)>>(value); },
                       range.field);
        }
        try {
            check_option_ranges(single);
        } catch (const UsageError& error) {
            throw UsageError(std::string("--") + flag.flag + ": " + error.what());
        }
    }
    if (args.has("shortlist")) {
        const std::string text = args.string("shortlist", "");
        if (text != "on" && text != "off") {
            throw UsageError("--shortlist must be on or off (the model's lexical shortlist, when it has one), not '" +
                             text + "'");
        }
        options.shortlist = text == "on";
    }
    if (args.has("keep-names")) {
        const std::string text = args.string("keep-names", "");
        if (text != "on" && text != "off") {
            throw UsageError("--keep-names must be on or off (names and numbers written as the source spells them), "
                             "not '" + text + "'");
        }
        options.keep_names = text == "on";
    }
    return options;
}

std::string decode_flag_range(const char* option) {
    const auto json = option_ranges_json().at(option);
    return number_text(json.at("min")) + " to " + number_text(json.at("max"));
}

std::string decode_flag_default_value(const char* option) {
    return number_text(option_ranges_json().at(option).at("default"), true);
}

std::string decode_flag_default(const char* option) { return "(default " + decode_flag_default_value(option) + ")"; }

}  // namespace s2s::cli
