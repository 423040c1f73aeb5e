// A model read from its file's bytes (model.h): the header's fields, the
// vocabularies and tokenizers (records from format version 4 on, header
// fields before), the tensor table checked against the configuration, and
// the int8 step weights kept for decoding. Writing it: model_header.cpp.
#include "model/model.h"

#include "common/error.h"
#include "common/limits.h"
#include "model/model_records.h"
#include "text/bpe.h"
#include "text/utf8.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <string_view>

namespace s2s {

using namespace model_records;

namespace {

const nlohmann::json& require(const nlohmann::json& header, const char* field) {
    auto it = header.find(field);
    if (it == header.end()) {
        throw ModelFileError(std::string("model header has no '") + field +
                             "' field; the file was not written by this project's `seq2seq train`");
    }
    return *it;
}

// Whether the vocabulary ends with the merges' pieces in merge order, as
// `train` writes it (the alphabet, then each merge's piece once: BpeModel::
// learn): then every piece a merge makes has an embedding row, checked with
// one comparison each instead of three lookups (a tenth of a first model
// load in WebAssembly, run as baseline code).
bool merge_pieces_end_vocabulary(const BpeModel& bpe, const Vocabulary& vocabulary) {
    const std::vector<std::string>& tokens = vocabulary.tokens();
    const size_t merges = bpe.merge_count();
    if (tokens.size() < merges + Vocabulary::kNumSpecial) return false;
    const size_t first = tokens.size() - merges;
    for (size_t i = 0; i < merges; ++i) {
        // The piece is the merge's text "left right" without its space: two
        // byte comparisons, on either side of the space.
        const std::string& token = tokens[first + i];
        const std::string& joined = bpe.joined(i);
        const size_t space = bpe.left(i).size();
        if (token.size() + 1 != joined.size() || std::memcmp(token.data(), joined.data(), space) != 0 ||
            std::memcmp(token.data() + space, joined.data() + space + 1, token.size() - space) != 0) {
            return false;
        }
    }
    return true;
}

// Every piece a merge makes must have an embedding row: otherwise encoding
// would turn a known word into <unk>. A vocabulary as `train` writes it
// passes at once; any other is checked piece by piece, the two a merge
// joins included, and the first missing one is named.
void check_subword_vocabulary(const TokenizerSettings& tokenizer, const Vocabulary& vocabulary, const char* side) {
    if (tokenizer.kind != TokenizerKind::kSubwords) return;
    const BpeModel& bpe = *tokenizer.bpe;
    if (merge_pieces_end_vocabulary(bpe, vocabulary)) return;
    // Vocabulary::id gives kUnk for "<unk>" itself too, which reads as missing.
    const auto has = [&](std::string_view left, std::string_view right) {
        return vocabulary.id(left, right) != Vocabulary::kUnk;
    };
    for (size_t i = 0; i < bpe.merge_count(); ++i) {
        const std::string_view left = bpe.left(i), right = bpe.right(i);
        const bool has_left = has(left, {}), has_right = has(right, {});
        if (has_left && has_right && has(left, right)) continue;
        const std::string piece = !has_left ? std::string(left) : !has_right ? std::string(right) : std::string(left).append(right);
        throw ModelFileError(std::string(side) + " BPE merge " + std::to_string(i) + " (\"" +
                             sanitize_utf8(left.substr(0, 40)) + " " + sanitize_utf8(right.substr(0, 40)) +
                             "\") needs the piece \"" + sanitize_utf8(piece.substr(0, 80)) + "\", which is not in the " +
                             side + " vocabulary; the file is damaged, download or copy it again");
    }
}

// The int8 copy in `weights` of the tensor called `name` (for_each_tensor's
// names), or null for a tensor decoding never reads as int8.
Int8Matrix* int8_copy_for(Int8StepWeights& weights, const std::string& name) {
    if (name == "attention_query") return &weights.attention_query;
    if (name == "decoder.input_weights") return &weights.decoder_input;
    if (name == "decoder.state_weights") return &weights.decoder_state;
    if (name == "output_hidden_weights") return &weights.output_hidden_weights;
    if (name == "output_weights") return &weights.output_weights;
    return nullptr;
}

[[noreturn]] void throw_vocabulary_sizes(const ModelConfig& config, uint64_t source, uint64_t target) {
    throw ModelFileError("model header: the vocabularies have " + std::to_string(source) + " and " +
                         std::to_string(target) + " entries but the config says " +
                         std::to_string(config.source_vocab_size) + " and " + std::to_string(config.target_vocab_size) +
                         "; the file is corrupted");
}

// The record called `name` of a version 4 file, or null.
const RecordLayout* find_record(const ModelFileLayout& layout, std::string_view name) {
    for (const RecordLayout& record : layout.records) {
        if (record.name == name) return &record;
    }
    return nullptr;
}

const RecordLayout& require_record(const ModelFileLayout& layout, const char* name, RecordDtype dtype) {
    const char* kind = dtype == RecordDtype::kStrings ? "strings" : "uint16 values";
    const RecordLayout* record = find_record(layout, name);
    if (record == nullptr) {
        throw ModelFileError(std::string("model file has no record '") + name + "' (" + kind +
                             "), which this model needs; the file is incomplete, download or copy it again");
    }
    if (record->dtype != dtype) {
        throw ModelFileError(std::string("model file record '") + name + "' does not hold " + kind +
                             "; the file is damaged, download or copy it again");
    }
    return *record;
}

std::vector<std::string> record_strings(const uint8_t* bytes, const RecordLayout& record) {
    // One copy of each string, into the storage of the vocabulary or the
    // BPE model (both hand out std::string references to their users).
    const StringTableView view(bytes, record);
    std::vector<std::string> strings;
    strings.reserve(view.size());
    for (size_t i = 0; i < view.size(); ++i) strings.emplace_back(view[i]);
    return strings;
}

// Format version 4: the tokenizers, the vocabularies (after the sizes in
// the config, so that a damaged count costs nothing) and, checked in
// model_from_layout, the shortlist's triggers come from records; every
// record must be one of these, and the header must not hold them too.
void read_records(const ModelFileLayout& layout, const uint8_t* bytes, Model& model) {
    const nlohmann::json& header = layout.header;
    for (const char* key : {kSourceVocabulary, kTargetVocabulary}) {
        if (header.contains(key)) {
            throw ModelFileError(std::string("model header holds '") + key + "', which format version " +
                                 std::to_string(layout.version) +
                                 " stores as a record; the file is damaged, download or copy it again");
        }
    }
    const auto tokenizer = [&](const char* key, const char* merges_name) {
        const nlohmann::json& json = require(header, key);
        const auto kind = json.is_object() ? json.find("kind") : json.end();
        if (json.is_object() && kind != json.end() && *kind == "bpe") {
            return tokenizer_settings_from_json(json, record_strings(bytes, require_record(layout, merges_name, RecordDtype::kStrings)));
        }
        return tokenizer_settings_from_json(json);
    };
    model.source_tokenizer = tokenizer("source_tokenizer", kSourceMerges);
    model.target_tokenizer = tokenizer("target_tokenizer", kTargetMerges);
    for (const RecordLayout& record : layout.records) {
        const bool expected =
            record.name == kSourceVocabulary || record.name == kTargetVocabulary ||
            (record.name == kSourceMerges && model.source_tokenizer.kind == TokenizerKind::kSubwords) ||
            (record.name == kTargetMerges && model.target_tokenizer.kind == TokenizerKind::kSubwords) ||
            (record.name == kShortlistTriggers && header.contains("target_shortlist"));
        if (!expected) {
            throw ModelFileError("model file has an unexpected record '" + record.name +
                                 "'; the file is damaged, download or copy it again");
        }
    }
    const RecordLayout& source = require_record(layout, kSourceVocabulary, RecordDtype::kStrings);
    const RecordLayout& target = require_record(layout, kTargetVocabulary, RecordDtype::kStrings);
    if (source.rows != static_cast<uint32_t>(model.config.source_vocab_size) ||
        target.rows != static_cast<uint32_t>(model.config.target_vocab_size)) {
        throw_vocabulary_sizes(model.config, source.rows, target.rows);
    }
    // The file reader has checked every string's UTF-8.
    model.source_vocabulary = Vocabulary::from_tokens(record_strings(bytes, source), /*utf8_checked=*/true);
    model.target_vocabulary = Vocabulary::from_tokens(record_strings(bytes, target), /*utf8_checked=*/true);
}

// Versions 1 to 3: the tokenizers (with their merges) and the
// vocabularies are fields of the header (format/legacy.h).
void read_header_vocabularies(const nlohmann::json& header, Model& model) {
    model.source_tokenizer = tokenizer_settings_from_json(require(header, "source_tokenizer"));
    model.target_tokenizer = tokenizer_settings_from_json(require(header, "target_tokenizer"));
    model.source_vocabulary = Vocabulary::from_json(require(header, "source_vocabulary"));
    model.target_vocabulary = Vocabulary::from_json(require(header, "target_vocabulary"));
}

// The header's optional fields: provenance, the decoding penalties, the
// shortlist and an int8 file's levels, each checked.
void read_optional_fields(const ModelFileLayout& layout, const uint8_t* bytes, Model& model) {
    const nlohmann::json& header = layout.header;
    if (auto it = header.find("provenance"); it != header.end()) model.provenance = *it;
    if (auto it = header.find("decoding"); it != header.end()) {
        if (!it->is_object()) throw ModelFileError("model header 'decoding' must be an object; the file is damaged, download or copy it again");
        for (auto& [key, field] : {std::pair{"length_penalty", &model.length_penalty},
                                   std::pair{"coverage_penalty", &model.coverage_penalty}}) {
            const auto value = it->find(key);
            if (value == it->end()) continue;
            if (!value->is_number() || !(value->get<double>() >= 0.0 && value->get<double>() <= kMaxPenalty)) {
                throw ModelFileError(std::string("model header 'decoding' has ") + key + " " + value->dump() +
                                     ", not a number from 0 to " + std::to_string(static_cast<int>(kMaxPenalty)) +
                                     "; the file is damaged, download or copy it again");
            }
            *field = value->get<double>();
        }
    }
    if (auto it = header.find("target_shortlist"); it != header.end()) {
        if (layout.version >= kStringRecordsVersion) {
            const RecordLayout& triggers = require_record(layout, kShortlistTriggers, RecordDtype::kUint16);
            model.target_shortlist =
                target_shortlist_from_record(*it, model.config.source_vocab_size, model.config.target_vocab_size,
                                             bytes + triggers.offset, triggers.rows, triggers.cols);
        } else {
            model.target_shortlist =
                target_shortlist_from_json(*it, model.config.source_vocab_size, model.config.target_vocab_size);
        }
    }
    if (auto it = header.find("int8_levels"); it != header.end()) {
        if (!it->is_number_integer() || it->get<long long>() < 1 || it->get<long long>() > kMaxInt8Levels) {
            throw ModelFileError(
                "model header 'int8_levels' must be an integer from 1 to 127; the file is damaged, download or copy it again");
        }
        model.int8_levels = static_cast<int>(it->get<long long>());
    }
}

// The file's tensors by name, checked against the configuration's shapes
// before anything is allocated, so a header with huge sizes cannot ask for
// more memory than the file's own tensors hold.
std::map<std::string, const TensorLayout*> checked_tensor_table(const ModelFileLayout& layout, const ModelConfig& config) {
    const std::vector<TensorShape> shapes = parameter_shapes(config);
    std::map<std::string, const TensorLayout*> table;
    for (const auto& t : layout.tensors) table[t.name] = &t;
    for (const TensorShape& shape : shapes) {
        auto it = table.find(shape.name);
        if (it == table.end()) {
            throw ModelFileError("model file has no tensor '" + shape.name + "', which a " +
                                 attention_kind_name(config.attention) + " model needs; the file is incomplete");
        }
        if (static_cast<int>(it->second->rows) != shape.rows || static_cast<int>(it->second->cols) != shape.cols) {
            throw ModelFileError("model tensor '" + shape.name + "' has shape " + std::to_string(it->second->rows) +
                                 "x" + std::to_string(it->second->cols) + " but the config needs " +
                                 std::to_string(shape.rows) + "x" + std::to_string(shape.cols));
        }
    }
    if (table.size() != shapes.size()) {
        for (const auto& entry : table) {
            const std::string& name = entry.first;  // (clang 14 cannot capture a structured binding)
            const bool expected = std::any_of(shapes.begin(), shapes.end(), [&](const TensorShape& s) { return s.name == name; });
            if (!expected) throw ModelFileError("model file has an unexpected tensor '" + name + "'");
        }
    }
    return table;
}

// An int8 embedding kept as stored (int8_step_weights.h): one copy of the
// bytes, no decode; in the file's own bytes when the model owns them.
void keep_int8_embedding(const uint8_t* bytes, const TensorLayout& tensor, const std::shared_ptr<uint8_t[]>& owned,
                         Int8Embedding& embedding) {
    check_int8_tensor(bytes, tensor);
    embedding.rows = static_cast<int>(tensor.rows);
    embedding.cols = static_cast<int>(tensor.cols);
    if (const float* scales = owned ? file_int8_scales(owned.get(), tensor) : nullptr) {
        embedding.scales = scales;
        embedding.values = int8_tensor_values(bytes, tensor, nullptr);
        embedding.storage = owned;
    } else {
        struct Copy {
            std::vector<float> scales;
            std::vector<int8_t> values;
        };
        auto copy = std::make_shared<Copy>();
        copy->scales.resize(tensor.rows);
        const int8_t* values = int8_tensor_values(bytes, tensor, copy->scales.data());
        copy->values.assign(values, values + static_cast<size_t>(tensor.rows) * tensor.cols);
        embedding.scales = copy->scales.data();
        embedding.values = copy->values.data();
        embedding.storage = std::move(copy);
    }
}

// The int8 copy of a decoder step matrix, packed where it lies when the
// model owns the bytes (and the layout allows), else into its own buffer.
void pack_int8_copy(const uint8_t* bytes, const TensorLayout& tensor, const std::shared_ptr<uint8_t[]>& owned,
                    Int8Matrix& copy) {
    const int rows = static_cast<int>(tensor.rows), cols = static_cast<int>(tensor.cols);
    if (const float* scales = owned ? file_int8_scales(owned.get(), tensor) : nullptr) {
        // Packed where they lie (the float values are not decoded: translation only).
        auto* values = const_cast<int8_t*>(int8_tensor_values(owned.get(), tensor, nullptr));
        copy = pack_int8_rows_in_place(rows, cols, values, scales, owned);
    }
    if (copy.empty()) {
        std::vector<float> scales(tensor.rows);
        const int8_t* values = int8_tensor_values(bytes, tensor, scales.data());
        copy = pack_int8_rows(rows, cols, values, scales.data());
    }
}

// Every tensor of `table` into the model: the float matrices decoded, and
// for translation the int8 step weights instead where the file has them.
void read_tensors(const std::map<std::string, const TensorLayout*>& table, const uint8_t* bytes, LoadFor purpose,
                  const std::shared_ptr<uint8_t[]>& owned, Model& model) {
    model.params.for_each_tensor([&](const std::string& name, Matrix& m) {
        auto it = table.find(name);
        if (it == table.end()) return;  // not part of this variant
        const TensorLayout& tensor = *it->second;
        Int8Embedding* embedding = name == "source_embedding"   ? &model.int8_step.source_embedding
                                   : name == "target_embedding" ? &model.int8_step.target_embedding
                                                                : nullptr;
        if (embedding != nullptr && purpose == LoadFor::kTranslation && tensor.dtype == TensorDtype::kInt8) {
            keep_int8_embedding(bytes, tensor, owned, *embedding);
            m.resize(0, 0);
            model.stored_dtype = TensorDtype::kInt8;
            return;
        }
        Int8Matrix* copy = int8_copy_for(model.int8_step, name);
        if (copy != nullptr && tensor.dtype == TensorDtype::kInt8) {
            // Checked here only when the float decode below is skipped:
            // decode_tensor_values makes the same checks.
            if (purpose == LoadFor::kTranslation) check_int8_tensor(bytes, tensor);
            pack_int8_copy(bytes, tensor, owned, *copy);
        }
        if (purpose == LoadFor::kTranslation && copy != nullptr && !copy->empty()) {
            m.resize(0, 0);  // decoder_step reads the int8 copy only
        } else {
            // Straight from the file's bytes into the matrix (column-major).
            m.resize(tensor.rows, tensor.cols);
            decode_tensor_values(bytes, tensor, m.data(), /*column_major=*/true);
        }
        // The narrowest dtype of any tensor: int8 < float16 < float32.
        const TensorDtype stored = tensor.dtype;
        if (stored == TensorDtype::kInt8 || (stored == TensorDtype::kFloat16 && model.stored_dtype == TensorDtype::kFloat32)) {
            model.stored_dtype = stored;
        }
    });
}

// owned: the file's bytes when the model may keep and change them
// (model_from_owned_bytes; `bytes` is owned.get()), else null.
Model model_from_layout(ModelFileLayout layout, const uint8_t* bytes, LoadFor purpose,
                        const std::shared_ptr<uint8_t[]>& owned = nullptr) {
    const nlohmann::json& header = layout.header;
    const auto& format = require(header, "format");
    if (!format.is_string() || format.get<std::string>() != kFormatName) {
        throw ModelFileError("model header 'format' is not \"seq2seq-attention\"; this is not a model of this project");
    }
    Model model;
    model.config = model_config_from_json(require(header, "config"));
    if (layout.version >= kStringRecordsVersion) {
        read_records(layout, bytes, model);
    } else {
        read_header_vocabularies(header, model);
    }
    check_subword_vocabulary(model.source_tokenizer, model.source_vocabulary, "source");
    check_subword_vocabulary(model.target_tokenizer, model.target_vocabulary, "target");
    if (model.source_vocabulary.size() != model.config.source_vocab_size ||
        model.target_vocabulary.size() != model.config.target_vocab_size) {
        throw_vocabulary_sizes(model.config, model.source_vocabulary.size(), model.target_vocabulary.size());
    }
    read_optional_fields(layout, bytes, model);
    read_tensors(checked_tensor_table(layout, model.config), bytes, purpose, owned, model);
    return model;
}

}  // namespace

Model model_from_bytes(const uint8_t* bytes, size_t size, LoadFor purpose) {
    Model model = model_from_layout(read_model_layout(bytes, size), bytes, purpose);
    model.translation_only = purpose == LoadFor::kTranslation;
    return model;
}

Model model_from_owned_bytes(std::shared_ptr<uint8_t[]> bytes, size_t size) {
    const uint8_t* data = bytes.get();
    Model model = model_from_layout(read_model_layout(data, size), data, LoadFor::kTranslation, bytes);
    model.translation_only = true;
    return model;
}

Model load_model(const std::string& path) {
    const std::vector<uint8_t> bytes = read_file_bytes(path);
    try {
        return model_from_bytes(bytes.data(), bytes.size());
    } catch (const ModelFileError& e) {
        throw ModelFileError(path + ": " + e.what());
    }
}

}  // namespace s2s
