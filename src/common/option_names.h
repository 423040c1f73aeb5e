// How a library message names an option. The library (src/train, ...)
// does not know who set an option: a flag of the command line, a property
// of a JavaScript call, a test. So its messages write an option as a
// marker, `{init-model}`, and the front end that shows the message spells
// the markers in its own terms with spell_options():
//
//   OptionStyle::kCli  --init-model   (src/cli/main.cpp, where errors are printed)
//   OptionStyle::kJs   initModel      (src/wasm/envelope.h, where errors cross to JavaScript)
//
// One more marker is a word, not an option: `{flags}` is "flags" on the
// command line and "options" in JavaScript.
//
// Only the names listed in kOptionNames are markers: a message also holds
// file names and JSON, and a `{...}` in those is left as it is.
// tests/cpp/test_option_names.cpp checks that every marker in the library's
// sources is listed here, and that no library message spells a flag.
#pragma once

#include <string>
#include <string_view>

namespace s2s {

enum class OptionStyle {
    kCli,  // command-line flags: --init-model
    kJs,   // JavaScript property names: initModel
};

// The options library messages name, as markers (`{name}`): the CLI's flag
// without its dashes.
inline constexpr std::string_view kOptionNames[] = {
    "always",        "average-last",     "checkpoint-dir", "checkpoint-every", "dev-fraction",
    "embedding",     "exclude-sources",  "hidden",         "init-encoder",     "init-model",
    "max-source-words", "min-frequency", "per-target",     "piece-dropout",    "source-pieces",
    "target-language",  "target-pieces", "teacher",        "teacher-weight",
};

// The word for a set of options: `{flags}`.
inline constexpr std::string_view kFlagsMarker = "flags";

inline bool is_option_name(std::string_view name) {
    for (std::string_view known : kOptionNames) {
        if (known == name) return true;
    }
    return false;
}

// One option's name (as listed in kOptionNames) in `style`.
inline std::string spell_option(std::string_view name, OptionStyle style) {
    if (style == OptionStyle::kCli) return "--" + std::string(name);
    std::string camel;
    bool upper = false;
    for (char c : name) {
        if (c == '-') {
            upper = true;
            continue;
        }
        camel += upper ? static_cast<char>(c - 'a' + 'A') : c;
        upper = false;
    }
    return camel;
}

// `message` with each marker spelled in `style`; the rest unchanged.
inline std::string spell_options(std::string_view message, OptionStyle style) {
    std::string out;
    out.reserve(message.size() + 16);
    size_t at = 0;
    while (at < message.size()) {
        const size_t open = message.find('{', at);
        if (open == std::string_view::npos) break;
        const size_t close = message.find('}', open + 1);
        if (close == std::string_view::npos) break;
        const std::string_view name = message.substr(open + 1, close - open - 1);
        out.append(message.substr(at, open - at));
        if (is_option_name(name)) {
            out += spell_option(name, style);
        } else if (name == kFlagsMarker) {
            out += style == OptionStyle::kCli ? "flags" : "options";
        } else {
            out.append(message.substr(open, 1));  // not a marker: keep the brace, look again after it
            at = open + 1;
            continue;
        }
        at = close + 1;
    }
    out.append(message.substr(at));
    return out;
}

}  // namespace s2s
