// SplitMix64 (Steele, Lea and Flood, 2014), the project's one source of
// random numbers: the same stream on every compiler and platform, unlike
// the distributions of <random>. Parameter initialization, dropout masks,
// the training data's order and subword dropout, and the bootstrap's
// resamples all draw from Random; the development split's hash finishes
// with the generator's mixing function alone (splitmix64_mix).
#pragma once

#include <cstddef>
#include <cstdint>

namespace s2s {

// SplitMix64's finalizer: spreads every input bit over the whole word
// (a bijection of uint64_t).
constexpr uint64_t splitmix64_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

class Random {
public:
    explicit Random(uint64_t seed) : state_(seed) {}
    // The state advances by 2^64 / golden ratio, and the mix makes the output.
    uint64_t next() { return splitmix64_mix(state_ += 0x9e3779b97f4a7c15ULL); }
    // In [0, 1): the top 24 bits, so every value is exact in a float.
    float uniform() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
    float uniform(float low, float high) { return low + (high - low) * uniform(); }
    // Uniform in [0, n), n > 0, by rejection, without modulo bias.
    size_t below(size_t n) {
        const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        uint64_t x;
        do x = next(); while (x >= limit);
        return static_cast<size_t>(x % n);
    }

private:
    uint64_t state_;
};

}  // namespace s2s
