// The quality report of a development or test set: sacreBLEU-compatible
// corpus BLEU (bleu.h) with chrF2 (chrf.h) beside it, overall and by the
// length of the English source sentence.
#pragma once

#include "eval/bleu.h"
#include "eval/chrf.h"
#include "eval/sacrebleu_text.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace s2s {

// BLEU and chrF2 of a set of sentences, with what a reader needs to check
// them against sacreBLEU.
struct CorpusScore : BleuScore {
    double chrf2 = 0.0;  // 0..100
    long sentences = 0;
    // sacreBLEU's signatures without its version field, e.g.
    // "nrefs:var|case:lc|eff:no|tok:13a|smooth:exp" and
    // "nrefs:var|case:mixed|eff:yes|nc:6|nw:0|space:no"; nrefs is the number
    // of references of every sentence, or var when it varies.
    std::string bleu_signature;
    std::string chrf2_signature;
};

// "sacreBLEU-compatible BLEU (<bleu_signature>), chrF2 (<chrf2_signature>)".
std::string metric_description(const CorpusScore& score);

// Source-length buckets for "BLEU by sentence length": by the number of
// words of the English sentence (count_words over the word tokenizer, never
// a model's own source tokens).
struct LengthBucket {
    std::string label;  // "1-4", "5-7", "8-11", "12+"
    int min_words;      // inclusive
    int max_words;      // inclusive; a large number for the last bucket
};
const std::vector<LengthBucket>& length_buckets();

struct BleuReport {
    CorpusScore overall;
    std::vector<std::pair<LengthBucket, CorpusScore>> by_length;  // one per bucket, in order, even if empty
};

// hypotheses[k] (detokenized) against references[k] (raw; empty ones are
// dropped as sacreBLEU drops them); source_words[k] is the English word
// count of sentence k. Throws UsageError when the sizes differ, a sentence
// has no non-empty reference or a word count is negative.
BleuReport bleu_report(const std::vector<std::string>& hypotheses,
                       const std::vector<std::vector<std::string>>& references, const std::vector<int>& source_words,
                       BleuTokenizer tokenizer);

// Fields: bleu, chrf2, brevity_penalty, precisions, counts, totals,
// hypothesis_length, reference_length, sentences, signature (BLEU's),
// chrf2_signature, metric; a report: overall and by_length (each score also
// with bucket, min_words, max_words).
nlohmann::json to_json(const CorpusScore& score);
nlohmann::json to_json(const BleuReport& report);

}  // namespace s2s
