// The lexical shortlist's builder and per-sentence blocks (shortlist.h).
#include "decode/shortlist.h"

#include "common/error.h"
#include "text/vocabulary.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace s2s {
namespace {
constexpr int kBlockRows = 8;  // int8_kernels.h: W_o's rows are packed in blocks of 8
constexpr int kSpecials = 4;   // <pad> <unk> <bos> <eos>
}  // namespace

TargetShortlist build_target_shortlist(const std::vector<std::vector<int>>& sources,
                                       const std::vector<std::vector<int>>& targets, int source_vocab_size,
                                       int target_vocab_size, int always, int per_target, const ShortlistScore& score) {
    if (always < kSpecials || always > target_vocab_size) {
        throw UsageError("--always must be " + std::to_string(kSpecials) + " to the target vocabulary size (" +
                         std::to_string(target_vocab_size) + "), not " + std::to_string(always));
    }
    if (per_target < 1 || per_target > kMaxShortlistTriggers) {
        throw UsageError("--per-target must be 1 to " + std::to_string(kMaxShortlistTriggers) + ", not " +
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

std::vector<int> shortlist_blocks(const TargetShortlist& shortlist, const std::vector<int>& source,
                                  int target_vocab_size, const std::vector<int>& extra) {
    const int blocks = (target_vocab_size + kBlockRows - 1) / kBlockRows;
    std::vector<char> wanted(static_cast<size_t>(blocks), 0);
    const int always_blocks = std::min(blocks, (shortlist.always + kBlockRows - 1) / kBlockRows);
    std::fill(wanted.begin(), wanted.begin() + always_blocks, 1);
    int largest = -1;
    for (int s : source) largest = std::max(largest, s);
    std::vector<char> present(static_cast<size_t>(largest + 1), 0);
    for (int s : source) {
        if (s >= 0) present[static_cast<size_t>(s)] = 1;
    }
    const int K = shortlist.per_target;
    const int targets = static_cast<int>(shortlist.triggers.size()) / std::max(K, 1);
    for (int t = 0; t < targets; ++t) {
        const int block = (shortlist.always + t) / kBlockRows;
        if (block >= blocks || wanted[static_cast<size_t>(block)]) continue;
        for (int j = 0; j < K; ++j) {
            const int s = shortlist.triggers[static_cast<size_t>(t) * K + j];
            if (s >= 0 && s <= largest && present[static_cast<size_t>(s)]) {
                wanted[static_cast<size_t>(block)] = 1;
                break;
            }
        }
    }
    for (int t : extra) {
        if (t >= 0 && t < target_vocab_size) wanted[static_cast<size_t>(t / kBlockRows)] = 1;
    }
    std::vector<int> out;
    for (int b = 0; b < blocks; ++b) {
        if (wanted[static_cast<size_t>(b)]) out.push_back(b);
    }
    return out;
}

}  // namespace s2s
