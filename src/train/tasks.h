// Small tasks for watching attention learn in seconds (the page's Train view,
// the JS train() API, the native tests): each gives a model with its
// vocabularies and tokenizer settings (sizes left to the caller) and
// training and held-out examples.
//
//   reversal  symbols a, b, c, ... separated by spaces, target = source
//             reversed: attention must learn the mirrored diagonal, and a
//             fixed context must hold the whole sequence in one vector.
//   dates     "december 2nd, 2026", "2 dec 2026", "12/02/2026", ... to
//             "2026-12-02", character by character on both sides: attention
//             learns to read the year, then the month, then the day.
//   pairs     the user's own tab-separated lines (source TAB target).
#pragma once

#include "model/model.h"
#include "train/batch.h"

#include <cstdint>
#include <string>
#include <vector>

namespace s2s {

struct ToyTask {
    Model model;  // config sizes left for the caller; vocabularies and tokenizers set
    std::vector<Example> train;
    std::vector<Example> test;
    std::vector<std::string> test_sources;  // the held-out sources as text, to show and to probe with
};

// Sequences of `symbols` letters (2..26) of length [min_length, max_length],
// drawn uniformly; target = the source reversed. Throws UsageError on bad
// arguments, naming them.
ToyTask make_reversal_task(int symbols, int min_length, int max_length, int train_size, int test_size, uint64_t seed);

// Random dates between 1950-01-01 and 2049-12-31 written in one of several
// English formats, to ISO 8601. Characters on both sides.
ToyTask make_date_task(int train_size, int test_size, uint64_t seed);
// One date written the way the task writes it (format index modulo the
// number of formats), and its ISO form: for tests and the page's examples.
struct DateExample {
    std::string text;
    std::string iso;
};
DateExample format_date(int year, int month, int day, int format);

// The user's pairs: one per line, source TAB target; blank lines skipped.
// `characters` tokenizes both sides by character instead of by word. Every
// `test_every`-th pair (at least one) is held out. Throws DataError naming
// the first bad line and the fix, or when fewer than 4 pairs are usable.
ToyTask make_pairs_task(const std::string& tsv, bool characters, int test_every);

// A held-out example's source and target as text (tokens joined by spaces
// for words, concatenated for characters): what the page shows as probes.
std::string example_text(const Model& model, const std::vector<int>& ids, bool target);

}  // namespace s2s
