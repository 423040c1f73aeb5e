// A lexical shortlist for the output layer (as Marian's and Bergamot's):
// per sentence, the output product W_o o_t and the log-softmax run over a
// candidate set of target pieces only, the blocks of 8 rows of W_o
// (int8_kernels.h) that hold them. The candidates of a source sentence are
//   every target id < always (M): the specials, the characters and the
//     first merges, which are the frequent pieces (a BPE vocabulary is
//     ordered specials, characters, merges in merge order), and
//   each target id t >= M that one of the sentence's source ids triggers:
//     triggers[(t - M) * per_target + j], j < per_target (K), are t's K best
//     source ids (-1: none), chosen by the builder (src/train/shortlist_builder.h).
//
// Part of the model: stored in the model file as the header field
// "target_shortlist" (M, K and where it was built from) and the record
// "target_shortlist.triggers" (docs/model.md, model_file.h), read and
// checked with the model (model_load.cpp); a model without it decodes as before. Decoding uses it
// (src/decode/shortlist.h) when DecodeOptions::shortlist is on and the
// model's output layer is int8 (the float path computes every row).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace s2s {

struct TargetShortlist {
    int always = 0;              // M: every target id below it is a candidate (at least the 4 specials)
    int per_target = 0;          // K: triggers per target id >= M (1..kMaxShortlistTriggers)
    std::vector<int> triggers;   // (target vocabulary - M) * K source ids, -1 = none
    nlohmann::json built_from = nlohmann::json::object();  // data file, hash, split, score: provenance only
};

inline constexpr int kMaxShortlistTriggers = 16;

// The header field and back (target_shortlist.cpp); the readers check
// everything (the message names the problem and the fix) and throw
// ModelFileError.
// The field of format version 4: always, per_target and built_from; the
// triggers are a record of their own, target_shortlist_trigger_ids.
nlohmann::json target_shortlist_to_json(const TargetShortlist& shortlist);
// The triggers as that record stores them: (target vocabulary - M) x K
// uint16 source ids, row-major, 0xFFFF = none.
std::vector<uint16_t> target_shortlist_trigger_ids(const TargetShortlist& shortlist);
// From the field of format versions 1 to 3, which holds the triggers as
// "triggers": base64 of the same little-endian uint16 ids.
TargetShortlist target_shortlist_from_json(const nlohmann::json& json, int source_vocab_size, int target_vocab_size);
// From the field of version 4 and its triggers record, read where it lies:
// `triggers` points at rows x cols little-endian uint16 ids.
TargetShortlist target_shortlist_from_record(const nlohmann::json& json, int source_vocab_size, int target_vocab_size,
                                             const uint8_t* triggers, uint32_t rows, uint32_t cols);

}  // namespace s2s
