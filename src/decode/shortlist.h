// A lexical shortlist for the output layer (as Marian's and Bergamot's):
// per sentence, the output product W_o o_t and the log-softmax run over a
// candidate set of target pieces only, the blocks of 8 rows of W_o
// (int8_kernels.h) that hold them. The candidates of a source sentence are
//   every target id < always (M): the specials, the characters and the
//     first merges, which are the frequent pieces (a BPE vocabulary is
//     ordered specials, characters, merges in merge order), and
//   each target id t >= M that one of the sentence's source ids triggers:
//     triggers[(t - M) * per_target + j], j < per_target (K), are t's K best
//     source ids by the score below (-1: none).
// The score of source piece s for target piece t, over sentence pairs of
// the training split (counts of sentences that hold the piece, or both):
//   score(s, t) = c(s, t) / c(t) * log(N / c(s))
// with the options of ShortlistScore (a floor on c(s, t), and source pieces
// in more than a share of the sentences left out).
//
// Stored in the model file's header as "target_shortlist" (docs/model.md),
// read and checked with the model (model.cpp); a model without it decodes
// as before. Decoding uses it when DecodeOptions::shortlist is on and the
// model's output layer is int8 (the float path computes every row).
//
// Header only for the Model (src/model reads and writes it); the builder
// and the block list are in shortlist.cpp (library s2s_decode).
#pragma once

#include <nlohmann/json.hpp>

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

struct ShortlistScore {
    int min_count = 1;               // c(s, t) below it: no trigger
    double max_source_share = 1.0;   // a source piece in more than this share of the sentences triggers nothing
};

// Builds the shortlist from sentence pairs as id sequences (the model's own
// tokenizers and vocabularies; no <eos>). Throws UsageError for M or K out
// of range.
TargetShortlist build_target_shortlist(const std::vector<std::vector<int>>& sources,
                                       const std::vector<std::vector<int>>& targets, int source_vocab_size,
                                       int target_vocab_size, int always, int per_target,
                                       const ShortlistScore& score = ShortlistScore{});

// The sorted blocks of 8 rows of W_o (block b = target ids 8b..8b+7) that
// hold a candidate of `source` (ids; an <eos> in it triggers nothing it was
// not counted for), plus those holding `extra` target ids (a forced
// prefix).
std::vector<int> shortlist_blocks(const TargetShortlist& shortlist, const std::vector<int>& source,
                                  int target_vocab_size, const std::vector<int>& extra = {});

// The header field and back (in src/model/target_shortlist_json.cpp, since
// the model file reads it). from_json checks everything (the message names
// the problem and the fix) and throws ModelFileError.
nlohmann::json target_shortlist_to_json(const TargetShortlist& shortlist);
// `triggers`: the field's base64 triggers when the model file's quick path
// took them out of the header (the field then holds ""); null: read them
// from the field.
TargetShortlist target_shortlist_from_json(const nlohmann::json& json, int source_vocab_size, int target_vocab_size,
                                           const std::string* triggers = nullptr);

}  // namespace s2s
