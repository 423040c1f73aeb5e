// The training data of a run (training_run.h): the development split held
// out by English sentence, the guards that keep development sources (and
// --exclude-sources) out of training, the extra files mixed in, the
// vocabularies learned from the training side or kept from a model, and the
// examples encoded. Split from the run so that each file holds one job.
#pragma once

#include "corpus/parallel_corpus.h"
#include "model/model.h"
#include "train/batch.h"

#include <cstdint>
#include <string>
#include <vector>

namespace s2s {

// A training-only data file beside the main one (`--extra-data PATH:N`):
// its pairs are not split (they are all training pairs, N times each), and
// any whose English is a development source of the main file is dropped, so
// the held-out sentences stay unseen. How the project's own in-domain corpus
// and glossary, and the dictionaries, join Tatoeba (data/README.md).
struct ExtraData {
    std::string path;
    int repeat = 1;  // each pair is trained on this many times per epoch
};

// What the data is and how its vocabularies are learned (`seq2seq train`'s
// data and vocabulary flags; the defaults are the CLI's).
struct TrainingDataOptions {
    std::string path;                  // the TSV: English TAB translation
    std::string target_language = "fr";  // fr (words) or zh (characters)
    double dev_fraction = 0.03;        // share of English sentences held out
    uint64_t split_seed = 1;
    long max_source_words = 40;        // longer training pairs are skipped
    int min_frequency = 2;             // words and characters: kept when seen this often
    int max_source_vocab = 0;          // words: cap (0 = none)
    int max_target_vocab = 0;
    int source_pieces = 0;             // BPE vocabulary size including the specials; 0 = words
    int target_pieces = 0;             // 0 = words (fr) or characters (zh)
    std::string exclude_sources_path;  // also drop training pairs whose English is in column 1 ("" = none)
    std::string export_dev_path;       // write the development split here ("" = no)
    std::vector<ExtraData> extra;      // training-only files, in order
};

// The data a run trains on and checks against, and what was dropped.
struct PreparedData {
    std::vector<Example> train;
    std::vector<std::string> train_sources;  // train[i]'s English as written (BPE-dropout draws its pieces again)
    std::vector<SourceWithReferences> dev;
    long train_pairs = 0, skipped_pairs = 0, leaked_pairs = 0, excluded_pairs = 0;
    std::vector<long> extra_used;  // pairs of each extra file trained on (before repeats)
};

// Splits, filters and encodes the pairs; the extra files' pairs join the
// training side only, each `repeat` times. The model's tokenizers say what
// to learn: a side whose vocabulary is already set (the source, when the
// encoder comes from --init-encoder or --init-model) keeps it; with
// `target_base` (--init-model) the target keeps that vocabulary, grown by
// the tokens it lacks unless it is made of subword pieces; otherwise the
// vocabularies are learned here from the training pairs alone.
PreparedData prepare_data(const std::vector<SentencePair>& pairs, const TrainingDataOptions& options, Model& model,
                          bool learn_source, const Vocabulary* target_base, const std::vector<SentencePair>& excluded,
                          const std::vector<std::vector<SentencePair>>& extra);

}  // namespace s2s
