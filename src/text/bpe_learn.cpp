// Learning BPE merges from pre-token counts (bpe_learn.h).
#include "text/bpe_learn.h"

#include "text/utf8.h"

#include <algorithm>
#include <queue>
#include <tuple>
#include <utility>

namespace s2s {

std::unordered_map<std::string, long> count_pre_tokens(const std::vector<std::string>& sentences, std::string_view language) {
    std::unordered_map<std::string, long> counts;
    for (const std::string& sentence : sentences) {
        const std::string normalized = normalize_text(sentence);
        for (const PreToken& token : pre_tokenize(normalized, language)) ++counts[pre_token_text(normalized, token)];
    }
    return counts;
}

BpeModel learn_bpe(const std::unordered_map<std::string, long>& pre_token_counts, int max_pieces, std::vector<std::string>* pieces) {
    // Symbols as ids; words (pre-tokens) as id sequences, in byte order of
    // their text so that nothing depends on the hash map's order.
    std::vector<std::string> symbols;
    std::unordered_map<std::string, int> symbol_ids;
    const auto symbol_id = [&](const std::string& s) {
        const auto inserted = symbol_ids.emplace(s, static_cast<int>(symbols.size()));
        if (inserted.second) symbols.push_back(s);
        return inserted.first->second;
    };
    std::vector<const std::pair<const std::string, long>*> entries;
    for (const auto& entry : pre_token_counts) entries.push_back(&entry);
    std::sort(entries.begin(), entries.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
    std::vector<std::vector<int>> words;
    std::vector<long> counts;
    for (const auto* entry : entries) {
        if (entry->second <= 0) continue;
        std::vector<int> word;
        for (const std::string& c : split_characters(entry->first)) word.push_back(symbol_id(c));
        words.push_back(std::move(word));
        counts.push_back(entry->second);
    }
    if (pieces != nullptr) {
        std::vector<long> frequency(symbols.size(), 0);
        for (size_t w = 0; w < words.size(); ++w) {
            for (int id : words[w]) frequency[static_cast<size_t>(id)] += counts[w];
        }
        std::vector<int> order(symbols.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
        std::sort(order.begin(), order.end(), [&](int a, int b) {
            if (frequency[static_cast<size_t>(a)] != frequency[static_cast<size_t>(b)]) {
                return frequency[static_cast<size_t>(a)] > frequency[static_cast<size_t>(b)];
            }
            return symbols[static_cast<size_t>(a)] < symbols[static_cast<size_t>(b)];
        });
        pieces->clear();
        for (int id : order) pieces->push_back(symbols[static_cast<size_t>(id)]);
    }

    using PairKey = uint64_t;
    const auto key_of = [](int a, int b) { return (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b); };
    std::unordered_map<PairKey, long> pair_counts;
    std::unordered_map<PairKey, std::vector<int>> pair_words;  // may list a word twice, or one that lost the pair
    for (size_t w = 0; w < words.size(); ++w) {
        for (size_t i = 0; i + 1 < words[w].size(); ++i) {
            const PairKey key = key_of(words[w][i], words[w][i + 1]);
            pair_counts[key] += counts[w];
            pair_words[key].push_back(static_cast<int>(w));
        }
    }

    struct Candidate {
        long count;
        int left;
        int right;
    };
    // Most frequent first; on a tie the pair whose strings come first.
    const auto lower_priority = [&](const Candidate& x, const Candidate& y) {
        if (x.count != y.count) return x.count < y.count;
        return std::tie(symbols[static_cast<size_t>(x.left)], symbols[static_cast<size_t>(x.right)]) >
               std::tie(symbols[static_cast<size_t>(y.left)], symbols[static_cast<size_t>(y.right)]);
    };
    std::priority_queue<Candidate, std::vector<Candidate>, decltype(lower_priority)> queue(lower_priority);
    for (const auto& [key, count] : pair_counts) {
        queue.push({count, static_cast<int>(key >> 32), static_cast<int>(key & 0xFFFFFFFFu)});
    }

    std::vector<BpeModel::Merge> merges;
    std::vector<int> seen_at(words.size(), -1);
    // Merged pieces are new symbols: stop when the vocabulary is full.
    while (static_cast<int>(symbols.size()) < max_pieces && !queue.empty()) {
        const Candidate best = queue.top();
        queue.pop();
        const PairKey best_key = key_of(best.left, best.right);
        const auto current = pair_counts.find(best_key);
        if (current == pair_counts.end() || current->second != best.count) continue;  // stale entry
        if (best.count < 2) break;  // a pair seen once is no subword unit
        const size_t known_symbols = symbols.size();
        const int merged_id = symbol_id(symbols[static_cast<size_t>(best.left)] + symbols[static_cast<size_t>(best.right)]);
        if (pieces != nullptr && symbols.size() > known_symbols) pieces->push_back(symbols.back());
        merges.push_back({symbols[static_cast<size_t>(best.left)], symbols[static_cast<size_t>(best.right)]});
        const int merge_index = static_cast<int>(merges.size());

        std::vector<PairKey> changed;
        const std::vector<int> affected = std::move(pair_words[best_key]);
        pair_words.erase(best_key);
        for (int w : affected) {
            if (seen_at[static_cast<size_t>(w)] == merge_index) continue;
            seen_at[static_cast<size_t>(w)] = merge_index;
            std::vector<int>& word = words[static_cast<size_t>(w)];
            const long count = counts[static_cast<size_t>(w)];
            std::vector<int> merged;
            merged.reserve(word.size());
            for (size_t i = 0; i < word.size(); ++i) {
                if (i + 1 < word.size() && word[i] == best.left && word[i + 1] == best.right) {
                    merged.push_back(merged_id);
                    ++i;
                } else {
                    merged.push_back(word[i]);
                }
            }
            if (merged.size() == word.size()) continue;  // listed, but lost the pair to an earlier merge
            for (size_t i = 0; i + 1 < word.size(); ++i) {
                const PairKey key = key_of(word[i], word[i + 1]);
                pair_counts[key] -= count;
                changed.push_back(key);
            }
            for (size_t i = 0; i + 1 < merged.size(); ++i) {
                const PairKey key = key_of(merged[i], merged[i + 1]);
                pair_counts[key] += count;
                changed.push_back(key);
                if (merged[i] == merged_id || merged[i + 1] == merged_id) pair_words[key].push_back(w);
            }
            word = std::move(merged);
        }
        std::sort(changed.begin(), changed.end());
        changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
        for (PairKey key : changed) {
            const long count = pair_counts[key];
            if (count > 0) queue.push({count, static_cast<int>(key >> 32), static_cast<int>(key & 0xFFFFFFFFu)});
        }
    }
    return BpeModel(std::move(merges));
}

}  // namespace s2s
