// What both WebAssembly modules (s2s-core: translate; s2s-train: train in
// the browser) share at their Embind boundary: the JSON envelope every
// fallible call returns instead of throwing,
//   {"ok": true, "value": ...}  or  {"ok": false, "kind": "usage", "message": "..."}
// the translate call itself, the limits of its options, and the heap
// statistics the memory tests read.
//
// No C++ exception may cross into JavaScript: one that escapes arrives as a
// WebAssembly.Exception, not an Error, and can leave the runtime unusable.
// So each entry point runs its body through guarded(), and the wrapper
// (src/wasm/index.js) throws the message as an ordinary Error.
#pragma once

#include "common/error.h"
#include "common/limits.h"
#include "common/option_names.h"
#include "decode/option_ranges.h"
#include "decode/translator.h"
#include "model/model.h"

#include <emscripten/heap.h>
#include <malloc.h>
#include <nlohmann/json.hpp>

#include <exception>
#include <new>
#include <functional>
#include <string>
#include <vector>

namespace s2s::wasm {

using nlohmann::json;

inline const char* kind_name(ErrorKind kind) {
    switch (kind) {
        case ErrorKind::kUsage: return "usage";
        case ErrorKind::kModelFile: return "model-file";
        case ErrorKind::kData: return "data";
        case ErrorKind::kInput: return "input";
        case ErrorKind::kIo: return "io";
    }
    return "internal";
}

// Invalid UTF-8 never reaches a dump (the tokenizer repairs it), but a
// replacement character is better than an exception if it ever did.
inline std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

inline std::string failure(const char* kind, const std::string& message) {
    return dump({{"ok", false}, {"kind", kind}, {"message", message}});
}

// Runs `body` and wraps its value in an envelope; any exception becomes a
// failure envelope with a message naming the problem.
template <typename Body>
std::string guarded(Body&& body) {
    try {
        // The text dump({{"ok", true}, {"value", value}}) writes, without
        // copying the value into that object first (a model's info holds
        // its whole provenance).
        return "{\"ok\":true,\"value\":" + dump(body()) + "}";
    } catch (const Error& e) {
        // A library message names options by marker ({init-model}): in JavaScript, initModel.
        return failure(kind_name(e.kind()), spell_options(e.what(), OptionStyle::kJs));
    } catch (const json::exception& e) {
        return failure("usage", std::string("bad options: ") + e.what());
    } catch (const std::bad_alloc&) {
        return failure("memory", "out of memory; dispose() models you no longer use, or use smaller inputs or models");
    } catch (const std::exception& e) {
        return failure("internal", std::string("internal error: ") + e.what() + " (please report it)");
    } catch (...) {
        return failure("internal", "internal error: unknown exception (please report it)");
    }
}

// The wrapper validates options with friendlier messages first; the
// module's own checks (these, read_decode_options, then decode()'s range
// checks) keep it safe on its own.
inline int integer_option(const json& options, const char* name, int fallback) {
    auto it = options.find(name);
    if (it == options.end() || it->is_null()) return fallback;
    if (!it->is_number_integer()) throw UsageError(std::string("option ") + name + " must be a whole number");
    return it->get<int>();
}

inline json parse_options(const std::string& options_json) {
    json options = json::parse(options_json);
    if (!options.is_object()) throw UsageError("options must be an object");
    return options;
}

// translate's options (options_json, a JSON object) over the model's
// defaults (decode_defaults): the numeric options and the switches of the
// option tables (option_ranges.h: "beamSize", "maxLength", "temperature",
// ..., "trace", "beamTree", "shortlist", "keepNames") and "prefix" (target
// words, made DecodeOptions::forced_prefix as translate_with_prefix makes
// it), all optional.
inline DecodeOptions read_translate_options(const Model& model, const std::string& options_json) {
    const json options = parse_options(options_json);
    DecodeOptions decode = read_decode_options(options, decode_defaults(model));
    if (auto it = options.find("prefix"); it != options.end() && !it->is_null()) {
        decode.forced_prefix = forced_prefix_ids(model, it->get<std::vector<std::string>>());
    }
    return decode;
}

// One text as one input (read_translate_options reads options_json). The
// value: to_json(Translation) (src/decode/translator.h).
// kept: when not null, the translation is laid out hypotheses-only
// (TranslationLayout::kHypothesesOnly) and moved into *kept, whose
// attention matrices the caller hands over as they are; its packed_numbers
// then receive every other float (the hypotheses' vectors and alternatives,
// the trace, the beam tree), and the JSON holds their places in it
// (NumberWriter, src/decode/translation_trace.h).
// on_step: DecodeOptions::on_step (greedy decoding's steps as they come).
inline json translate_json(const Model& model, const std::string& text, const std::string& options_json,
                           SentenceTranslation* kept = nullptr,
                           std::function<void(int, float, const float*, int)> on_step = nullptr) {
    if (kept != nullptr) *kept = SentenceTranslation();
    DecodeOptions decode = read_translate_options(model, options_json);
    decode.on_step = std::move(on_step);
    if (kept == nullptr) return to_json(s2s::translate(model, text, decode));
    kept->translation = s2s::translate(model, text, decode);
    return to_json(kept->translation, TranslationLayout::kHypothesesOnly, &kept->packed_numbers);
}

// A text of several sentences, translated sentence by sentence in one call
// (translate_sentences, translator.h): {"text": the sentences' translations
// joined as the target language writes them (join_translations),
// "sentences": [{"start", "end" (UTF-16 code units of the text, as
// JavaScript indexes it), "translation": each laid out hypotheses-only}]}.
// The sentences are moved into *kept, as translate_json's one.
inline json translate_text_json(const Model& model, const std::string& text, const std::string& options_json,
                                std::vector<SentenceTranslation>* kept) {
    kept->clear();
    const DecodeOptions decode = read_translate_options(model, options_json);
    *kept = translate_sentences(model, text, decode);
    json sentences = json::array();
    for (SentenceTranslation& s : *kept) {
        sentences.push_back({{"start", s.utf16.begin}, {"end", s.utf16.end},
                             {"translation", to_json(s.translation, TranslationLayout::kHypothesesOnly, &s.packed_numbers)}});
    }
    return {{"text", join_translations(model, *kept)}, {"sentences", std::move(sentences)}};
}

// The limits of translate's options and input as JSON: {"options": the
// option table with each option's range and default (option_ranges_json,
// in the table's order), "switches": each switch's default
// (option_switches_json), "maxSourceTokens": kMaxSourceTokens,
// "defaultMaxLength": {perSourceToken, extra}, "possiblyDroppedCoverage":
// the coverage under which a source token is listed as possibly dropped,
// "unsureWordProbability": the probability under which a target word is
// listed as unsure}. Each module
// binds it as limits(); the build writes it into dist/options.js
// (scripts/write-option-ranges.mjs), so the JavaScript side reads the C++
// numbers instead of writing them again. It cannot fail: a plain JSON
// object, no envelope.
inline std::string limits() {
    nlohmann::ordered_json j = {{"options", option_ranges_json()},
                                {"switches", option_switches_json()},
                                {"maxSourceTokens", kMaxSourceTokens},
                                {"defaultMaxLength", {{"perSourceToken", kDefaultMaxLengthPerSourceToken}, {"extra", kDefaultMaxLengthExtra}}},
                                {"possiblyDroppedCoverage", kPossiblyDroppedCoverage},
                                {"unsureWordProbability", kUnsureWordProbability}};
    return j.dump();
}

// The WASM heap's size and the bytes malloc has handed out and not taken
// back: what the memory tests watch for leaks. Each module binds it as
// heapStats().
inline std::string heap_stats() {
    const struct mallinfo m = mallinfo();
    return dump({{"heapBytes", emscripten_get_heap_size()}, {"usedBytes", m.uordblks}});
}

}  // namespace s2s::wasm
