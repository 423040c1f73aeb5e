// The TSV corpus reader and the development split (parallel_corpus.h).
#include "corpus/parallel_corpus.h"

#include "common/error.h"
#include "common/random.h"
#include "text/utf8.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <unordered_map>
#include <unordered_set>

namespace s2s {
namespace {


bool is_blank(const std::string& line) {
    return line.find_first_not_of(" \t\v\f\r\n") == std::string::npos;
}


std::string normalize_source(const std::string& source) {
    std::string out;
    bool pending_space = false;
    for (char32_t cp : decode_utf8(to_lower_utf8(source))) {
        if (is_unicode_space(cp)) {
            pending_space = !out.empty();  // drops leading spaces; trailing ones never get flushed
            continue;
        }
        if (pending_space) out += ' ';
        pending_space = false;
        out += encode_utf8(cp);
    }
    return out;
}

uint64_t source_hash(const std::string& normalized, uint64_t seed) {
    // Seed bytes in a fixed order so that native and WASM builds agree.
    unsigned char seed_bytes[8];
    for (int i = 0; i < 8; ++i) seed_bytes[i] = static_cast<unsigned char>(seed >> (8 * i));
    const uint64_t basis = fnv1a64(seed_bytes, sizeof seed_bytes);
    // FNV-1a alone mixes the last bytes of a string poorly into the high
    // bits, and the split compares the high bits against a threshold:
    // SplitMix64's finalizer spreads every input bit over the whole word.
    return splitmix64_mix(fnv1a64(normalized.data(), normalized.size(), basis));
}

// Groups `pairs` (those selected by `keep`, all when null) by normalized
// source, in order of first appearance. A reference repeated verbatim adds
// nothing to multi-reference BLEU, so it is kept once.
template <typename Keep>
std::vector<SourceWithReferences> group(const std::vector<SentencePair>& pairs, const std::vector<std::string>& keys,
                                        Keep keep) {
    std::vector<SourceWithReferences> groups;
    std::vector<std::unordered_set<std::string>> seen_references;
    std::unordered_map<std::string, size_t> index_of;
    for (size_t i = 0; i < pairs.size(); ++i) {
        if (!keep(i)) continue;
        const auto found = index_of.emplace(keys[i], groups.size());
        if (found.second) {
            groups.push_back({pairs[i].source, {}});
            seen_references.emplace_back();
        }
        const size_t g = found.first->second;
        if (seen_references[g].insert(pairs[i].target).second) groups[g].references.push_back(pairs[i].target);
    }
    return groups;
}

std::vector<std::string> normalized_sources(const std::vector<SentencePair>& pairs) {
    std::vector<std::string> keys;
    keys.reserve(pairs.size());
    for (const SentencePair& pair : pairs) keys.push_back(normalize_source(pair.source));
    return keys;
}

}  // namespace

std::vector<SentencePair> read_sentence_pairs(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw IoError("cannot open data file " + path + ": " + std::strerror(errno) +
                      "; check the path (the Tatoeba files live in ../shared/data/)");
    }
    std::vector<SentencePair> pairs;
    std::string line;
    long line_number = 0;
    while (std::getline(in, line)) {
        ++line_number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line_number == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
        if (is_blank(line)) continue;

        const std::string where = path + ":" + std::to_string(line_number);
        const size_t tab = line.find('\t');
        if (tab == std::string::npos) {
            throw DataError(where + ": no tab character; each line must be \"English<TAB>translation\" "
                                    "(further tab-separated columns are ignored)");
        }
        const size_t end = line.find('\t', tab + 1);
        SentencePair pair;
        pair.source = sanitize_utf8(std::string_view(line).substr(0, tab));
        pair.target = sanitize_utf8(std::string_view(line).substr(tab + 1, end == std::string::npos ? end : end - tab - 1));
        // An empty side would train the model to emit (or ignore) nothing.
        if (is_blank(pair.source)) {
            throw DataError(where + ": the English column (before the first tab) is empty; fix or remove the line");
        }
        if (is_blank(pair.target)) {
            throw DataError(where + ": the translation column (after the first tab) is empty; fix or remove the line");
        }
        pairs.push_back(std::move(pair));
    }
    if (in.bad()) {
        throw IoError("error while reading data file " + path + " (after line " + std::to_string(line_number) +
                      "): " + std::strerror(errno));
    }
    return pairs;
}

CorpusSplit split_by_source(const std::vector<SentencePair>& pairs, double dev_fraction, uint64_t seed) {
    if (!(dev_fraction >= 0.0 && dev_fraction <= 1.0)) {
        throw UsageError("development fraction " + std::to_string(dev_fraction) +
                         " is outside 0..1; use for example 0.05 to hold out 5% of the English sentences");
    }
    const std::vector<std::string> keys = normalized_sources(pairs);
    // Below 1, 2^64 * fraction stays below 2^64, so the conversion is defined.
    const uint64_t threshold = dev_fraction < 1.0 ? static_cast<uint64_t>(std::ldexp(dev_fraction, 64)) : 0;
    std::vector<bool> in_dev(pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i) {
        in_dev[i] = dev_fraction >= 1.0 || source_hash(keys[i], seed) < threshold;
    }

    CorpusSplit split;
    for (size_t i = 0; i < pairs.size(); ++i) {
        if (!in_dev[i]) split.train.push_back(pairs[i]);
    }
    split.dev = group(pairs, keys, [&](size_t i) { return static_cast<bool>(in_dev[i]); });
    return split;
}

std::vector<SourceWithReferences> group_by_source(const std::vector<SentencePair>& pairs) {
    return group(pairs, normalized_sources(pairs), [](size_t) { return true; });
}

std::string file_fnv1a64_hex(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError("cannot open file " + path + " to hash it: " + std::strerror(errno) + "; check the path");
    uint64_t hash = kFnv1a64OffsetBasis;
    std::vector<char> buffer(1 << 16);
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        // FNV-1a's state is its own offset basis, so chunks chain exactly.
        hash = fnv1a64(buffer.data(), static_cast<size_t>(in.gcount()), hash);
    }
    if (in.bad()) throw IoError("error while reading file " + path + " to hash it: " + std::strerror(errno));
    return to_hex64(hash);
}

std::vector<SourceWithReferences> spread_sample(const std::vector<SourceWithReferences>& entries, size_t count) {
    if (count == 0 || count >= entries.size()) return entries;
    std::vector<SourceWithReferences> sample;
    sample.reserve(count);
    for (size_t k = 0; k < count; ++k) sample.push_back(entries[k * entries.size() / count]);
    return sample;
}

void write_sentence_pairs(const std::vector<SourceWithReferences>& entries, const std::string& path) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw IoError("cannot write " + path + ": check that its folder exists and is writable");
    for (const auto& entry : entries) {
        for (const auto& reference : entry.references) out << entry.source << '\t' << reference << '\n';
    }
    out.flush();
    if (!out) throw IoError("error while writing " + path);
}

}  // namespace s2s
