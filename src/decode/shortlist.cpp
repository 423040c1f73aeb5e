// The lexical shortlist's per-sentence blocks (shortlist.h).
#include "decode/shortlist.h"

#include "common/error.h"
#include "text/vocabulary.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace s2s {
namespace {
constexpr int kBlockRows = 8;  // int8_kernels.h: W_o's rows are packed in blocks of 8
}  // namespace

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
