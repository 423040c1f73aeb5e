// The Embind surface of the translator module (s2s-core): deliberately small and raw.
// Users never see it; src/wasm/index.js wraps it in the package's
// JavaScript API (loadModel, translate, dispose).
//
//   new Session(bytes)            parses a .s2s file held in a JS Uint8Array
//   session.loadError()           "" when the model loaded, else the reason
//   session.translate(text, opts) a JSON envelope (below); opts is JSON
//   session.translateSteps(text, opts, onStep)  the same, calling onStep
//                                 after each greedy step as it is decoded
//   session.translateText(text, opts)  a text of several sentences in one
//                                 call: each sentence's UTF-16 range and
//                                 translation, and the translations joined
//   session.attention(s, k)       hypothesis k's attention matrix of sentence
//                                 s of the last call (translate's one
//                                 translation is sentence 0), row after row
//                                 (a Float32Array view into the heap)
//   session.release()             frees the last call's translations (after the copy)
//   session.numbers(s)            every other float of sentence s of the
//                                 last call (its hypotheses' vectors and
//                                 alternatives, its trace and beam tree),
//                                 packed (a Float32Array view into the heap)
//   session.infoBytes()           a JSON envelope with the model's header,
//                                 as UTF-8 bytes (a Uint8Array view into the
//                                 heap, valid until the next call), which
//                                 the wrapper decodes
//   limits()                      translate's options (range, default) and
//                                 input limit as JSON (envelope.h); the
//                                 build writes dist/options.js from it
//   heapStats()                   {heapBytes, usedBytes}, for the memory tests
//                                 (heap_stats, envelope.h)
//   warmUp()                      runs a tiny model once so the browser
//                                 compiles the loading and translating code
//                                 early ("" or a failure envelope)
//
// Every call that can fail returns a JSON envelope instead of throwing
// (src/wasm/envelope.h), which the wrapper turns into an ordinary Error.
// Training in the browser is another module (train_bindings.cpp), so that
// the translator's download stays small.
#include "decode/translator.h"
#include "model/model.h"
#include "text/bpe.h"
#include "wasm/envelope.h"

#include <emscripten/bind.h>

#include <memory>
#include <new>
#include <string>
#include <vector>

namespace s2s::wasm {

class Session {
public:
    // bytes: a Uint8Array holding the whole .s2s file. It is copied into
    // the heap with one TypedArray.set: Embind's std::string conversion
    // copies a byte at a time in JavaScript (bench/history.md).
    explicit Session(const emscripten::val& bytes) {
        const std::string envelope = guarded([&] {
            // Uninitialized (not a std::vector): zeroing megabytes that
            // set() overwrites at once costs a cold page several ms.
            const auto size = bytes["length"].as<size_t>();
            std::shared_ptr<uint8_t[]> copy(new uint8_t[size]);
            emscripten::val(emscripten::typed_memory_view(size, copy.get())).call<void>("set", bytes);
            // Translation only, and the model keeps these bytes: its int8
            // matrices and embeddings are read where they lie, not copied
            // (model.h, model_from_owned_bytes).
            model_ = std::make_unique<Model>(model_from_owned_bytes(std::move(copy), size));
            return json(nullptr);
        });
        if (!model_) load_error_ = envelope;
    }

    // "" when the model loaded, else the failure envelope.
    std::string loadError() const { return load_error_; }

    // options_json: the options read_translate_options reads (envelope.h),
    // all optional. The value: to_json(Translation) (src/decode/translator.h),
    // hypotheses-only; its attention with attention(0, k), its other floats
    // with numbers(0).
    std::string translate(const std::string& text, const std::string& options_json) const {
        return run_translation(text, options_json, nullptr);
    }

    // As translate, calling onStep(token, logProb, attentionRow) after each
    // step of greedy decoding, as the decoder writes it (attentionRow: a
    // Float32Array view into the heap, valid during the call only; null for
    // the fixed-context baseline). onStep must not throw.
    std::string translateSteps(const std::string& text, const std::string& options_json, emscripten::val on_step) const {
        // Called only while decoding, so with a loaded model.
        return run_translation(text, options_json, [&](int token, float log_prob, const float* attention, int columns) {
            emscripten::val row = attention != nullptr
                ? emscripten::val(emscripten::typed_memory_view(static_cast<size_t>(columns), attention))
                : emscripten::val::null();
            on_step(model_->target_vocabulary.token(token), log_prob, row);
        });
    }

    // A text of several sentences (translate_text_json, envelope.h: the
    // sentences split, translated one by one and joined in C++), in one
    // call. Each sentence's floats are read with attention(s, k) and
    // numbers(s).
    std::string translateText(const std::string& text, const std::string& options_json) const {
        return guarded([&] {
            if (!model_) throw UsageError("this model failed to load; load a valid .s2s file");
            return translate_text_json(*model_, text, options_json, &last_);
        });
    }

    // Hypothesis k's attention matrix of sentence s of the last call, where
    // the search wrote it: a view into the heap (the wrapper copies it at
    // once, the one copy on its way to JavaScript: a view detaches when
    // memory grows). Empty for an s or k out of range.
    emscripten::val attention(int s, int k) const {
        static const std::vector<float> kNone;
        const Translation* t = sentence(s);
        const std::vector<float>& values =
            t != nullptr && k >= 0 && static_cast<size_t>(k) < t->hypotheses.size() ? t->hypotheses[static_cast<size_t>(k)].attention.values() : kNone;
        return emscripten::val(emscripten::typed_memory_view(values.size(), values.data()));
    }

    // Frees the last call's translations once the wrapper has copied them:
    // the heap then holds nothing that depends on which text came last.
    void release() { last_ = std::vector<SentenceTranslation>(); }

    // The floats of sentence s of the last call but its attention (the
    // hypotheses' coverage, probabilities and alternatives; the trace and
    // the beam tree, when asked for), as to_json packed them (NumberWriter,
    // src/decode/translation_trace.h): a view into the heap, as attention().
    // Empty for an s out of range.
    emscripten::val numbers(int s) const {
        static const std::vector<float> kNone;
        const std::vector<float>& values = sentence(s) != nullptr ? last_[static_cast<size_t>(s)].packed_numbers : kNone;
        return emscripten::val(emscripten::typed_memory_view(values.size(), values.data()));
    }

    // Everything in the header but the vocabularies and the subword merges
    // (their sizes only), and "decode_defaults" (option_values_json: each
    // option's value when none is given, for this model): the vocabularies
    // are thousands of entries nobody reads from info, which
    // the page would otherwise copy from its worker. The envelope's UTF-8
    // bytes, for the wrapper to decode with one TextDecoder call: Embind's
    // std::string conversion walks a result byte by byte in JavaScript,
    // twice (12 kB for en-fr's info, in a cold load's still unoptimized
    // JavaScript). Valid until the next call.
    emscripten::val infoBytes() const {
        info_text_ = guarded([&] {
            if (!model_) throw UsageError("this model failed to load; load a valid .s2s file");
            json info = model_header_without_vocabularies(*model_);
            // What translate decodes this model with when no option is
            // given: its own penalties, when its file records them, over
            // DecodeOptions' defaults (decode_defaults, translator.h). The
            // wrapper reads beamDefaults from it, so no default is written
            // twice.
            info["decode_defaults"] = option_values_json(decode_defaults(*model_));
            return info;
        });
        return emscripten::val(
            emscripten::typed_memory_view(info_text_.size(), reinterpret_cast<const unsigned char*>(info_text_.data())));
    }

private:
    // translate_json into last_ (one sentence), with DecodeOptions::on_step.
    std::string run_translation(const std::string& text, const std::string& options_json,
                                std::function<void(int, float, const float*, int)> on_step) const {
        return guarded([&] {
            if (!model_) throw UsageError("this model failed to load; load a valid .s2s file");
            last_.assign(1, SentenceTranslation());
            return translate_json(*model_, text, options_json, &last_.front(), std::move(on_step));
        });
    }

    const Translation* sentence(int s) const {
        return s >= 0 && static_cast<size_t>(s) < last_.size() ? &last_[static_cast<size_t>(s)].translation : nullptr;
    }

    std::unique_ptr<Model> model_;
    std::string load_error_;
    // The last call's sentences (translate's one, translateText's each):
    // their hypotheses (the attention matrices), and their other floats
    // (packed_numbers; the JSON holds their places).
    mutable std::vector<SentenceTranslation> last_;
    mutable std::string info_text_;  // infoBytes()'s text
};

// Loads and runs a tiny model made here (random int8 weights, a few
// placeholder words): in a browser each WebAssembly function is compiled
// the first time it is called, on the calling thread, so a worker that calls
// this while the real model still downloads has compiled the loading and
// translating code by the time the model arrives. Returns "" when it ran, or
// the failure envelope (never expected; the real load reports any problem).
std::string warm_up() {
    std::string envelope = guarded([] {
        Model model;
        model.config.source_vocab_size = 12;
        model.config.target_vocab_size = 12;
        model.config.embedding_size = 16;
        model.config.encoder_hidden_size = 16;
        model.config.decoder_hidden_size = 32;
        model.config.attention_size = 16;
        model.config.output_hidden_size = 16;
        // Subword pieces, as the shipped models have: loading compiles the
        // BPE merges' reading and checks, translating their encoding.
        const std::string m(kWordMarker);
        const std::vector<BpeModel::Merge> merges = {{m, "a"}, {m + "a", "b"}, {m, "c"}};
        std::vector<std::string> tokens = {"<pad>", "<unk>", "<bos>", "<eos>", m, "a", "b", "c", ".", m + "a", m + "ab", m + "c"};
        model.source_tokenizer = TokenizerSettings(TokenizerKind::kSubwords, "en", std::make_shared<const BpeModel>(merges));
        model.target_tokenizer = TokenizerSettings(TokenizerKind::kSubwords, "fr", std::make_shared<const BpeModel>(merges));
        model.source_vocabulary = Vocabulary::from_tokens(tokens);
        model.target_vocabulary = Vocabulary::from_tokens(tokens);
        model.params = random_parameters(model.config, 1);
        const std::vector<uint8_t> bytes = serialize_model(model, TensorDtype::kInt8);
        const Model loaded = model_from_bytes(bytes.data(), bytes.size(), LoadFor::kTranslation);
        translate_json(loaded, "ab c.", "{}");
        translate_json(loaded, "ab c.", R"({"beamSize": 4})");
        return json(nullptr);
    });
    return envelope.find("\"ok\":true") != std::string::npos ? std::string() : envelope;
}

}  // namespace s2s::wasm

EMSCRIPTEN_BINDINGS(seq2seq_attention) {
    using namespace emscripten;
    class_<s2s::wasm::Session>("Session")
        .constructor<const emscripten::val&>()
        .function("loadError", &s2s::wasm::Session::loadError)
        .function("translate", &s2s::wasm::Session::translate)
        .function("translateSteps", &s2s::wasm::Session::translateSteps)
        .function("translateText", &s2s::wasm::Session::translateText)
        .function("infoBytes", &s2s::wasm::Session::infoBytes)
        .function("attention", &s2s::wasm::Session::attention)
        .function("release", &s2s::wasm::Session::release)
        .function("numbers", &s2s::wasm::Session::numbers);
    function("limits", &s2s::wasm::limits);
    function("heapStats", &s2s::wasm::heap_stats);
    function("warmUp", &s2s::wasm::warm_up);
}
