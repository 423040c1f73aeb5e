// The model's lexical shortlist in its file (target_shortlist.h,
// docs/model.md): the header field "target_shortlist" {"always": M,
// "per_target": K, "built_from": {...}} and the triggers, (target
// vocabulary - M) x K little-endian uint16 source ids (0xFFFF = none): a
// record of their own from format version 4 on, base64 in the field
// ("triggers") before. Written and read back with every value checked.
#include "model/target_shortlist.h"

#include "common/error.h"
#include "format/legacy.h"

#include <cstdint>
#include <string>

namespace s2s {
namespace {

constexpr int kSpecials = 4;

[[noreturn]] void damaged(const std::string& problem) {
    throw ModelFileError("model header 'target_shortlist' " + problem +
                         "; the file is damaged: download or copy it again, or rebuild the shortlist with "
                         "`seq2seq shortlist` (docs/cli.md)");
}

// M and K from the field, checked.
TargetShortlist shortlist_sizes(const nlohmann::json& json, int target_vocab_size) {
    if (!json.is_object()) damaged("must be an object");
    const auto integer = [&](const char* key, int low, int high) {
        const auto it = json.find(key);
        if (it == json.end() || !it->is_number_integer()) damaged(std::string("needs '") + key + "', a whole number");
        const int64_t v = it->get<int64_t>();
        if (v < low || v > high) {
            damaged(std::string("has ") + key + " " + std::to_string(v) + ", outside " + std::to_string(low) + ".." +
                    std::to_string(high));
        }
        return static_cast<int>(v);
    };
    TargetShortlist out;
    out.always = integer("always", kSpecials, target_vocab_size);
    out.per_target = integer("per_target", 1, kMaxShortlistTriggers);
    if (const auto it = json.find("built_from"); it != json.end()) {
        if (!it->is_object()) damaged("has 'built_from' that is not an object");
        out.built_from = *it;
    }
    return out;
}

// The triggers from `count` little-endian uint16 ids at `ids`, which the
// caller has checked to be (target vocabulary - M) x K.
void read_triggers(TargetShortlist& out, const uint8_t* ids, size_t count, int source_vocab_size) {
    out.triggers.resize(count);
    for (size_t i = 0; i < count; ++i) {
        const int v = ids[2 * i] | (ids[2 * i + 1] << 8);
        if (v == 0xFFFF) {
            out.triggers[i] = -1;
        } else if (v >= source_vocab_size) {
            damaged("has trigger " + std::to_string(i) + " = source id " + std::to_string(v) +
                    ", outside the source vocabulary (" + std::to_string(source_vocab_size) + ")");
        } else {
            out.triggers[i] = v;
        }
    }
}

}  // namespace

nlohmann::json target_shortlist_to_json(const TargetShortlist& shortlist) {
    return {{"always", shortlist.always}, {"per_target", shortlist.per_target}, {"built_from", shortlist.built_from}};
}

std::vector<uint16_t> target_shortlist_trigger_ids(const TargetShortlist& shortlist) {
    std::vector<uint16_t> ids;
    ids.reserve(shortlist.triggers.size());
    for (int s : shortlist.triggers) ids.push_back(s < 0 ? 0xFFFF : static_cast<uint16_t>(s));
    return ids;
}

TargetShortlist target_shortlist_from_json(const nlohmann::json& json, int source_vocab_size, int target_vocab_size) {
    TargetShortlist out = shortlist_sizes(json, target_vocab_size);
    const auto triggers = json.find("triggers");
    if (triggers == json.end() || !triggers->is_string()) damaged("needs 'triggers', a base64 string");
    const std::vector<uint8_t> bytes = legacy_base64_bytes(triggers->get_ref<const std::string&>(), damaged);
    const size_t expected = 2 * static_cast<size_t>(target_vocab_size - out.always) * out.per_target;
    if (bytes.size() != expected) {
        damaged("has " + std::to_string(bytes.size()) + " bytes of triggers where (target vocabulary " +
                std::to_string(target_vocab_size) + " - always " + std::to_string(out.always) + ") x per_target " +
                std::to_string(out.per_target) + " x 2 = " + std::to_string(expected) + " were expected");
    }
    read_triggers(out, bytes.data(), bytes.size() / 2, source_vocab_size);
    return out;
}

TargetShortlist target_shortlist_from_record(const nlohmann::json& json, int source_vocab_size, int target_vocab_size,
                                             const uint8_t* triggers, uint32_t rows, uint32_t cols) {
    TargetShortlist out = shortlist_sizes(json, target_vocab_size);
    if (json.contains("triggers")) {
        damaged("holds 'triggers', which this format version stores as the record 'target_shortlist.triggers'");
    }
    const auto expected_rows = static_cast<uint32_t>(target_vocab_size - out.always);
    if (rows != expected_rows || cols != static_cast<uint32_t>(out.per_target)) {
        damaged("has triggers of " + std::to_string(rows) + " x " + std::to_string(cols) + " where (target vocabulary " +
                std::to_string(target_vocab_size) + " - always " + std::to_string(out.always) + ") x per_target " +
                std::to_string(out.per_target) + " = " + std::to_string(expected_rows) + " x " +
                std::to_string(out.per_target) + " were expected");
    }
    read_triggers(out, triggers, static_cast<size_t>(rows) * cols, source_vocab_size);
    return out;
}

}  // namespace s2s
