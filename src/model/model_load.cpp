// A whole model to and from its file (model.h): the header fields, the
// tensor table checked against the configuration, and the int8 step
// weights kept for decoding.
#include "model/model.h"

#include "common/error.h"
#include "common/hash.h"
#include "common/limits.h"
#include "text/bpe.h"
#include "text/utf8.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string_view>

namespace s2s {
namespace {

constexpr const char* kFormatName = "seq2seq-attention";

// Matrices are column-major in memory and row-major in the file.
using RowMajorMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

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

// The header's "decoding" record, when the model has one.
void add_decoding(const Model& model, nlohmann::json& header) {
    nlohmann::json decoding = nlohmann::json::object();
    if (model.length_penalty) decoding["length_penalty"] = *model.length_penalty;
    if (model.coverage_penalty) decoding["coverage_penalty"] = *model.coverage_penalty;
    if (!decoding.empty()) header["decoding"] = decoding;
}

// The lexical shortlist (target_shortlist.h), when the model has one: its
// sizes and provenance (the triggers are a record of the file).
void add_target_shortlist(const Model& model, nlohmann::json& header) {
    if (model.target_shortlist) header["target_shortlist"] = target_shortlist_to_json(*model.target_shortlist);
}

// A tokenizer as the header of format version 4 holds it: kind and
// language (a BPE tokenizer's merges are a record of the file).
nlohmann::json tokenizer_header(const TokenizerSettings& settings) {
    nlohmann::json json = to_json(settings, /*with_merges=*/false);
    json.erase("merge_count");
    return json;
}

}  // namespace

nlohmann::json model_header(const Model& model) {
    nlohmann::json header = {
        {"format", kFormatName},
        {"config", to_json(model.config)},
        {"source_tokenizer", tokenizer_header(model.source_tokenizer)},
        {"target_tokenizer", tokenizer_header(model.target_tokenizer)},
        {"provenance", model.provenance},
    };
    add_decoding(model, header);
    add_target_shortlist(model, header);
    return header;
}

nlohmann::json model_header_without_vocabularies(const Model& model) {
    nlohmann::json header = {
        {"format", kFormatName},
        {"config", to_json(model.config)},
        {"source_tokenizer", to_json(model.source_tokenizer, /*with_merges=*/false)},
        {"target_tokenizer", to_json(model.target_tokenizer, /*with_merges=*/false)},
        {"source_vocabulary_size", model.source_vocabulary.size()},
        {"target_vocabulary_size", model.target_vocabulary.size()},
        {"provenance", model.provenance},
    };
    add_decoding(model, header);
    add_target_shortlist(model, header);
    return header;
}

namespace {

// The tensors of `model` as the file stores them; `storage` keeps the
// row-major copies alive while the returned views are used.
std::vector<TensorToWrite> tensors_to_write(const Model& model, TensorDtype dtype, std::vector<RowMajorMatrix>& storage) {
    std::vector<std::string> names;
    model.params.for_each_tensor([&](const std::string& name, const Matrix& m) {
        if (m.size() == 0) return;
        names.push_back(name);
        storage.emplace_back(m);
    });
    std::vector<TensorToWrite> tensors;
    for (size_t i = 0; i < names.size(); ++i) {
        // int8 quantizes matrices row by row; a vector (a bias) would need a
        // scale per value, so vectors are stored as float16 instead.
        const TensorDtype stored = dtype == TensorDtype::kInt8 && storage[i].cols() == 1 ? TensorDtype::kFloat16 : dtype;
        tensors.push_back({names[i], static_cast<int>(storage[i].rows()), static_cast<int>(storage[i].cols()),
                           storage[i].data(), stored, model.int8_levels});
    }
    return tensors;
}

// The names of the records of a model file (model_file.h).
constexpr const char* kSourceVocabulary = "source_vocabulary";
constexpr const char* kTargetVocabulary = "target_vocabulary";
constexpr const char* kSourceMerges = "source_tokenizer.merges";
constexpr const char* kTargetMerges = "target_tokenizer.merges";
constexpr const char* kShortlistTriggers = "target_shortlist.triggers";

// The records of `model`'s file: its vocabularies, its BPE merges and its
// shortlist's triggers. The views point into `model`, and the trigger ids
// into `trigger_ids`.
std::vector<RecordToWrite> records_to_write(const Model& model, std::vector<uint16_t>& trigger_ids) {
    std::vector<RecordToWrite> records;
    const auto strings = [&](const char* name, const std::vector<std::string>& texts) {
        RecordToWrite record;
        record.name = name;
        record.strings.assign(texts.begin(), texts.end());
        records.push_back(std::move(record));
    };
    strings(kSourceVocabulary, model.source_vocabulary.tokens());
    strings(kTargetVocabulary, model.target_vocabulary.tokens());
    for (const auto& [name, tokenizer] : {std::pair{kSourceMerges, &model.source_tokenizer},
                                          std::pair{kTargetMerges, &model.target_tokenizer}}) {
        if (tokenizer->kind != TokenizerKind::kSubwords) continue;
        RecordToWrite record;
        record.name = name;
        const size_t merges = tokenizer->bpe ? tokenizer->bpe->merge_count() : 0;
        record.strings.reserve(merges);
        for (size_t i = 0; i < merges; ++i) record.strings.emplace_back(tokenizer->bpe->joined(i));
        records.push_back(std::move(record));
    }
    if (model.target_shortlist) {
        trigger_ids = target_shortlist_trigger_ids(*model.target_shortlist);
        RecordToWrite record;
        record.name = kShortlistTriggers;
        record.dtype = RecordDtype::kUint16;
        record.rows = static_cast<uint32_t>(model.config.target_vocab_size - model.target_shortlist->always);
        record.cols = static_cast<uint32_t>(model.target_shortlist->per_target);
        if (uint64_t{record.rows} * record.cols != trigger_ids.size()) {
            throw std::invalid_argument("the model's shortlist has " + std::to_string(trigger_ids.size()) +
                                        " triggers where its sizes need " + std::to_string(uint64_t{record.rows} * record.cols));
        }
        record.values = trigger_ids.data();
        records.push_back(std::move(record));
    }
    return records;
}

// A translation-only model lacks the float weights a file needs.
void refuse_translation_only(const Model& model) {
    if (model.translation_only) {
        throw UsageError("this model was loaded for translation only (without its float weights), so it cannot be "
                         "saved or converted; load the file with load_model or model_from_bytes(..., LoadFor::kAnything)");
    }
}

// The header of a file stored as `dtype`: an int8 file also records its
// quantization levels.
nlohmann::json file_header(const Model& model, TensorDtype dtype) {
    nlohmann::json header = model_header(model);
    if (dtype == TensorDtype::kInt8) header["int8_levels"] = model.int8_levels;
    return header;
}

}  // namespace

std::string model_fingerprint(const Model& model) {
    Model without = model;
    without.provenance.erase("evaluations");
    const std::vector<uint8_t> bytes = serialize_model(without, model.stored_dtype);
    return to_hex64(word_hash64(bytes.data(), bytes.size()));
}

std::vector<uint8_t> serialize_model(const Model& model, TensorDtype dtype) {
    refuse_translation_only(model);
    std::vector<RowMajorMatrix> storage;
    std::vector<uint16_t> trigger_ids;
    return encode_model_file(file_header(model, dtype), tensors_to_write(model, dtype, storage),
                             records_to_write(model, trigger_ids));
}

void save_model(const Model& model, const std::string& path, TensorDtype dtype) {
    refuse_translation_only(model);
    std::vector<RowMajorMatrix> storage;
    std::vector<uint16_t> trigger_ids;
    write_model_file(path, file_header(model, dtype), tensors_to_write(model, dtype, storage),
                     records_to_write(model, trigger_ids));
}

namespace {

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
    } else {  // versions 1 to 3: everything in the header
        model.source_tokenizer = tokenizer_settings_from_json(require(header, "source_tokenizer"));
        model.target_tokenizer = tokenizer_settings_from_json(require(header, "target_tokenizer"));
        model.source_vocabulary = Vocabulary::from_json(require(header, "source_vocabulary"));
        model.target_vocabulary = Vocabulary::from_json(require(header, "target_vocabulary"));
    }
    check_subword_vocabulary(model.source_tokenizer, model.source_vocabulary, "source");
    check_subword_vocabulary(model.target_tokenizer, model.target_vocabulary, "target");
    if (model.source_vocabulary.size() != model.config.source_vocab_size ||
        model.target_vocabulary.size() != model.config.target_vocab_size) {
        throw_vocabulary_sizes(model.config, model.source_vocabulary.size(), model.target_vocabulary.size());
    }
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

    // Check every shape against the table before allocating anything, so
    // a header with huge sizes cannot ask for more memory than the file's
    // own tensors hold.
    const std::vector<TensorShape> shapes = parameter_shapes(model.config);
    std::map<std::string, const TensorLayout*> table;
    for (const auto& t : layout.tensors) table[t.name] = &t;
    for (const TensorShape& shape : shapes) {
        auto it = table.find(shape.name);
        if (it == table.end()) {
            throw ModelFileError("model file has no tensor '" + shape.name + "', which a " +
                                 attention_kind_name(model.config.attention) + " model needs; the file is incomplete");
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
    model.params.for_each_tensor([&](const std::string& name, Matrix& m) {
        auto it = table.find(name);
        if (it == table.end()) return;  // not part of this variant
        Int8Embedding* embedding = name == "source_embedding"   ? &model.int8_step.source_embedding
                                   : name == "target_embedding" ? &model.int8_step.target_embedding
                                                                : nullptr;
        if (embedding != nullptr && purpose == LoadFor::kTranslation && it->second->dtype == TensorDtype::kInt8) {
            // Kept as stored (int8_step_weights.h): one copy of the bytes, no decode.
            check_int8_tensor(bytes, *it->second);
            embedding->rows = static_cast<int>(it->second->rows);
            embedding->cols = static_cast<int>(it->second->cols);
            if (const float* scales = owned ? file_int8_scales(owned.get(), *it->second) : nullptr) {
                embedding->scales = scales;
                embedding->values = int8_tensor_values(bytes, *it->second, nullptr);
                embedding->storage = owned;
            } else {
                struct Copy {
                    std::vector<float> scales;
                    std::vector<int8_t> values;
                };
                auto copy = std::make_shared<Copy>();
                copy->scales.resize(it->second->rows);
                const int8_t* values = int8_tensor_values(bytes, *it->second, copy->scales.data());
                copy->values.assign(values, values + static_cast<size_t>(it->second->rows) * it->second->cols);
                embedding->scales = copy->scales.data();
                embedding->values = copy->values.data();
                embedding->storage = std::move(copy);
            }
            m.resize(0, 0);
            model.stored_dtype = TensorDtype::kInt8;
            return;
        }
        Int8Matrix* copy = int8_copy_for(model.int8_step, name);
        if (copy != nullptr && it->second->dtype == TensorDtype::kInt8) {
            // Checked here only when the float decode below is skipped:
            // decode_tensor_values makes the same checks.
            if (purpose == LoadFor::kTranslation) check_int8_tensor(bytes, *it->second);
            const int rows = static_cast<int>(it->second->rows), cols = static_cast<int>(it->second->cols);
            if (const float* scales = owned ? file_int8_scales(owned.get(), *it->second) : nullptr) {
                // Packed where they lie (the float values are not decoded below: translation only).
                auto* values = const_cast<int8_t*>(int8_tensor_values(owned.get(), *it->second, nullptr));
                *copy = pack_int8_rows_in_place(rows, cols, values, scales, owned);
            }
            if (copy->empty()) {
                std::vector<float> scales(it->second->rows);
                const int8_t* values = int8_tensor_values(bytes, *it->second, scales.data());
                *copy = pack_int8_rows(rows, cols, values, scales.data());
            }
        }
        if (purpose == LoadFor::kTranslation && copy != nullptr && !copy->empty()) {
            m.resize(0, 0);  // decoder_step reads the int8 copy only
        } else {
            // Straight from the file's bytes into the matrix (column-major).
            m.resize(it->second->rows, it->second->cols);
            decode_tensor_values(bytes, *it->second, m.data(), /*column_major=*/true);
        }
        // The narrowest dtype of any tensor: int8 < float16 < float32.
        const TensorDtype stored = it->second->dtype;
        if (stored == TensorDtype::kInt8 || (stored == TensorDtype::kFloat16 && model.stored_dtype == TensorDtype::kFloat32)) {
            model.stored_dtype = stored;
        }
    });
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
