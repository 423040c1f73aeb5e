// Reading Tatoeba TSV files, the development split, grouping by source and
// the FNV-1a provenance hash.
#include <doctest/doctest.h>

#include "common/error.h"
#include "corpus/parallel_corpus.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

using s2s::SentencePair;
using s2s::SourceWithReferences;

namespace {

// A file in the system temp directory, removed at scope exit. The name mixes
// the clock and a counter so parallel test runs do not share files.
class TempFile {
public:
    explicit TempFile(const std::string& contents) {
        static std::atomic<int> counter{0};
        const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
        path_ = (std::filesystem::temp_directory_path() /
                 ("s2s_test_corpus_" + std::to_string(stamp) + "_" + std::to_string(counter++) + ".tsv"))
                    .string();
        std::ofstream out(path_, std::ios::binary);
        out << contents;
    }
    ~TempFile() {
        std::error_code ignored;
        std::filesystem::remove(path_, ignored);
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

template <typename F>
std::string message_of(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "<no exception>";
}

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

// 600 English sentences with one to three translations each; some sources
// appear again later with other case and spacing.
std::vector<SentencePair> synthetic_corpus() {
    std::vector<SentencePair> pairs;
    for (int i = 0; i < 600; ++i) {
        const std::string source = "Sentence number " + std::to_string(i) + ".";
        for (int t = 0; t <= i % 3; ++t) {
            pairs.push_back({source, "Phrase " + std::to_string(i) + " version " + std::to_string(t) + "."});
        }
    }
    for (int i = 0; i < 600; i += 7) {
        pairs.push_back({"  SENTENCE   number " + std::to_string(i) + ".", "Encore " + std::to_string(i) + "."});
    }
    return pairs;
}

std::string normalized(std::string s) {
    // Mirrors the documented normalization closely enough for the ASCII test data.
    std::string out;
    bool space = false;
    for (char c : s) {
        if (c == ' ') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

std::multiset<std::string> pair_set(const std::vector<SentencePair>& pairs) {
    std::multiset<std::string> out;
    for (const auto& p : pairs) out.insert(p.source + "\t" + p.target);
    return out;
}

}  // namespace

TEST_CASE("read_sentence_pairs: columns, CRLF, BOM, blank lines, extra columns, bad bytes") {
    const TempFile file(
        "\xEF\xBB\xBFGo.\tVa !\tCC-BY 2.0 (France) Attribution: tatoeba.org #2877272 (CM) & #1158250 (Wittydev)\r\n"
        "\n"
        "Hi.\tSalut.\r\n"
        "   \r\n"
        "Caf\xC3 time.\tL'heure du caf\xC3\xA9.\n"
        "I'm home.\tJe suis \xC3\xA0 la maison.");  // no final newline
    const std::vector<SentencePair> pairs = s2s::read_sentence_pairs(file.path());
    REQUIRE(pairs.size() == 4);
    CHECK(pairs[0].source == "Go.");
    CHECK(pairs[0].target == "Va !");
    CHECK(pairs[1].source == "Hi.");
    CHECK(pairs[1].target == "Salut.");
    CHECK(pairs[2].source == "Caf\xEF\xBF\xBD time.");
    CHECK(pairs[2].target == "L'heure du café.");
    CHECK(pairs[3].source == "I'm home.");
    CHECK(pairs[3].target == "Je suis à la maison.");
}

TEST_CASE("read_sentence_pairs: a line without a tab is a DataError naming file and line") {
    const TempFile file("Go.\tVa !\nno tab on this line\nHi.\tSalut.\n");
    const std::string message = message_of([&] { s2s::read_sentence_pairs(file.path()); });
    INFO(message);
    CHECK_THROWS_AS(s2s::read_sentence_pairs(file.path()), s2s::DataError);
    CHECK(contains(message, file.path() + ":2:"));
    CHECK(contains(message, "tab"));
}

TEST_CASE("read_sentence_pairs: an empty column is a DataError") {
    const TempFile no_target("Go.\t\n");
    CHECK(contains(message_of([&] { s2s::read_sentence_pairs(no_target.path()); }), ":1:"));
    CHECK_THROWS_AS(s2s::read_sentence_pairs(no_target.path()), s2s::DataError);
    const TempFile no_source("Go.\tVa !\n\n \tSalut.\n");
    CHECK(contains(message_of([&] { s2s::read_sentence_pairs(no_source.path()); }), ":3:"));
    CHECK_THROWS_AS(s2s::read_sentence_pairs(no_source.path()), s2s::DataError);
}

TEST_CASE("read_sentence_pairs: a missing file is an IoError") {
    const std::string path = (std::filesystem::temp_directory_path() / "s2s_no_such_dir" / "missing.tsv").string();
    const std::string message = message_of([&] { s2s::read_sentence_pairs(path); });
    CHECK_THROWS_AS(s2s::read_sentence_pairs(path), s2s::IoError);
    CHECK(contains(message, "cannot open data file " + path));
}

TEST_CASE("read_sentence_pairs: an empty file gives no pairs") {
    const TempFile file("");
    CHECK(s2s::read_sentence_pairs(file.path()).empty());
}

TEST_CASE("group_by_source: normalized match, first-appearance order, references in order") {
    const std::vector<SentencePair> pairs = {
        {"Hi.", "Salut."}, {"Go.", "Va !"}, {"  HI. ", "Bonjour."}, {"hi.", "Salut."}, {"Go\t.", "Bouge !"},
        {"ÉTÉ.", "L'été."}, {"été.", "En été."},
    };
    const std::vector<SourceWithReferences> groups = s2s::group_by_source(pairs);
    REQUIRE(groups.size() == 4);
    CHECK(groups[0].source == "Hi.");
    CHECK(groups[0].references == std::vector<std::string>{"Salut.", "Bonjour."});  // exact repeat kept once
    CHECK(groups[1].source == "Go.");
    CHECK(groups[1].references == std::vector<std::string>{"Va !"});
    CHECK(groups[2].source == "Go\t.");  // "go ." differs from "go."
    CHECK(groups[3].source == "ÉTÉ.");
    CHECK(groups[3].references == std::vector<std::string>{"L'été.", "En été."});
    CHECK(s2s::group_by_source({}).empty());
}

TEST_CASE("split_by_source is deterministic, order independent and never leaks a sentence") {
    const std::vector<SentencePair> pairs = synthetic_corpus();
    const s2s::CorpusSplit split = s2s::split_by_source(pairs, 0.1, 1234);

    // Roughly the requested fraction of distinct sentences.
    CHECK(split.dev.size() >= 30);
    CHECK(split.dev.size() <= 90);

    // No English sentence on both sides.
    std::set<std::string> dev_sources;
    size_t dev_references = 0;
    for (const auto& entry : split.dev) {
        CHECK(dev_sources.insert(normalized(entry.source)).second);
        dev_references += entry.references.size();
    }
    for (const auto& pair : split.train) CHECK(dev_sources.count(normalized(pair.source)) == 0);
    CHECK(split.train.size() + dev_references == pairs.size());  // synthetic targets are all distinct

    // Same input, same output.
    const s2s::CorpusSplit again = s2s::split_by_source(pairs, 0.1, 1234);
    CHECK(pair_set(again.train) == pair_set(split.train));
    REQUIRE(again.dev.size() == split.dev.size());
    for (size_t i = 0; i < split.dev.size(); ++i) {
        CHECK(again.dev[i].source == split.dev[i].source);
        CHECK(again.dev[i].references == split.dev[i].references);
    }

    // Shuffled input: the same pairs on each side.
    std::vector<SentencePair> shuffled = pairs;
    std::mt19937 rng(99);
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    const s2s::CorpusSplit reordered = s2s::split_by_source(shuffled, 0.1, 1234);
    CHECK(pair_set(reordered.train) == pair_set(split.train));
    std::set<std::string> reordered_dev;
    for (const auto& entry : reordered.dev) reordered_dev.insert(normalized(entry.source));
    CHECK(reordered_dev == dev_sources);

    // Another seed picks other sentences.
    const s2s::CorpusSplit other = s2s::split_by_source(pairs, 0.1, 4321);
    std::set<std::string> other_dev;
    for (const auto& entry : other.dev) other_dev.insert(normalized(entry.source));
    CHECK(other_dev != dev_sources);
}

TEST_CASE("split_by_source: dev entries keep first-appearance order and group their references") {
    const std::vector<SentencePair> pairs = synthetic_corpus();
    const s2s::CorpusSplit split = s2s::split_by_source(pairs, 1.0, 0);
    REQUIRE(split.dev.size() == 600);
    CHECK(split.train.empty());
    CHECK(split.dev[0].source == "Sentence number 0.");
    CHECK(split.dev[0].references == std::vector<std::string>{"Phrase 0 version 0.", "Encore 0."});
    CHECK(split.dev[2].references.size() == 3);
    CHECK(split.dev[599].source == "Sentence number 599.");

    const s2s::CorpusSplit none = s2s::split_by_source(pairs, 0.0, 0);
    CHECK(none.dev.empty());
    CHECK(none.train.size() == pairs.size());
}

TEST_CASE("split_by_source rejects a fraction outside 0..1") {
    CHECK_THROWS_AS(s2s::split_by_source({}, -0.1, 0), s2s::UsageError);
    CHECK_THROWS_AS(s2s::split_by_source({}, 1.5, 0), s2s::UsageError);
    CHECK_THROWS_AS(s2s::split_by_source({}, std::nan(""), 0), s2s::UsageError);
}

TEST_CASE("fnv1a64 matches the published FNV-1a test vectors") {
    CHECK(s2s::fnv1a64("", 0) == 0xcbf29ce484222325ULL);
    CHECK(s2s::fnv1a64("a", 1) == 0xaf63dc4c8601ec8cULL);
    CHECK(s2s::fnv1a64("foobar", 6) == 0x85944171f73967e8ULL);
    // Chaining through the seed equals hashing the concatenation.
    CHECK(s2s::fnv1a64("bar", 3, s2s::fnv1a64("foo", 3)) == s2s::fnv1a64("foobar", 6));
}

TEST_CASE("file_fnv1a64_hex hashes whole files, in 16 lowercase hex digits") {
    const TempFile small("foobar");
    CHECK(s2s::file_fnv1a64_hex(small.path()) == "85944171f73967e8");
    const TempFile empty("");
    CHECK(s2s::file_fnv1a64_hex(empty.path()) == "cbf29ce484222325");

    // Larger than the read buffer, so the chunks must chain correctly.
    std::string big;
    for (int i = 0; i < 200000; ++i) big.push_back(static_cast<char>(i * 31 % 251));
    const TempFile large(big);
    char expected[17];
    std::snprintf(expected, sizeof expected, "%016llx",
                  static_cast<unsigned long long>(s2s::fnv1a64(big.data(), big.size())));
    CHECK(s2s::file_fnv1a64_hex(large.path()) == expected);

    CHECK_THROWS_AS(s2s::file_fnv1a64_hex((std::filesystem::temp_directory_path() / "s2s_no_such_dir" / "x").string()),
                    s2s::IoError);
}
