// Where a training data file came from, for a model's provenance: its
// source, license and attribution, taken from the file actually used and
// never assumed.
//
// Two places can say it, looked up in this order:
//   1. a sidecar beside the data, PATH.source.json (tiny-en-fr.tsv ->
//      tiny-en-fr.tsv.source.json):
//        {"source": "...", "license": "...", "attribution": "..."}
//      "source" is required, the other two optional; whoever puts data in
//      place says what it is.
//   2. a table of the data files this project knows (data_source.cpp), keyed
//      by the FNV-1a 64 hash of the whole file: the Tatoeba files of
//      ../shared/data/, which are read-only and cannot carry a sidecar. A
//      renamed copy is still recognized; an edited one is not taken for the
//      original.
// Neither: the source is recorded as unknown, with no license or attribution.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace s2s {

struct DataSource {
    std::string source;       // who made the data and where it is from
    std::string license;      // "" when not stated
    std::string attribution;  // "" when not stated
};

// Whether a recorded source says the data's origin is unknown (what
// data_source_of returns, and the provenance keeps, when neither place
// says it).
bool is_unknown_source(const std::string& source);

// The source of the data file at `path`, whose FNV-1a 64 hash (16 hex
// digits, file_fnv1a64_hex) is `fnv1a64_hex`. Throws DataError naming the
// sidecar when one exists but is not valid JSON of the form above.
DataSource data_source_of(const std::string& path, const std::string& fnv1a64_hex);

// The provenance's record of a data file (training_provenance.h): "data",
// and each of "extra_data" with what the run used of it.
struct DataFileRecord {
    std::string file;     // its name, without the folder
    std::string fnv1a64;  // the hash of its bytes (file_fnv1a64_hex)
    size_t pairs = 0;     // sentence pairs read from it
    DataSource source;    // "license" and "attribution" are left out when empty
};

DataFileRecord data_file_record(const std::string& path, const std::string& fnv1a64_hex, size_t pairs,
                                const DataSource& source);
nlohmann::json to_json(const DataFileRecord& record);

// to_json(data_file_record(...)): {"file", "fnv1a64", "pairs", "source",
// and "license" and "attribution" when known}.
nlohmann::json data_provenance(const std::string& path, const std::string& fnv1a64_hex, size_t pairs,
                               const DataSource& source);

// The provenance's record of another model file this model was made from
// (train's --init-model, --init-encoder and --teacher, convert's
// --interpolate). Each caller adds what it did with that model.
struct ModelFileReference {
    std::string file;     // its file name
    std::string fnv1a64;  // the hash of its bytes
    std::string name;     // the name its own provenance records, "" if none
};

ModelFileReference model_file_reference_to(const std::string& path, const std::string& fnv1a64_hex,
                                           const nlohmann::json& its_provenance);
nlohmann::json to_json(const ModelFileReference& reference);

// to_json(model_file_reference_to(...)): {"file", "fnv1a64", "name"}.
nlohmann::json model_file_reference(const std::string& path, const std::string& fnv1a64_hex,
                                    const nlohmann::json& its_provenance);

}  // namespace s2s
