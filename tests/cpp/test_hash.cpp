// The hashes of src/common/hash.h. Their values are part of file formats
// (word_hash64 is the checksum of model files from format version 3 on,
// fnv1a64 the data checksum of versions 1 and 2 and the provenance hash), so
// fixed expected values pin them: a change to either fails here. The
// JavaScript copy of word_hash64 (bench/tfjs-model.mjs) is checked against
// the same values in tests/js/cli.test.mjs.
#include "common/hash.h"

#include <doctest/doctest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

using namespace s2s;

namespace {

uint64_t word_hash(const std::string& text) { return word_hash64(text.data(), text.size()); }

// 1000 bytes: (31 i + 7) mod 256.
std::vector<uint8_t> pattern_1000() {
    std::vector<uint8_t> bytes(1000);
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 31 + 7);
    return bytes;
}

}  // namespace

TEST_CASE("fnv1a64: the published FNV-1a 64 values") {
    CHECK(fnv1a64("", 0) == 0xcbf29ce484222325ULL);
    CHECK(fnv1a64("a", 1) == 0xaf63dc4c8601ec8cULL);
    CHECK(fnv1a64("foobar", 6) == 0x85944171f73967e8ULL);
    // A seed continues the hash.
    CHECK(fnv1a64("bar", 3, fnv1a64("foo", 3)) == fnv1a64("foobar", 6));
    CHECK(to_hex64(0x00ab0000000000cdULL) == "00ab0000000000cd");
}

TEST_CASE("word_hash64: fixed values (these are in every version 3 model file; never change them)") {
    CHECK(word_hash("") == 0xbe38f461dd723316ULL);
    CHECK(word_hash("a") == 0xa961b78585c85934ULL);
    CHECK(word_hash("abcdefgh") == 0x8a0f2377ccf74a6dULL);   // one whole word
    CHECK(word_hash("abcdefghi") == 0x8ea31167ad62ee42ULL);  // and one byte
    CHECK(word_hash("The quick brown fox jumps over the lazy dog") == 0xfcd30097f59a0a66ULL);  // a stripe, 1 word, a tail
    const std::vector<uint8_t> pattern = pattern_1000();
    CHECK(word_hash64(pattern.data(), pattern.size()) == 0x01761c1ad2ae2458ULL);
    const std::vector<uint8_t> zeros(33, 0);
    CHECK(word_hash64(zeros.data(), 32) == 0x360b16937ed45d63ULL);
    CHECK(word_hash64(zeros.data(), 33) == 0x00a964e080ad5658ULL);
}

TEST_CASE("word_hash64: the length counts, and every flipped bit and pair of flipped bits changes the hash") {
    // Zero bytes of every length: the padding of the last word is not ambiguous.
    const std::vector<uint8_t> zeros(300, 0);
    std::set<uint64_t> by_length;
    for (size_t n = 0; n <= zeros.size(); ++n) by_length.insert(word_hash64(zeros.data(), n));
    CHECK(by_length.size() == zeros.size() + 1);

    // 120 random bytes: 15 words, so every lane sees several and the tail is empty;
    // then 117 bytes, so the last word is partial.
    std::mt19937 rng(11);
    for (size_t size : {120, 117}) {
        std::vector<uint8_t> bytes(size);
        for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
        const uint64_t original = word_hash64(bytes.data(), bytes.size());
        std::set<uint64_t> seen;
        long same = 0, pairs = 0;
        for (size_t i = 0; i < size * 8; ++i) {
            bytes[i / 8] ^= static_cast<uint8_t>(1u << (i % 8));
            seen.insert(word_hash64(bytes.data(), bytes.size()));
            for (size_t j = i + 1; j < size * 8; j += 13) {  // a spread of second bits, in every lane
                bytes[j / 8] ^= static_cast<uint8_t>(1u << (j % 8));
                same += word_hash64(bytes.data(), bytes.size()) == original;
                ++pairs;
                bytes[j / 8] ^= static_cast<uint8_t>(1u << (j % 8));
            }
            bytes[i / 8] ^= static_cast<uint8_t>(1u << (i % 8));
        }
        INFO(size << " bytes");
        CHECK(seen.size() == size * 8);  // all different, and none equal to the original:
        CHECK(seen.count(original) == 0);
        CHECK(same == 0);
        CHECK(pairs > 20000);
    }

    // Sign bits of floats in two words of one lane (words 0 and 4) do not
    // cancel, as they would in a plain multiply chain.
    std::vector<uint8_t> floats(64, 0x3f);
    const uint64_t before = word_hash64(floats.data(), floats.size());
    floats[7] ^= 0x80;
    floats[39] ^= 0x80;
    CHECK(word_hash64(floats.data(), floats.size()) != before);
}

TEST_CASE("word_hash64: avalanche: one flipped input bit changes about half the output bits") {
    std::mt19937 rng(5);
    double changed = 0;
    long flips = 0;
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<uint8_t> bytes(1 + rng() % 80);
        for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
        const uint64_t original = word_hash64(bytes.data(), bytes.size());
        for (size_t i = 0; i < bytes.size() * 8; ++i) {
            bytes[i / 8] ^= static_cast<uint8_t>(1u << (i % 8));
            changed += __builtin_popcountll(original ^ word_hash64(bytes.data(), bytes.size()));
            ++flips;
            bytes[i / 8] ^= static_cast<uint8_t>(1u << (i % 8));
        }
    }
    MESSAGE("mean output bits changed: ", changed / flips, " of 64");
    CHECK(changed / flips > 31.5);
    CHECK(changed / flips < 32.5);
}

TEST_CASE("joined_text_hash: one text hashes as the same bytes given in two or three parts") {
    std::mt19937 random(5);
    std::string text;
    for (size_t size = 0; size <= 80; ++size) {
        CAPTURE(size);
        const uint64_t whole = joined_text_hash(text);
        for (size_t cut = 0; cut <= size; ++cut) {
            const std::string_view view(text);
            CHECK(joined_text_hash(view.substr(0, cut), view.substr(cut)) == whole);
            CHECK(joined_text_hash(view.substr(0, cut / 2), view.substr(cut / 2, cut - cut / 2), view.substr(cut)) == whole);
        }
        text.push_back(static_cast<char>(random() & 0xFF));
    }
    CHECK(joined_text_hash("ab") != joined_text_hash("ab", std::string_view("\0", 1)));
}
