// Two non-cryptographic 64-bit hashes (they detect damage, not tampering):
//   fnv1a64      a byte at a time: the development split, provenance, and
//                the data checksum of model files of format versions 1 and 2
//   word_hash64  eight bytes at a time: the checksum of model files from
//                format version 3 on, over every byte
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>

namespace s2s {

// 64-bit FNV-1a (Fowler, Noll, Vo): tiny, portable and byte-order-free.
inline constexpr uint64_t kFnv1a64OffsetBasis = 0xcbf29ce484222325ULL;

// word_hash64: a checksum at memory speed. FNV-1a's chain of one multiply
// per byte runs at well under 1 GB/s; a model file is checked on every load
// (3.35 MB for en-fr, in WASM on a phone), so this hash reads 8-byte
// little-endian words into four independent lanes, which a CPU multiplies
// in parallel:
//   word i (the last, partial word padded with zeros) goes to lane i mod 4:
//     lane = rotl64(lane + word * kWordHashK1, 31) * kWordHashK2
//   lanes start at (j + 1) * kWordHashK1, j = 0..3;
//   h = rotl64(lane0, 1) + rotl64(lane1, 7) + rotl64(lane2, 12) + rotl64(lane3, 18)
//   h ^= size * kWordHashK3  (so trailing zero bytes change the hash)
//   result = fmix64(h), MurmurHash3's finalizer (Appleby): every input bit
//            reaches every output bit.
// The round is the shape of xxHash64's (Collet); the constants are the
// golden ratio and SplitMix64's multipliers (Steele, Lea, Flood), all odd.
// What that buys:
//   - A round is a bijection of its lane for a fixed word and of its word
//     for a fixed lane, and the lanes meet only in the final sum, where each
//     is rotated on its own: damage confined to one 8-byte word (any bits
//     of it) always changes the hash.
//   - Multiplication carries a difference only upward; the rotation brings
//     the high bits down before the next multiply, so two flipped high bits
//     in one lane (two float sign bits, say) do not cancel as they would in
//     a plain multiply chain.
//   - Other damage goes unnoticed with a chance of about 2^-64.
// It is not xxHash64 (no tail rounds, other constants): its reference values
// are the doctest's (tests/cpp/test_hash.cpp), and the JavaScript copy
// (bench/tfjs-model.mjs) is checked against them.
inline constexpr uint64_t kWordHashK1 = 0x9E3779B97F4A7C15ULL;  // 2^64 / golden ratio
inline constexpr uint64_t kWordHashK2 = 0xBF58476D1CE4E5B9ULL;  // SplitMix64
inline constexpr uint64_t kWordHashK3 = 0x94D049BB133111EBULL;  // SplitMix64

namespace hash_detail {

inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

inline uint64_t load_le64(const uint8_t* p) {
    uint64_t word;
    std::memcpy(&word, p, sizeof word);  // one unaligned load on x86 and WASM
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word = __builtin_bswap64(word);
#endif
    return word;
}

// The `count` (1 to 7) bytes at `p` as a little-endian word padded with
// zeros, read in at most three loads that stay inside them (overlapping
// loads OR the same byte into the same place).
inline uint64_t load_le_tail(const uint8_t* p, size_t count) {
    if (count >= 4) {
        uint32_t low, high;
        std::memcpy(&low, p, 4);
        std::memcpy(&high, p + count - 4, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        low = __builtin_bswap32(low);
        high = __builtin_bswap32(high);
#endif
        return uint64_t{low} | uint64_t{high} << (8 * (count - 4));
    }
    return uint64_t{p[0]} | uint64_t{p[count / 2]} << (8 * (count / 2)) | uint64_t{p[count - 1]} << (8 * (count - 1));
}

inline uint64_t word_round(uint64_t lane, uint64_t word) {
    return rotl64(lane + word * kWordHashK1, 31) * kWordHashK2;
}

// The hashes below walk a large buffer (a whole model file) in chunks of
// this many bytes, one call each: in WASM a browser first runs a function as
// quickly compiled baseline code and swaps in optimized code only between
// calls, so a single call over megabytes would run unoptimized throughout.
// The result is the same as one pass.
inline constexpr size_t kHashChunk = size_t{1} << 16;

// `stripes` 32-byte stripes of word_hash64: four independent multiply chains.
[[gnu::noinline]] inline void word_hash_stripes(uint64_t* lane, const uint8_t* bytes, size_t stripes) {
    for (size_t i = 0; i < stripes; ++i, bytes += 32) {
        lane[0] = word_round(lane[0], load_le64(bytes));
        lane[1] = word_round(lane[1], load_le64(bytes + 8));
        lane[2] = word_round(lane[2], load_le64(bytes + 16));
        lane[3] = word_round(lane[3], load_le64(bytes + 24));
    }
}

[[gnu::noinline]] inline uint64_t fnv1a64_chunk(const uint8_t* bytes, size_t size, uint64_t hash) {
    constexpr uint64_t kPrime = 0x100000001b3ULL;
    for (size_t i = 0; i < size; ++i) {
        hash ^= bytes[i];
        hash *= kPrime;
    }
    return hash;
}

inline uint64_t fmix64(uint64_t h) {
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ULL;
    h ^= h >> 33;
    return h;
}

}  // namespace hash_detail

// `seed` continues a hash over more bytes (pass the previous result).
inline uint64_t fnv1a64(const void* data, size_t size, uint64_t seed = kFnv1a64OffsetBasis) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    uint64_t hash = seed;
    for (size_t at = 0; at < size; at += hash_detail::kHashChunk) {  // in chunks: see kHashChunk
        hash = hash_detail::fnv1a64_chunk(bytes + at, std::min(size - at, hash_detail::kHashChunk), hash);
    }
    return hash;
}

inline uint64_t word_hash64(const void* data, size_t size) {
    using namespace hash_detail;
    const auto* bytes = static_cast<const uint8_t*>(data);
    uint64_t lane[4] = {kWordHashK1, 2 * kWordHashK1, 3 * kWordHashK1, 4 * kWordHashK1};
    size_t at = 0;
    // 32-byte stripes, kHashChunk bytes per call (see word_hash_stripes).
    for (; size - at >= 32; at += std::min(size - at, kHashChunk) / 32 * 32) {
        word_hash_stripes(lane, bytes + at, std::min(size - at, kHashChunk) / 32);
    }
    for (; size - at >= 8; at += 8) lane[(at / 8) % 4] = word_round(lane[(at / 8) % 4], load_le64(bytes + at));
    if (size > at) {
        uint8_t padded[8] = {};
        std::memcpy(padded, bytes + at, size - at);
        lane[(at / 8) % 4] = word_round(lane[(at / 8) % 4], load_le64(padded));
    }
    uint64_t h = rotl64(lane[0], 1) + rotl64(lane[1], 7) + rotl64(lane[2], 12) + rotl64(lane[3], 18);
    h ^= static_cast<uint64_t>(size) * kWordHashK3;
    return fmix64(h);
}

// A hash for the open-addressed tables of short texts (the vocabulary's
// index, the BPE merges' ranks): the hash of the text a + b + c, without
// joining them on the heap. Its 8-byte little-endian words (the last one
// padded with zeros) go through one multiply chain (word_hash64's round),
// the length first, MurmurHash3's finalizer last. The parts are copied side
// by side into a stack buffer, or, beyond it (no vocabulary piece is that
// long), into a string.
inline uint64_t joined_text_hash(std::string_view a, std::string_view b = {}, std::string_view c = {}) {
    if (b.empty() && c.empty()) {
        // One text (every entry of a table, and most lookups): its words read
        // where they lie, the last one gathered byte by byte, with no buffer
        // to clear and no copy; the same value as the joined path below.
        const auto* bytes = reinterpret_cast<const uint8_t*>(a.data());
        const size_t size = a.size();
        uint64_t h = size * kWordHashK3;
        size_t i = 0;
        for (; i + 8 <= size; i += 8) h = hash_detail::word_round(h, hash_detail::load_le64(bytes + i));
        if (i < size) h = hash_detail::word_round(h, hash_detail::load_le_tail(bytes + i, size - i));
        return hash_detail::fmix64(h);
    }
    constexpr size_t kBuffer = 64;
    const size_t size = a.size() + b.size() + c.size();
    std::string heap;
    uint8_t stack[kBuffer + 8] = {};
    const uint8_t* joined = stack;
    if (size > kBuffer) {
        heap.reserve(size + 8);
        heap.append(a).append(b).append(c).append(8, '\0');  // zeros to read the last word
        joined = reinterpret_cast<const uint8_t*>(heap.data());
    } else {
        uint8_t* at = stack;
        for (std::string_view part : {a, b, c}) {
            if (!part.empty()) std::memcpy(at, part.data(), part.size());
            at += part.size();
        }
    }
    uint64_t h = size * kWordHashK3;
    for (size_t i = 0; i < size; i += 8) h = hash_detail::word_round(h, hash_detail::load_le64(joined + i));
    return hash_detail::fmix64(h);
}

// joined_text_hash folded to a size_t, its high bits into the low ones that
// a power-of-two table's mask keeps: a slot of the tables above.
inline size_t joined_text_slot(std::string_view a, std::string_view b = {}, std::string_view c = {}) {
    const uint64_t h = joined_text_hash(a, b, c);
    return static_cast<size_t>(h ^ (h >> 32));
}

// Whether `text` is a + b + c: what those tables compare a slot's entry with.
inline bool text_joins(std::string_view text, std::string_view a, std::string_view b = {}, std::string_view c = {}) {
    return text.size() == a.size() + b.size() + c.size() && text.compare(0, a.size(), a) == 0 &&
           text.compare(a.size(), b.size(), b) == 0 && text.compare(a.size() + b.size(), c.size(), c) == 0;
}

// The slot count of such a table for `count` entries: a power of two, at
// least 16, at most half full (linear probing stays short).
inline size_t open_table_capacity(size_t count) {
    size_t capacity = 16;
    while (capacity < 2 * count) capacity *= 2;
    return capacity;
}

// 16 lowercase hex digits, the form hashes take in files and messages.
inline std::string to_hex64(uint64_t value) {
    static const char kDigits[] = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, value >>= 4) out[static_cast<size_t>(i)] = kDigits[value & 0xF];
    return out;
}

}  // namespace s2s
