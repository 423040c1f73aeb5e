// The provenance's data source (train/data_source.h): from a sidecar beside
// the data, else from the table of known files by hash, else unknown; never
// assumed.
#include "common/error.h"
#include "corpus/parallel_corpus.h"
#include "train/data_source.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace s2s;

namespace {

std::string write_file(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

}  // namespace

TEST_CASE("data source: a sidecar, the known files by hash, or unknown") {
    const auto dir = std::filesystem::temp_directory_path() / ("s2s_test_data_source_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string data = write_file((dir / "pairs.tsv").string(), "Go.\tVa !\n");
    const std::string hash = file_fnv1a64_hex(data);

    // Neither: unknown, with no license or attribution made up.
    DataSource source = data_source_of(data, hash);
    CHECK(source.source.find("unknown") == 0);
    CHECK(source.source.find("pairs.tsv.source.json") != std::string::npos);
    CHECK(source.license.empty());
    CHECK(source.attribution.empty());
    nlohmann::json record = data_provenance(data, hash, 1, source);
    CHECK(record["file"] == "pairs.tsv");
    CHECK(record["fnv1a64"] == hash);
    CHECK_FALSE(record.contains("license"));
    CHECK_FALSE(record.contains("attribution"));

    // The Tatoeba files, by their hash whatever their name.
    source = data_source_of(data, "085a88cc9ce2cf68");
    CHECK(source.source == "Tatoeba Project (tatoeba.org), via manythings.org/anki");
    CHECK(source.license == "CC-BY 2.0 France");
    CHECK(source.attribution == "Tatoeba.org and manythings.org/anki");
    CHECK(data_source_of(data, "79d357b213845f4a").license == "CC-BY 2.0 France");

    // A sidecar says what the data is, before any table.
    write_file(data + ".source.json", R"({"source": "written by hand", "license": "CC0"})");
    source = data_source_of(data, "085a88cc9ce2cf68");
    CHECK(source.source == "written by hand");
    CHECK(source.license == "CC0");
    CHECK(source.attribution.empty());
    record = data_provenance(data, hash, 1, source);
    CHECK(record["license"] == "CC0");
    CHECK_FALSE(record.contains("attribution"));

    // A bad sidecar is an error naming it, not a silent guess.
    write_file(data + ".source.json", R"({"license": "CC0"})");
    CHECK_THROWS_WITH_AS(data_source_of(data, hash), doctest::Contains("pairs.tsv.source.json has no \"source\""), DataError);
    write_file(data + ".source.json", "{not json");
    CHECK_THROWS_WITH_AS(data_source_of(data, hash), doctest::Contains("is not valid JSON"), DataError);
    write_file(data + ".source.json", R"({"source": 3})");
    CHECK_THROWS_WITH_AS(data_source_of(data, hash), doctest::Contains("must be a string"), DataError);

    std::filesystem::remove_all(dir);
}

TEST_CASE("data source: the table's hashes are those of the shared Tatoeba files") {
    // ../shared/data is beside the repository wherever the tests run (the
    // README's set-up, CI): a missing file fails here, never passes unchecked.
    for (const auto& [file, hash] : {std::pair{"fra-eng.txt", "085a88cc9ce2cf68"}, std::pair{"cmn-eng.txt", "79d357b213845f4a"}}) {
        const std::string path = std::string(S2S_SOURCE_DIR) + "/../shared/data/" + file;
        INFO(path);
        REQUIRE_MESSAGE(std::filesystem::exists(path), "the training data is missing: put the shared data folder beside the "
                                                       "repository (../shared/data, see README)");
        CHECK(file_fnv1a64_hex(path) == hash);
        CHECK(data_source_of(path, hash).license == "CC-BY 2.0 France");
    }
}
