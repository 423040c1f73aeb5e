// Building a model's lexical shortlist (src/model/target_shortlist.h) from
// its training pairs: `seq2seq shortlist` and the training scripts use it.
// The score of source piece s for target piece t, over sentence pairs of
// the training split (counts of sentences that hold the piece, or both):
//   score(s, t) = c(s, t) / c(t) * log(N / c(s))
// with the options of ShortlistScore (a floor on c(s, t), and source pieces
// in more than a share of the sentences left out).
#pragma once

#include "model/target_shortlist.h"

#include <vector>

namespace s2s {

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

}  // namespace s2s
