// Sentence pairs read from the Tatoeba TSV files in ../shared/data/ (English
// in column 1, the translation in column 2, anything after ignored), and the
// development split held out by English sentence, so that no translation of
// a development sentence is ever seen in training.
#pragma once

#include "common/hash.h"

#include <cstdint>
#include <string>
#include <vector>

namespace s2s {

struct SentencePair {
    std::string source;  // English, as in the file
    std::string target;  // French or Chinese, as in the file
};

// Throws DataError naming the file and line for an unreadable file or a line
// with fewer than two tab-separated columns. Blank lines are skipped. Invalid
// UTF-8 is sanitized.
std::vector<SentencePair> read_sentence_pairs(const std::string& path);

// All translations of one English sentence: the references of multi-reference
// BLEU.
struct SourceWithReferences {
    std::string source;
    std::vector<std::string> references;
};

struct CorpusSplit {
    std::vector<SentencePair> train;
    std::vector<SourceWithReferences> dev;  // one entry per distinct English sentence
};

// Deterministic split by English sentence: a sentence goes to dev when a
// 64-bit FNV-1a hash of its normalized form (lowercased, whitespace
// collapsed), mixed with `seed`, falls below `dev_fraction` of the range.
// The result does not depend on the order of `pairs`. Dev entries keep the
// order of first appearance.
CorpusSplit split_by_source(const std::vector<SentencePair>& pairs, double dev_fraction, uint64_t seed);

// Groups pairs by English sentence (exact match after normalization) in order
// of first appearance: the evaluation view of a TSV file.
std::vector<SourceWithReferences> group_by_source(const std::vector<SentencePair>& pairs);

// `count` entries spread evenly over `entries` (all of them when count is
// 0 or not smaller): the data files are sorted by length, so an even spread
// keeps every length where the first `count` would keep the shortest.
std::vector<SourceWithReferences> spread_sample(const std::vector<SourceWithReferences>& entries, size_t count);

// Writes one "source<TAB>reference" line per reference: the format
// read_sentence_pairs reads. Throws IoError.
void write_sentence_pairs(const std::vector<SourceWithReferences>& entries, const std::string& path);

// FNV-1a 64 (src/common/hash.h) of a whole file, as 16 hex digits: the data
// file's fingerprint in a model's provenance.
std::string file_fnv1a64_hex(const std::string& path);  // throws IoError

}  // namespace s2s
