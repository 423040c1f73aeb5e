// 64-bit FNV-1a (Fowler, Noll, Vo): a tiny, portable, byte-order-free hash
// for model-file checksums, the development split and provenance. Not
// cryptographic: it detects damage, not tampering.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace s2s {

inline constexpr uint64_t kFnv1a64OffsetBasis = 0xcbf29ce484222325ULL;

// `seed` continues a hash over more bytes (pass the previous result).
inline uint64_t fnv1a64(const void* data, size_t size, uint64_t seed = kFnv1a64OffsetBasis) {
    constexpr uint64_t kPrime = 0x100000001b3ULL;
    const auto* bytes = static_cast<const uint8_t*>(data);
    uint64_t hash = seed;
    for (size_t i = 0; i < size; ++i) {
        hash ^= bytes[i];
        hash *= kPrime;
    }
    return hash;
}

// 16 lowercase hex digits, the form hashes take in files and messages.
inline std::string to_hex64(uint64_t value) {
    static const char kDigits[] = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, value >>= 4) out[static_cast<size_t>(i)] = kDigits[value & 0xF];
    return out;
}

}  // namespace s2s
