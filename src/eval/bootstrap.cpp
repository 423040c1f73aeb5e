#include "eval/bootstrap.h"

#include "common/error.h"
#include "common/random.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace s2s {
namespace {

BleuStats sum(const std::vector<BleuStats>& stats) {
    BleuStats total;
    for (const BleuStats& s : stats) total += s;
    return total;
}

// The percentile of sorted values, linearly interpolated between ranks.
double percentile(const std::vector<double>& sorted, double p) {
    const double rank = p * static_cast<double>(sorted.size() - 1);
    const size_t below = static_cast<size_t>(std::floor(rank));
    const size_t above = std::min(below + 1, sorted.size() - 1);
    return sorted[below] + (rank - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

BleuInterval interval_of(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return {percentile(values, 0.025), percentile(values, 0.975)};
}

}  // namespace

BootstrapReport bootstrap_bleu(const std::vector<BleuStats>& system, const std::vector<BleuStats>* baseline,
                               int resamples, uint64_t seed) {
    if (system.empty()) throw UsageError("a bootstrap needs at least one sentence");
    if (baseline && baseline->size() != system.size()) {
        throw UsageError("a paired bootstrap needs both systems' translations of the same sentences, but there are " +
                         std::to_string(system.size()) + " and " + std::to_string(baseline->size()));
    }
    if (resamples < 10 || resamples > 100000) {
        throw UsageError("the number of bootstrap resamples must be 10 to 100000, not " + std::to_string(resamples));
    }
    BootstrapReport report;
    report.resamples = resamples;
    report.seed = seed;
    report.paired = baseline != nullptr;
    report.bleu = bleu_from_stats(sum(system)).bleu;
    if (baseline) {
        report.baseline_bleu = bleu_from_stats(sum(*baseline)).bleu;
        report.difference = report.bleu - report.baseline_bleu;
    }
    Random random(seed);
    const size_t n = system.size();
    std::vector<double> scores, baseline_scores, differences;
    long better = 0;
    for (int r = 0; r < resamples; ++r) {
        BleuStats drawn, drawn_baseline;
        for (size_t k = 0; k < n; ++k) {
            const size_t pick = random.below(n);
            drawn += system[pick];
            if (baseline) drawn_baseline += (*baseline)[pick];
        }
        const double score = bleu_from_stats(drawn).bleu;
        scores.push_back(score);
        if (baseline) {
            const double base = bleu_from_stats(drawn_baseline).bleu;
            baseline_scores.push_back(base);
            differences.push_back(score - base);
            if (score > base) ++better;
        }
    }
    report.interval = interval_of(std::move(scores));
    if (baseline) {
        report.baseline_interval = interval_of(std::move(baseline_scores));
        report.difference_interval = interval_of(std::move(differences));
        report.better_share = static_cast<double>(better) / resamples;
    }
    return report;
}

}  // namespace s2s
