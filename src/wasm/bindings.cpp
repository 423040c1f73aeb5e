// The Embind surface of the WebAssembly module: deliberately small and raw.
// Users never see it; src/wasm/index.js wraps it in the JavaScript API of
// the design (loadModel, translate, dispose).
//
//   new Session(bytes)            parses a .s2s file held in a JS Uint8Array
//   session.loadError()           "" when the model loaded, else the reason
//   session.translate(text, opts) a JSON envelope (below); opts is JSON
//   session.info()                a JSON envelope with the model's header
//   heapStats()                   {heapBytes, usedBytes}, for the memory tests
//
// Every call that can fail returns an envelope instead of throwing:
//   {"ok": true, "value": ...}  or  {"ok": false, "kind": "usage", "message": "..."}
// No C++ exception crosses into JavaScript: one that escapes arrives as a
// WebAssembly.Exception, not an Error, and can leave the runtime unusable.
// So each entry point catches everything, and the wrapper throws the
// message as an ordinary Error.
#include "common/error.h"
#include "decode/translator.h"
#include "model/model.h"

#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <malloc.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <new>
#include <string>
#include <vector>

namespace s2s::wasm {
namespace {

using nlohmann::json;

const char* kind_name(ErrorKind kind) {
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
std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string failure(const char* kind, const std::string& message) {
    return dump({{"ok", false}, {"kind", kind}, {"message", message}});
}

// Runs `body` and wraps its value in an envelope; any exception becomes a
// failure envelope with a message naming the problem.
template <typename Body>
std::string guarded(Body&& body) {
    try {
        return dump({{"ok", true}, {"value", body()}});
    } catch (const Error& e) {
        return failure(kind_name(e.kind()), e.what());
    } catch (const json::exception& e) {
        return failure("usage", std::string("bad options: ") + e.what());
    } catch (const std::bad_alloc&) {
        return failure("memory", "out of memory; dispose() models you no longer use, or translate shorter text");
    } catch (const std::exception& e) {
        return failure("internal", std::string("internal error: ") + e.what() + " (please report it)");
    } catch (...) {
        return failure("internal", "internal error: unknown exception (please report it)");
    }
}

// The wrapper validates options with friendlier messages first; these
// checks keep the module safe on its own.
int integer_option(const json& options, const char* name, int fallback) {
    auto it = options.find(name);
    if (it == options.end() || it->is_null()) return fallback;
    if (!it->is_number_integer()) throw UsageError(std::string("option ") + name + " must be a whole number");
    return it->get<int>();
}

}  // namespace

class Session {
public:
    // bytes: the whole .s2s file (Embind copies the Uint8Array into it).
    explicit Session(const std::string& bytes) {
        const std::string envelope = guarded([&] {
            model_ = std::make_unique<Model>(
                model_from_bytes(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
            return json(nullptr);
        });
        if (!model_) load_error_ = envelope;
    }

    // "" when the model loaded, else the failure envelope.
    std::string loadError() const { return load_error_; }

    // options_json: {"beamSize", "maxLength", "alternatives", "prefix"}, all optional.
    // The value: to_json(Translation) (src/decode/translator.h).
    std::string translate(const std::string& text, const std::string& options_json) const {
        return guarded([&] {
            if (!model_) throw UsageError("this model failed to load; load a valid .s2s file");
            const json options = json::parse(options_json);
            if (!options.is_object()) throw UsageError("options must be an object");
            DecodeOptions decode;
            decode.beam_size = integer_option(options, "beamSize", 1);
            decode.max_length = integer_option(options, "maxLength", 0);
            decode.alternatives = integer_option(options, "alternatives", 0);
            std::vector<std::string> prefix;
            if (auto it = options.find("prefix"); it != options.end() && !it->is_null()) {
                prefix = it->get<std::vector<std::string>>();
            }
            const Translation t = prefix.empty() ? s2s::translate(*model_, text, decode)
                                                 : translate_with_prefix(*model_, text, prefix, decode);
            return to_json(t);
        });
    }

    // Everything in the header but the vocabularies (their sizes only).
    std::string info() const {
        return guarded([&] {
            if (!model_) throw UsageError("this model failed to load; load a valid .s2s file");
            json header = model_header(*model_);
            header.erase("source_vocabulary");
            header.erase("target_vocabulary");
            header["source_vocabulary_size"] = model_->source_vocabulary.size();
            header["target_vocabulary_size"] = model_->target_vocabulary.size();
            return header;
        });
    }

private:
    std::unique_ptr<Model> model_;
    std::string load_error_;
};

// The WASM heap's size and the bytes malloc has handed out and not taken
// back: what the memory tests watch for leaks.
std::string heap_stats() {
    const struct mallinfo m = mallinfo();
    return dump({{"heapBytes", emscripten_get_heap_size()}, {"usedBytes", m.uordblks}});
}

}  // namespace s2s::wasm

EMSCRIPTEN_BINDINGS(seq2seq_attention) {
    using namespace emscripten;
    class_<s2s::wasm::Session>("Session")
        .constructor<const std::string&>()
        .function("loadError", &s2s::wasm::Session::loadError)
        .function("translate", &s2s::wasm::Session::translate)
        .function("info", &s2s::wasm::Session::info);
    function("heapStats", &s2s::wasm::heap_stats);
}
