// The lexical shortlist at decoding time (the shortlist itself is part of
// the model: src/model/target_shortlist.h): the blocks of the output layer
// a sentence needs.
#pragma once

#include "model/target_shortlist.h"

#include <vector>

namespace s2s {

// The sorted blocks of 8 rows of W_o (block b = target ids 8b..8b+7) that
// hold a candidate of `source` (ids; an <eos> in it triggers nothing it was
// not counted for), plus those holding `extra` target ids (a forced
// prefix).
std::vector<int> shortlist_blocks(const TargetShortlist& shortlist, const std::vector<int>& source,
                                  int target_vocab_size, const std::vector<int>& extra = {});

}  // namespace s2s
