// A small portable random generator (SplitMix64, Steele, Lea and Flood,
// 2014): the same stream on every compiler and platform, unlike the
// distributions of <random>. Parameter initialization, dropout masks and
// the training data's order and subword dropout all draw from it.
#pragma once

#include <cstdint>

namespace s2s {

class Random {
public:
    explicit Random(uint64_t seed) : state_(seed) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // In [0, 1): the top 24 bits, so every value is exact in a float.
    float uniform() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
    float uniform(float low, float high) { return low + (high - low) * uniform(); }

private:
    uint64_t state_;
};

}  // namespace s2s
