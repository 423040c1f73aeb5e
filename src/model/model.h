// A complete model: architecture, parameters, vocabularies, tokenizer
// settings and provenance, as stored in one .s2s file (model_file.h).
#pragma once

#include "model/target_shortlist.h"
#include "model/config.h"
#include "kernels/int8_step_weights.h"
#include "format/model_file.h"
#include "model/parameters.h"
#include "text/tokenizer.h"
#include "text/vocabulary.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace s2s {

struct Model {
    ModelConfig config;
    Parameters params;
    // The decoder step's matrices as an int8 file stores them, which
    // decoding uses in place of their float values (int8_step_weights.h);
    // empty for a float file and for a model made in memory.
    Int8StepWeights int8_step;
    Vocabulary source_vocabulary;
    Vocabulary target_vocabulary;
    TokenizerSettings source_tokenizer;
    TokenizerSettings target_tokenizer{TokenizerKind::kWords, "fr"};
    // Beam search penalties chosen for this model on its development split
    // (header "decoding": {"length_penalty": A, "coverage_penalty": B},
    // each 0..5), which translate's entry points use when the caller sets
    // none (decode_defaults, src/decode/translator.h); empty = not
    // recorded, the global defaults apply (DecodeOptions, search.h).
    std::optional<double> length_penalty;
    std::optional<double> coverage_penalty;
    // The lexical shortlist of the output layer (header "target_shortlist":
    // target_shortlist.h), which decoding uses unless told not to
    // (DecodeOptions::shortlist); empty = none, every row is computed.
    std::optional<TargetShortlist> target_shortlist;
    // Free-form record of where the model came from: data file and hash,
    // split, training configuration, steps, wall time, development BLEU.
    nlohmann::json provenance = nlohmann::json::object();
    // How the loaded file stored its tensors (int8 if any was, else float16
    // if any was), so that a rewrite (`seq2seq eval --record`) keeps the
    // file's size and values.
    TensorDtype stored_dtype = TensorDtype::kFloat32;
    // int8 quantization levels (model_file.h): 127 for 8 bits, 63 for 7.
    // Read from an int8 file's header, so a rewrite keeps the file's values.
    int int8_levels = kMaxInt8Levels;
    // Loaded with LoadFor::kTranslation: the matrices that have an int8 copy
    // (int8_step) hold no float values, so the model translates but cannot
    // be saved, converted or trained.
    bool translation_only = false;
};

// What a loaded model is for. kTranslation keeps only the int8 copy of the
// decoder step's matrices when the file stores them as int8 (7.3 MB less
// memory for en-fr, and less to decode), and the two embeddings as the file
// stores them (int8_step_weights.h: 3.5 MB less, no decode): the WebAssembly translator loads
// models this way; everything else needs kAnything.
enum class LoadFor { kAnything, kTranslation };

// Levels of a quantization to `bits` bits (2..8): 2^(bits-1) - 1.
inline int int8_levels_for_bits(int bits) { return (1 << (bits - 1)) - 1; }

// The JSON header written into the model file (format version 4):
// everything but the vocabularies, the BPE merges and the shortlist's
// triggers, which are records of the file (model_file.h).
nlohmann::json model_header(const Model& model);
// model_header with the sizes of what the records hold
// (source_vocabulary_size, target_vocabulary_size, each tokenizer's
// merge_count): what the JavaScript API's info shows.
nlohmann::json model_header_without_vocabularies(const Model& model);

// Float16 halves the file and int8 quarters it (matrices only: vectors,
// the biases, stay float16); the loss of quality is measured in the README.
// Throws UsageError for a translation-only model (LoadFor::kTranslation).
std::vector<uint8_t> serialize_model(const Model& model, TensorDtype dtype = TensorDtype::kFloat32);
void save_model(const Model& model, const std::string& path, TensorDtype dtype = TensorDtype::kFloat32);

// What a recorded evaluation was measured on: word_hash64 (hex) of the file
// the model is (serialize_model at its stored dtype) with the provenance's
// "evaluations" left out. Any change of a weight, the vocabularies, the
// tokenizers, the decoding penalties, the shortlist or any other provenance
// entry changes it; recording an evaluation does not. `seq2seq eval
// --record` stores it in the record ("model_fingerprint"), `seq2seq info
// --json` prints it ("fingerprint"), and scripts/bleu-tables.mjs --check
// refuses a record whose fingerprint is not the file's. Throws UsageError
// for a translation-only model.
std::string model_fingerprint(const Model& model);

// Validates everything: the file format (model_file.h), the header fields,
// that vocabulary sizes match the configuration, and that exactly the
// expected tensors are present with the expected shapes. Throws
// ModelFileError (IoError when the file cannot be read).
Model model_from_bytes(const uint8_t* bytes, size_t size, LoadFor purpose = LoadFor::kAnything);
// model_from_bytes(bytes.get(), size, LoadFor::kTranslation) that keeps the
// bytes: the decoder step's int8 matrices are packed where they lie in the
// file's bytes and the int8 embeddings are read there (int8_kernels.h,
// int8_step_weights.h), so the weights are in memory once, not twice, and
// a cold load touches about 3 MB less fresh memory for en-fr (on the
// machines measured, a first touch costs about 4 ms per MB:
// docs/performance.md). The bytes are changed (packed) and then belong to
// the model, which keeps them alive as long as any copy of it; a matrix
// whose layout needs padding is copied as before. The WebAssembly
// translator loads models this way.
Model model_from_owned_bytes(std::shared_ptr<uint8_t[]> bytes, size_t size);
Model load_model(const std::string& path);

}  // namespace s2s
