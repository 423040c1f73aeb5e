// A model's file written (model.h): the JSON header, the tensors in the
// dtype asked for, and the records (vocabularies, BPE merges, the
// shortlist's triggers). Reading it back: model_load.cpp.
#include "model/model.h"

#include "common/error.h"
#include "common/hash.h"
#include "model/model_records.h"
#include "text/bpe.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace s2s {

using namespace model_records;

namespace {

// Matrices are column-major in memory and row-major in the file.
using RowMajorMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

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

}  // namespace s2s
