// How library messages name options (src/common/option_names.h): by marker,
// {init-model}, spelled by the front end that shows them: --init-model on
// the command line, initModel in JavaScript. The library itself never
// spells a flag.
#include "common/error.h"
#include "common/option_names.h"
#include "test_helpers.h"
#include "train/shortlist_builder.h"
#include "train/weight_operations.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace s2s;

namespace {

// The message of the s2s::Error that `body` throws ("" if none).
template <typename Body>
std::string message_of(Body&& body) {
    try {
        body();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

// The string literals of a C++ source file, as written (escapes kept; raw
// strings too), outside comments and character literals.
std::vector<std::string> string_literals(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    std::vector<std::string> out;
    size_t i = 0;
    const auto skip_past = [&](const std::string& end) {
        const size_t at = source.find(end, i);
        i = at == std::string::npos ? source.size() : at + end.size();
    };
    while (i < source.size()) {
        const char c = source[i];
        if (source.compare(i, 2, "//") == 0) {
            skip_past("\n");
        } else if (source.compare(i, 2, "/*") == 0) {
            skip_past("*/");
        } else if (c == '\'') {
            for (++i; i < source.size() && source[i] != '\''; ++i) i += source[i] == '\\';
            ++i;
        } else if (c == '"' && i > 0 && source[i - 1] == 'R') {
            const size_t open = source.find('(', i);
            const std::string end = ")" + source.substr(i + 1, open - i - 1) + "\"";
            i = open + 1;
            const size_t start = i;
            skip_past(end);
            out.push_back(source.substr(start, i - end.size() - start));
        } else if (c == '"') {
            const size_t start = ++i;
            for (; i < source.size() && source[i] != '"'; ++i) i += source[i] == '\\';
            out.push_back(source.substr(start, i - start));
            ++i;
        } else {
            ++i;
        }
    }
    return out;
}

// Every .cpp and .h of the library: src/ but the front ends (cli, wasm).
std::vector<std::filesystem::path> library_sources() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(S2S_SOURCE_DIR) + "/src")) {
        const std::string folder = entry.path().parent_path().filename().string();
        const std::string ext = entry.path().extension().string();
        if (entry.is_regular_file() && folder != "cli" && folder != "wasm" && (ext == ".cpp" || ext == ".h")) {
            files.push_back(entry.path());
        }
    }
    return files;
}

}  // namespace

TEST_CASE("spell_options: a marker becomes a flag on the command line and a property name in JavaScript") {
    const std::string message = "{init-model} m.s2s has {embedding} 16; drop {init-encoder} or {max-source-words}";
    CHECK(spell_options(message, OptionStyle::kCli) == "--init-model m.s2s has --embedding 16; drop --init-encoder or --max-source-words");
    CHECK(spell_options(message, OptionStyle::kJs) == "initModel m.s2s has embedding 16; drop initEncoder or maxSourceWords");
    CHECK(spell_options("the same {flags}", OptionStyle::kCli) == "the same flags");
    CHECK(spell_options("the same {flags}", OptionStyle::kJs) == "the same options");
    // What is not a listed name stays as written: JSON, file names, a lone brace.
    const std::string other = R"(its {"embedding":16} from /tmp/{x}/{init-modell}.s2s { {} }{)";
    CHECK(spell_options(other, OptionStyle::kCli) == other);
    CHECK(spell_options(other, OptionStyle::kJs) == other);
    CHECK(spell_options("{{teacher}}", OptionStyle::kCli) == "{--teacher}");
    CHECK(spell_options("", OptionStyle::kJs).empty());
    for (std::string_view name : kOptionNames) {
        CHECK(spell_option(name, OptionStyle::kCli) == "--" + std::string(name));
        const std::string js = spell_option(name, OptionStyle::kJs);
        CHECK(std::regex_match(js, std::regex("[a-z][A-Za-z0-9]*")));
    }
}

TEST_CASE("a library error names options by marker, never by flag; the CLI's spelling gives today's text") {
    const std::vector<std::vector<int>> sources = {{4, 5}}, targets = {{4, 5}};
    const std::string always = message_of([&] { build_target_shortlist(sources, targets, 10, 24, 3, 2); });
    CHECK(always.find("--") == std::string::npos);
    CHECK(spell_options(always, OptionStyle::kCli) == "--always must be 4 to the target vocabulary size (24), not 3");
    CHECK(spell_options(always, OptionStyle::kJs) == "always must be 4 to the target vocabulary size (24), not 3");
    const std::string per_target = message_of([&] { build_target_shortlist(sources, targets, 10, 24, 16, 0); });
    CHECK(per_target.find("--") == std::string::npos);
    CHECK(spell_options(per_target, OptionStyle::kJs).rfind("perTarget must be 1 to ", 0) == 0);

    Model model, donor;
    model.config = testing::tiny_config(AttentionKind::kAdditive);
    donor.config = model.config;
    donor.config.embedding_size += 1;
    const std::string sizes = message_of([&] { init_encoder_from(model, donor, "donor.s2s"); });
    CHECK(sizes.find("--") == std::string::npos);
    CHECK(spell_options(sizes, OptionStyle::kCli) ==
          "--init-encoder donor.s2s has --embedding 6 --hidden 4; use the same sizes (and the same kind of English "
          "tokens: pieces or words)");
    const std::string whole = message_of([&] { init_model_from(model, donor, "donor.s2s"); });
    CHECK(whole.find("--") == std::string::npos);
    CHECK(spell_options(whole, OptionStyle::kJs).rfind("initModel donor.s2s has other sizes", 0) == 0);
    CHECK(spell_options(whole, OptionStyle::kJs).find("train with the size options it was trained with") != std::string::npos);
}

TEST_CASE("the library's sources spell no flag, and every marker they write is a listed option") {
    const std::regex flag("--[a-z]");
    const std::regex marker(R"(\{([a-z][a-z0-9-]*)\})");
    int files = 0, markers = 0;
    for (const auto& file : library_sources()) {
        ++files;
        for (const std::string& literal : string_literals(file)) {
            INFO(file.string() << ": \"" << literal << "\"");
            CHECK_FALSE(std::regex_search(literal, flag));
            for (std::sregex_iterator it(literal.begin(), literal.end(), marker), end; it != end; ++it) {
                const std::string name = (*it)[1];
                CHECK((is_option_name(name) || name == kFlagsMarker));
                ++markers;
            }
        }
    }
    CHECK(files > 50);
    CHECK(markers >= 30);  // src/train's messages: the scan reads them
}
