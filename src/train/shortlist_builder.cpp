// The lexical shortlist's builder (shortlist_builder.h).
#include "train/shortlist_builder.h"

#include "common/error.h"
#include "text/vocabulary.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace s2s {
namespace {
constexpr int kSpecials = 4;   // <pad> <unk> <bos> <eos>
}  // namespace

TargetShortlist build_target_shortlist(const std::vector<std::vector<int>>& sources,
                                       const std::vector<std::vector<int>>& targets, int source_vocab_size,
                                       int target_vocab_size, int always, int per_target, const ShortlistScore& score) {
    if (always < kSpecials || always > target_vocab_size) {
        throw UsageError("{always} must be " + std::to_string(kSpecials) + " to the target vocabulary size (" +
                         std::to_string(target_vocab_size) + "), not " + std::to_string(always));
    }
    if (per_target < 1 || per_target > kMaxShortlistTriggers) {
        throw UsageError("{per-target} must be 1 to " + std::to_string(kMaxShortlistTriggers) + ", not " +
                         std::to_string(per_target));
    }
    if (sources.size() != targets.size()) throw UsageError("build_target_shortlist: sources and targets differ in count");
    const int extra = target_vocab_size - always;
    std::vector<int> source_count(static_cast<size_t>(source_vocab_size), 0);
    std::vector<int> target_count(static_cast<size_t>(std::max(extra, 0)), 0);
    std::vector<std::unordered_map<int, int>> pair_count(static_cast<size_t>(std::max(extra, 0)));
    std::vector<int> s_ids, t_ids;
    for (size_t n = 0; n < sources.size(); ++n) {
        s_ids.clear();
        for (int s : sources[n]) {
            if (s >= kSpecials && s < source_vocab_size) s_ids.push_back(s);  // <unk> and <eos> trigger nothing
        }
        std::sort(s_ids.begin(), s_ids.end());
        s_ids.erase(std::unique(s_ids.begin(), s_ids.end()), s_ids.end());
        t_ids.clear();
        for (int t : targets[n]) {
            if (t >= always && t < target_vocab_size) t_ids.push_back(t - always);
        }
        std::sort(t_ids.begin(), t_ids.end());
        t_ids.erase(std::unique(t_ids.begin(), t_ids.end()), t_ids.end());
        for (int s : s_ids) ++source_count[static_cast<size_t>(s)];
        for (int t : t_ids) {
            ++target_count[static_cast<size_t>(t)];
            auto& counts = pair_count[static_cast<size_t>(t)];
            for (int s : s_ids) ++counts[s];
        }
    }
    const double N = static_cast<double>(sources.size());
    TargetShortlist out;
    out.always = always;
    out.per_target = per_target;
    out.triggers.assign(static_cast<size_t>(std::max(extra, 0)) * per_target, -1);
    std::vector<std::pair<double, int>> ranked;
    for (int t = 0; t < extra; ++t) {
        ranked.clear();
        for (const auto& [s, c] : pair_count[static_cast<size_t>(t)]) {
            const int cs = source_count[static_cast<size_t>(s)];
            if (c < score.min_count || cs > score.max_source_share * N) continue;
            const double value = static_cast<double>(c) / target_count[static_cast<size_t>(t)] * std::log(N / cs);
            if (value > 0.0) ranked.emplace_back(value, s);
        }
        // Best first; ties to the lower source id, so that the result does not depend on the hash map's order.
        std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        for (int j = 0; j < per_target && j < static_cast<int>(ranked.size()); ++j) {
            out.triggers[static_cast<size_t>(t) * per_target + j] = ranked[static_cast<size_t>(j)].second;
        }
    }
    return out;
}

}  // namespace s2s
