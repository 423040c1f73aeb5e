// The source of a training data file: its sidecar, or the table of known
// files below (data_source.h).
#include "train/data_source.h"

#include "common/error.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace s2s {
namespace {

// The data files this project trains on, by the FNV-1a 64 hash of their
// bytes: sentence pairs from the Tatoeba Project, as packaged by
// manythings.org/anki, which ask for the attribution below.
struct KnownDataFile {
    const char* fnv1a64;
    const char* name;  // as shipped, for the reader of this table
};

constexpr const char* kTatoebaSource = "Tatoeba Project (tatoeba.org), via manythings.org/anki";
constexpr const char* kTatoebaLicense = "CC-BY 2.0 France";
constexpr const char* kTatoebaAttribution = "Tatoeba.org and manythings.org/anki";

constexpr KnownDataFile kTatoebaFiles[] = {
    {"085a88cc9ce2cf68", "fra-eng.txt (English-French, release of 2017-09-29, 139,505 pairs)"},
    {"79d357b213845f4a", "cmn-eng.txt (English-Chinese, 27,894 pairs)"},
};

std::string sidecar_path(const std::string& path) { return path + ".source.json"; }

std::string string_field(const nlohmann::json& sidecar, const char* field, const std::string& where, bool required) {
    const auto it = sidecar.find(field);
    if (it == sidecar.end() || it->is_null()) {
        if (required) throw DataError(where + " has no \"" + field + "\"; say where the data comes from");
        return "";
    }
    if (!it->is_string()) throw DataError(where + ": \"" + field + "\" must be a string");
    return it->get<std::string>();
}

constexpr const char* kUnknownSource = "unknown";

}  // namespace

bool is_unknown_source(const std::string& source) { return source.rfind(kUnknownSource, 0) == 0; }

DataSource data_source_of(const std::string& path, const std::string& fnv1a64_hex) {
    const std::string sidecar = sidecar_path(path);
    if (std::filesystem::exists(sidecar)) {
        std::ifstream in(sidecar, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        if (!in) throw DataError("cannot read " + sidecar + "; check its permissions");
        nlohmann::json json;
        try {
            json = nlohmann::json::parse(text.str());
        } catch (const nlohmann::json::exception& e) {
            throw DataError(sidecar + " is not valid JSON (" + e.what() +
                            "); write {\"source\": ..., \"license\": ..., \"attribution\": ...}");
        }
        if (!json.is_object()) throw DataError(sidecar + " must hold a JSON object with \"source\", \"license\", \"attribution\"");
        return {string_field(json, "source", sidecar, true), string_field(json, "license", sidecar, false),
                string_field(json, "attribution", sidecar, false)};
    }
    for (const KnownDataFile& known : kTatoebaFiles) {
        if (fnv1a64_hex == known.fnv1a64) return {kTatoebaSource, kTatoebaLicense, kTatoebaAttribution};
    }
    return {std::string(kUnknownSource) + ": no " + std::filesystem::path(sidecar).filename().string() +
                " beside the data, and not a data file this project knows (src/train/data_source.cpp)",
            "", ""};
}

DataFileRecord data_file_record(const std::string& path, const std::string& fnv1a64_hex, size_t pairs,
                                const DataSource& source) {
    return {std::filesystem::path(path).filename().string(), fnv1a64_hex, pairs, source};
}

nlohmann::json to_json(const DataFileRecord& record) {
    nlohmann::json json = {{"file", record.file},
                           {"fnv1a64", record.fnv1a64},
                           {"pairs", record.pairs},
                           {"source", record.source.source}};
    if (!record.source.license.empty()) json["license"] = record.source.license;
    if (!record.source.attribution.empty()) json["attribution"] = record.source.attribution;
    return json;
}

nlohmann::json data_provenance(const std::string& path, const std::string& fnv1a64_hex, size_t pairs,
                               const DataSource& source) {
    return to_json(data_file_record(path, fnv1a64_hex, pairs, source));
}

ModelFileReference model_file_reference_to(const std::string& path, const std::string& fnv1a64_hex,
                                           const nlohmann::json& its_provenance) {
    const auto name = its_provenance.is_object() ? its_provenance.find("name") : its_provenance.end();
    const bool named = name != its_provenance.end() && name->is_string();
    return {std::filesystem::path(path).filename().string(), fnv1a64_hex, named ? name->get<std::string>() : ""};
}

nlohmann::json to_json(const ModelFileReference& reference) {
    return {{"file", reference.file}, {"fnv1a64", reference.fnv1a64}, {"name", reference.name}};
}

nlohmann::json model_file_reference(const std::string& path, const std::string& fnv1a64_hex,
                                    const nlohmann::json& its_provenance) {
    return to_json(model_file_reference_to(path, fnv1a64_hex, its_provenance));
}

}  // namespace s2s
