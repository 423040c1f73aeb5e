// libFuzzer target: arbitrary bytes as a .s2s model file (model_from_bytes).
//
// What must hold for every input (any violation aborts, and libFuzzer
// reports it with the input that caused it):
//   - loading either succeeds or throws s2s::ModelFileError with a message;
//     no other exception, no sanitizer report, no huge allocation
//     (-rss_limit_mb, -malloc_limit_mb) and no hang (-timeout);
//   - a model that loads translates: a short sentence, greedy and with a
//     beam, gives well-formed results (decode invariants are checked by
//     fuzz_translate in depth).
//
// The checksum of format version 3 on covers every byte (that of versions
// 1 and 2 the tensor data), so almost every mutation stops at the checksum.
// To reach the checks after it (among them those of version 4's records of
// strings: counts, offsets, UTF-8, the vocabularies and merges they hold),
// every input whose error names the checksum is tried a second time with
// its checksum recomputed: from version 3 on the last 8 bytes, for versions
// 1 and 2 the harness's own walk over the layout, written independently of
// the loader, as in tests/cpp/test_model_file.cpp.
//
// Build and run: scripts/fuzz.sh (the fuzz preset); the seeds are in
// tests/fuzz/corpus/fuzz_model_file/.
#include "common/error.h"
#include "common/hash.h"
#include "decode/translator.h"
#include "model/model.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "fuzz_model_file: invariant broken: %s\n", what.c_str());
    std::abort();
}

uint32_t get_u32(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }
uint64_t get_u64(const uint8_t* p) { return get_u32(p) | uint64_t(get_u32(p + 4)) << 32; }

// Rewrites the checksum of `bytes` to match them. Returns false when the
// file is too short to hold one or, for versions 1 and 2, when the layout
// cannot be walked far enough to find it.
bool reseal(std::vector<uint8_t>& bytes) {
    const size_t size = bytes.size();
    const uint8_t* b = bytes.data();
    if (size < 16) return false;
    if (get_u32(b + 8) >= 3) {  // version 3 on: the last 8 bytes, over every byte before them
        if (size < 24) return false;
        const uint64_t hash = s2s::word_hash64(b, size - 8);
        for (int i = 0; i < 8; ++i) bytes[size - 8 + i] = uint8_t(hash >> (8 * i));
        return true;
    }
    uint64_t p = 16 + uint64_t(get_u32(b + 12));
    if (p + 4 > size) return false;
    const uint32_t count = get_u32(b + p);
    p += 4;
    uint64_t first_offset = size;
    for (uint32_t i = 0; i < count; ++i) {
        if (p + 4 > size) return false;
        p += 4 + uint64_t(get_u32(b + p));
        if (p + 28 > size) return false;
        if (i == 0) first_offset = get_u64(b + p + 12);
        p += 28;
    }
    if (p + 8 > size || first_offset > size) return false;
    uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a 64, as src/common/hash.h
    for (uint64_t i = first_offset; i < size; ++i) hash = (hash ^ b[i]) * 0x100000001b3ULL;
    for (int i = 0; i < 8; ++i) bytes[p + i] = uint8_t(hash >> (8 * i));
    return true;
}

void check_translates(const s2s::Model& model) {
    for (int beam : {1, 3}) {
        s2s::DecodeOptions options;
        options.beam_size = beam;
        options.alternatives = beam == 1 ? 0 : 2;
        const s2s::Translation t = s2s::translate(model, "I see the cat <unk> .", options);
        if (t.hypotheses.empty() || t.hypotheses.size() > size_t(beam)) fail("wrong number of hypotheses");
        if (t.source_tokens.empty() || t.source_tokens.back() != "<eos>") fail("source tokens do not end in <eos>");
        for (const s2s::TranslationHypothesis& h : t.hypotheses) {
            if (!std::isfinite(h.score)) fail("non-finite score");
            const bool attention = model.config.attention != s2s::AttentionKind::kNone;
            if (attention && h.attention.size() != h.target_tokens.size()) fail("attention rows != target tokens");
            for (const auto& row : h.attention) {
                if (row.size() != t.source_tokens.size()) fail("attention columns != source tokens");
                double total = 0;
                for (float w : row) total += w;
                if (!(std::fabs(total - 1.0) < 1e-3)) fail("attention row does not sum to 1");
            }
        }
        // Vocabularies are validated UTF-8, so the JSON contract never throws.
        (void)s2s::to_json(t).dump();
    }
}

void try_load(const uint8_t* data, size_t size, bool* checksum_named) {
    try {
        const s2s::Model model = s2s::model_from_bytes(data, size);
        check_translates(model);
    } catch (const s2s::ModelFileError& error) {
        const std::string message = error.what();
        if (message.empty()) fail("empty error message");
        if (checksum_named) *checksum_named = message.find("checksum") != std::string::npos;
    }
    // Anything else (std::out_of_range, a JSON exception, std::bad_alloc, a
    // UsageError) escapes, and libFuzzer reports the uncaught exception.
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // An exactly sized copy, so that ASan sees any read past the end.
    std::vector<uint8_t> bytes(data, data + size);
    bool checksum_named = false;
    try_load(bytes.data(), bytes.size(), &checksum_named);
    if (checksum_named && reseal(bytes)) try_load(bytes.data(), bytes.size(), nullptr);
    return 0;
}
