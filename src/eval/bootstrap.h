// How sure a BLEU figure is: bootstrap resampling over the sentences of a
// test set (Koehn, 2004, "Statistical Significance Tests for Machine
// Translation Evaluation"), as sacreBLEU's --paired-bs does it in spirit.
// Each resample draws as many sentences as the set has, with replacement,
// and sums their sufficient statistics (bleu.h) into a corpus BLEU; the 95%
// interval is the 2.5th and 97.5th percentile of those scores. Paired: the
// two systems are scored on the same draws, so the interval of their
// difference leaves out the variance the sentences share.
#pragma once

#include "eval/bleu.h"

#include <cstdint>
#include <vector>

namespace s2s {

struct BleuInterval {
    double low = 0.0;   // 2.5th percentile of the resampled scores
    double high = 0.0;  // 97.5th percentile
};

struct BootstrapReport {
    int resamples = 0;
    uint64_t seed = 0;
    double bleu = 0.0;  // on the whole set
    BleuInterval interval;
    // With a baseline scored on the same sentences (paired):
    bool paired = false;
    double baseline_bleu = 0.0;
    BleuInterval baseline_interval;
    double difference = 0.0;      // bleu - baseline_bleu
    BleuInterval difference_interval;
    double better_share = 0.0;    // share of resamples where the system scores higher
};

// One sentence's statistics per entry (bleu_sentence_stats). The same seed
// gives the same draws. Throws UsageError if `system` is empty, `baseline`
// (when given) has another size, or `resamples` is outside 10..100,000.
BootstrapReport bootstrap_bleu(const std::vector<BleuStats>& system, const std::vector<BleuStats>* baseline,
                               int resamples, uint64_t seed);

}  // namespace s2s
