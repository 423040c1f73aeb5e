// A tokenizer's settings as JSON and back (tokenizer.h): kind, language
// and a BPE tokenizer's merges, every field checked on the way in (a model
// file's header holds them, model_file.h).
#include "text/tokenizer.h"

#include "common/error.h"
#include "text/bpe.h"
#include "text/utf8.h"

namespace s2s {
namespace {

std::string json_excerpt(const nlohmann::json& value) {
    std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return text;
}

// "left right" strings, each side a non-empty piece without spaces.
// Checks merge `index`, "left right", in one pass over its bytes and
// returns where its space is (which BpeModel keeps); throws for a string
// that is not two pieces separated by one space. `check_utf8` false: a
// string of a model file's record of strings, whose UTF-8 the file reader
// has checked already (each check counts in a first model load, run in
// WebAssembly as baseline code).
uint32_t check_merge(size_t index, const std::string* text, const nlohmann::json& entry, bool check_utf8) {
    size_t space = std::string::npos;
    bool one_space = text != nullptr;
    for (size_t at = 0; one_space && at < text->size(); ++at) {
        if ((*text)[at] != ' ') continue;
        one_space = space == std::string::npos;
        space = at;
    }
    if (!one_space || space == 0 || space == std::string::npos || space + 1 >= text->size() ||
        (check_utf8 && !is_valid_utf8(*text))) {
        throw ModelFileError("BPE merge " + std::to_string(index) + " is " +
                             json_excerpt(text == nullptr ? entry : nlohmann::json(*text)) +
                             "; each merge must be two pieces separated by one space, like \"l e\" (the model "
                             "file is damaged, download or copy it again)");
    }
    return static_cast<uint32_t>(space);
}

const nlohmann::json& require_merges(const nlohmann::json& json) {
    const auto merges = json.find("merges");
    if (merges == json.end() || !merges->is_array()) {
        throw ModelFileError("a \"bpe\" tokenizer needs \"merges\", a JSON array of \"left right\" strings; the "
                             "model file is incomplete, download or copy it again");
    }
    return *merges;
}

BpeModel bpe_merges_from_json(const nlohmann::json& json) {
    const nlohmann::json& merges = require_merges(json);
    std::vector<std::string> joined;
    std::vector<uint32_t> spaces;
    joined.reserve(merges.size());
    spaces.reserve(merges.size());
    for (size_t i = 0; i < merges.size(); ++i) {
        const nlohmann::json& entry = merges[i];
        const std::string* text = entry.is_string() ? &entry.get_ref<const std::string&>() : nullptr;
        spaces.push_back(check_merge(i, text, entry, /*check_utf8=*/true));
        joined.push_back(*text);
    }
    return BpeModel::from_joined(std::move(joined), std::move(spaces));
}

// Takes the strings of `merges`, kept as they are by the model.
BpeModel bpe_merges_from_strings(const nlohmann::json& json, std::vector<std::string>& merges) {
    if (json.contains("merges")) {
        throw ModelFileError("a \"bpe\" tokenizer's merges were given twice (in the header and as a record); the "
                             "model file is damaged, download or copy it again");
    }
    std::vector<uint32_t> spaces(merges.size());
    for (size_t i = 0; i < merges.size(); ++i) spaces[i] = check_merge(i, &merges[i], nullptr, /*check_utf8=*/false);
    return BpeModel::from_joined(std::move(merges), std::move(spaces));
}

// Both tokenizer_settings_from_json: the BPE merges from `merges` when given,
// else from the JSON.
TokenizerSettings settings_from_json(const nlohmann::json& json, std::vector<std::string>* merges) {
    if (!json.is_object()) {
        throw ModelFileError("tokenizer settings must be a JSON object like {\"kind\": \"words\", \"language\": "
                             "\"en\"}, got " + json_excerpt(json) + "; re-export the model file");
    }
    TokenizerSettings settings;

    const auto kind = json.find("kind");
    if (kind == json.end()) {
        throw ModelFileError("tokenizer settings lack the field \"kind\"; add \"kind\": \"words\" or "
                             "\"characters\" (or re-export the model file)");
    }
    if (*kind == "words") {
        settings.kind = TokenizerKind::kWords;
    } else if (*kind == "characters") {
        settings.kind = TokenizerKind::kCharacters;
    } else if (*kind == "bpe") {
        settings.kind = TokenizerKind::kSubwords;
    } else {
        throw ModelFileError("tokenizer field \"kind\" is " + json_excerpt(*kind) +
                             "; it must be \"bpe\", \"words\" or \"characters\"");
    }

    const auto language = json.find("language");
    if (language == json.end()) {
        throw ModelFileError("tokenizer settings lack the field \"language\"; add \"language\": \"en\", \"fr\" "
                             "or \"zh\" (or re-export the model file)");
    }
    // Other languages are accepted (they detokenize like English) so that a
    // model for a new language pair does not need a code change to load.
    if (!language->is_string() || language->get_ref<const std::string&>().empty()) {
        throw ModelFileError("tokenizer field \"language\" is " + json_excerpt(*language) +
                             "; it must be a non-empty string such as \"en\", \"fr\" or \"zh\"");
    }
    settings.language = language->get<std::string>();
    if (settings.kind == TokenizerKind::kSubwords) {
        settings.bpe = std::make_shared<const BpeModel>(merges != nullptr ? bpe_merges_from_strings(json, *merges)
                                                                          : bpe_merges_from_json(json));
    }
    return settings;
}

}  // namespace

nlohmann::json to_json(const TokenizerSettings& settings, bool with_merges) {
    if (settings.kind == TokenizerKind::kSubwords && !with_merges) {
        return nlohmann::json{{"kind", "bpe"},
                              {"language", settings.language},
                              {"merge_count", settings.bpe ? settings.bpe->merge_count() : 0}};
    }
    if (settings.kind == TokenizerKind::kSubwords) {
        nlohmann::json merges = nlohmann::json::array();
        if (settings.bpe) {
            for (size_t i = 0; i < settings.bpe->merge_count(); ++i) merges.push_back(settings.bpe->joined(i));
        }
        return nlohmann::json{{"kind", "bpe"}, {"language", settings.language}, {"merges", merges}};
    }
    return nlohmann::json{{"kind", settings.kind == TokenizerKind::kWords ? "words" : "characters"},
                          {"language", settings.language}};
}

TokenizerSettings tokenizer_settings_from_json(const nlohmann::json& json) { return settings_from_json(json, nullptr); }

TokenizerSettings tokenizer_settings_from_json(const nlohmann::json& json, std::vector<std::string> merges) {
    return settings_from_json(json, &merges);
}

}  // namespace s2s
