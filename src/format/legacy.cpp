// Reading the files of format versions 1 to 3 (model_file.h): what their
// layout has that version 4's lacks, kept apart from the current reader.
//   versions 1 and 2  the checksum after the table covers the tensor data
//                     only, and the file ends where the last tensor does
//   versions 1 to 3   the vocabularies, the BPE merges and the shortlist's
//                     triggers are fields of the JSON header, not records;
//                     the triggers as base64 (legacy_base64_bytes)
// The model reads those header fields (src/model/model_load.cpp) with
// their text-layer readers (Vocabulary::from_json, tokenizer_settings_from_json).
#include "format/legacy.h"

#include "common/error.h"
#include "common/hash.h"
#include "format/model_file_internal.h"

#include <string>
#include <vector>

namespace s2s {
namespace model_file_detail {
namespace {

// Versions 1 and 2: the file ends where the last tensor does.
void check_nothing_after_tensors(uint64_t data_end, size_t size) {
    if (data_end < size) {
        throw FileSizeError("model file has " + std::to_string(size - data_end) +
                                " unexpected bytes after the last tensor (which ends at " + std::to_string(data_end) +
                                ")",
                            kDamaged);
    }
}

}  // namespace

// Format versions 1 and 2: the checksum after the table covers the tensor
// data only; the checks run in the order they always have.
ModelFileLayout read_layout_of_versions_1_and_2(Reader& reader, uint32_t version, const uint8_t* bytes, size_t size) {
    ModelFileLayout layout;
    layout.version = version;
    layout.header = parse_header(read_header_text(reader));
    std::vector<TableEntry> entries = read_table(reader, version);
    const uint64_t recorded_checksum = reader.u64("the data checksum");
    const size_t data_start = reader.position();

    check_nothing_after_tensors(check_placement(entries, data_start, size), size);

    const size_t checked_from = entries.empty() ? size : static_cast<size_t>(entries.front().offset);
    const uint64_t actual_checksum = fnv1a64(bytes + checked_from, size - checked_from);
    if (actual_checksum != recorded_checksum) {
        throw ModelFileError("model file checksum mismatch: the tensor data hashes to 0x" + to_hex64(actual_checksum) +
                             " but the file records 0x" + to_hex64(recorded_checksum) + "; " + kDamaged);
    }
    check_padding(bytes, entries, data_start);
    split_entries(entries, layout);
    return layout;
}

}  // namespace model_file_detail

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Each character's 6 bits, or -1 (not in the alphabet; '=' included).
struct Base64Values {
    int8_t of[256];
    constexpr Base64Values() : of() {
        for (int c = 0; c < 256; ++c) of[c] = -1;
        for (int v = 0; v < 64; ++v) of[static_cast<unsigned char>(kAlphabet[v])] = static_cast<int8_t>(v);
    }
};
constexpr Base64Values kBase64;

}  // namespace

std::vector<uint8_t> legacy_base64_bytes(const std::string& text, void (*damaged)(const std::string& problem)) {
    if (text.size() % 4 != 0) damaged("has triggers whose base64 length " + std::to_string(text.size()) + " is not a multiple of 4");
    const auto not_base64 = [damaged](size_t at) {
        damaged("has a character that is not base64 at offset " + std::to_string(at) + " of its triggers");
    };
    std::vector<uint8_t> out(text.size() / 4 * 3);
    size_t o = 0;
    // Every group of 4 but the last (which may end in padding), by table.
    const size_t whole = text.empty() ? 0 : text.size() - 4;
    for (size_t i = 0; i < whole; i += 4) {
        const int a = kBase64.of[static_cast<unsigned char>(text[i])], b = kBase64.of[static_cast<unsigned char>(text[i + 1])],
                  c = kBase64.of[static_cast<unsigned char>(text[i + 2])], d = kBase64.of[static_cast<unsigned char>(text[i + 3])];
        if ((a | b | c | d) < 0) not_base64(i + (a < 0 ? 0 : b < 0 ? 1 : c < 0 ? 2 : 3));
        const uint32_t n = (uint32_t(a) << 18) | (uint32_t(b) << 12) | (uint32_t(c) << 6) | uint32_t(d);
        out[o++] = static_cast<uint8_t>(n >> 16);
        out[o++] = static_cast<uint8_t>(n >> 8);
        out[o++] = static_cast<uint8_t>(n);
    }
    if (!text.empty()) {
        const size_t i = whole;
        uint32_t n = 0;
        int padding = 0;
        for (size_t j = 0; j < 4; ++j) {
            const char ch = text[i + j];
            int v = kBase64.of[static_cast<unsigned char>(ch)];
            if (v < 0) {
                if (ch != '=' || j < 2) not_base64(i + j);
                v = 0;
                ++padding;
            } else if (padding > 0) {
                damaged("has base64 padding before the end of its triggers");
            }
            n = (n << 6) | static_cast<uint32_t>(v);
        }
        out[o++] = static_cast<uint8_t>(n >> 16);
        if (padding < 2) out[o++] = static_cast<uint8_t>(n >> 8);
        if (padding < 1) out[o++] = static_cast<uint8_t>(n);
    }
    out.resize(o);
    return out;
}

}  // namespace s2s
