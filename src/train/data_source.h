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

// The provenance's "data" record: {"file", "fnv1a64", "pairs", "source",
// and "license" and "attribution" when known}.
nlohmann::json data_provenance(const std::string& path, const std::string& fnv1a64_hex, size_t pairs,
                               const DataSource& source);

// The provenance's record of another model file this model was made from
// (train's --init-model, --init-encoder and --teacher, convert's
// --interpolate): {"file": its file name, "fnv1a64": the hash of its bytes,
// "name": the name its own provenance records, "" if none}. Each caller
// adds what it did with that model.
nlohmann::json model_file_reference(const std::string& path, const std::string& fnv1a64_hex,
                                    const nlohmann::json& its_provenance);

}  // namespace s2s
