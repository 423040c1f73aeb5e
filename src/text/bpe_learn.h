// Learning BPE merges (Sennrich, Haddow and Birch, 2016, algorithm 1): the
// training side of bpe.h, in files of their own so that the translator (and
// its WebAssembly module) never links them.
#pragma once

#include "text/bpe.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace s2s {

// Pre-token counts of `sentences` (raw text; normalized here): what learn_bpe reads.
std::unordered_map<std::string, long> count_pre_tokens(const std::vector<std::string>& sentences, std::string_view language);

// Learns merges from pre-token counts (symbol strings with their marker,
// see pre_token_symbols) until the alphabet plus the merged pieces reach
// `max_pieces` or no pair occurs twice. Deterministic: ties go to the pair
// whose strings come first in byte order. `pieces`, when given, receives
// every piece: the alphabet, most frequent first, then the merged pieces in
// the order they were learned (each once).
BpeModel learn_bpe(const std::unordered_map<std::string, long>& pre_token_counts, int max_pieces,
                   std::vector<std::string>* pieces = nullptr);

}  // namespace s2s
