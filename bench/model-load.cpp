// A model load, natively, timed whole and in parts (target bench_model_load,
// not built by default):
//
//   cmake --build build/native --target bench_model_load
//   build/native/bench_model_load models/en-fr.s2s [REPEATS] [owned]
//
// Prints the median milliseconds over REPEATS (default 41) loads in one
// process of: model_from_owned_bytes (what the WebAssembly translator
// does, the copy of the bytes not counted), model_from_bytes for
// translation and for anything, read_model_layout alone (checksum, header,
// table, string records) and word_hash64 over the whole file (the checksum
// alone). With `owned`, only model_from_owned_bytes runs: a profile of
// that load (valgrind --tool=callgrind ... MODEL 1 owned counts its
// instructions).
#include "common/hash.h"
#include "model/model.h"
#include "format/model_file.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

using namespace s2s;

namespace {

double median_ms(int repeats, const std::function<void()>& prepare, const std::function<void()>& run) {
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        prepare();
        const auto start = std::chrono::steady_clock::now();
        run();
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_model_load MODEL.s2s [REPEATS]\n");
        return 2;
    }
    const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 41;
    const bool owned_only = argc > 3 && std::string(argv[3]) == "owned";
    const std::vector<uint8_t> bytes = read_file_bytes(argv[1]);
    std::shared_ptr<uint8_t[]> owned;
    const auto fresh_copy = [&] {
        owned.reset(new uint8_t[bytes.size()]);
        std::memcpy(owned.get(), bytes.data(), bytes.size());
    };
    const auto nothing = [] {};
    volatile uint64_t sink = 0;
    std::printf("%s, %zu bytes, median of %d loads in one process:\n", argv[1], bytes.size(), repeats);
    std::printf("  model_from_owned_bytes          %8.3f ms\n",
                median_ms(repeats, fresh_copy, [&] { sink = sink + model_from_owned_bytes(owned, bytes.size()).config.embedding_size; }));
    if (owned_only) return 0;
    std::printf("  model_from_bytes (translation)  %8.3f ms\n",
                median_ms(repeats, nothing, [&] {
                    sink = sink + model_from_bytes(bytes.data(), bytes.size(), LoadFor::kTranslation).config.embedding_size;
                }));
    std::printf("  model_from_bytes (anything)     %8.3f ms\n",
                median_ms(repeats, nothing, [&] { sink = sink + model_from_bytes(bytes.data(), bytes.size()).config.embedding_size; }));
    std::printf("  read_model_layout               %8.3f ms\n",
                median_ms(repeats, nothing, [&] { sink = sink + read_model_layout(bytes.data(), bytes.size()).version; }));
    std::printf("  word_hash64 of the file         %8.3f ms\n",
                median_ms(repeats, nothing, [&] { sink = sink + word_hash64(bytes.data(), bytes.size() - 8); }));
    return 0;
}
