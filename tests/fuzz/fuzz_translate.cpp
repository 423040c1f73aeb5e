// libFuzzer target: arbitrary bytes as text to translate, with the decoding
// options (model variant, beam size, maximum length, alternatives, a forced
// prefix) taken from the input too.
//
// The models are small and fixed, built in-process from a seeded random
// initialization (decoding invariants do not need a trained model): one per
// attention variant, plus a Chinese-target model with a character
// tokenizer. Building them here keeps the target independent of any model
// file and of the trainer.
//
// What must hold for every input (a violation aborts with a message):
//   - tokenize: tokens are non-empty valid UTF-8 without whitespace or NUL;
//     sanitize_utf8 gives valid UTF-8 and is idempotent; detokenize gives
//     valid UTF-8;
//   - translate: no exception but an InputError naming a prefix word the
//     model cannot force; at most 200 source tokens, <eos> last; at most
//     beam_size hypotheses; per hypothesis at most max_length tokens, the
//     forced prefix first, <eos> last exactly when finished, one attention
//     row per target token (none for the fixed-context baseline), one column
//     per source token, rows of finite non-negative weights summing to 1,
//     finite scores, k alternatives per position when asked;
//   - to_json(...).dump() never throws (no invalid UTF-8 reaches it).
//
// Build and run: scripts/fuzz.sh; seeds in tests/fuzz/corpus/fuzz_translate/.
#include "common/error.h"
#include "decode/translator.h"
#include "model/model.h"
#include "text/tokenizer.h"
#include "text/utf8.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "fuzz_translate: invariant broken: %s\n", what.c_str());
    std::abort();
}
void expect(bool condition, const char* what) {
    if (!condition) fail(what);
}

std::vector<std::string> with_specials(std::vector<std::string> words) {
    words.insert(words.begin(), {"<pad>", "<unk>", "<bos>", "<eos>"});
    return words;
}

// Words the fuzzer can find by mutation (and the seeds use), so that inputs
// mix known words and <unk>.
const std::vector<std::string> kEnglish = {"i",  "see", "the", "cat", ".",   ",",    "!",     "?",   "we",
                                           "drink", "water", "love", "deep", "learning", "you", "a", "dog",
                                           "it's", "don't", "café", "naïve", "3.14"};
const std::vector<std::string> kFrench = {"je", "vois", "le", "chat", ".", ",", "!", "?", "nous", "buvons", "de",
                                          "l'eau", "j'aime", "tu", "un", "chien", "café", "à", "ça"};
const std::vector<std::string> kChinese = {"我", "看", "见", "猫", "。", "，", "！", "？", "喝", "水", "爱", "你",
                                           "a", "b"};

s2s::Model make_model(s2s::AttentionKind attention, bool chinese, uint64_t seed) {
    s2s::Model model;
    model.source_vocabulary = s2s::Vocabulary::from_tokens(with_specials(kEnglish));
    model.target_vocabulary = s2s::Vocabulary::from_tokens(with_specials(chinese ? kChinese : kFrench));
    model.target_tokenizer = chinese ? s2s::TokenizerSettings{s2s::TokenizerKind::kCharacters, "zh"}
                                     : s2s::TokenizerSettings{s2s::TokenizerKind::kWords, "fr"};
    s2s::ModelConfig& c = model.config;
    c.source_vocab_size = model.source_vocabulary.size();
    c.target_vocab_size = model.target_vocabulary.size();
    c.embedding_size = 6;
    c.encoder_hidden_size = 5;
    const bool equal_sizes = attention == s2s::AttentionKind::kDot || attention == s2s::AttentionKind::kScaledDot;
    c.decoder_hidden_size = equal_sizes ? 10 : 7;
    c.attention_size = 4;
    c.output_hidden_size = 8;
    c.attention = attention;
    c.validate();
    model.params = s2s::random_parameters(c, seed);
    // Sharper output weights: varied, decisive outputs (some long, some
    // ending at once) rather than near-uniform ties.
    model.params.output_weights *= 4.0f;
    return model;
}

const std::vector<s2s::Model>& models() {
    static const std::vector<s2s::Model> all = {
        make_model(s2s::AttentionKind::kAdditive, false, 1), make_model(s2s::AttentionKind::kGeneral, false, 2),
        make_model(s2s::AttentionKind::kDot, false, 3),      make_model(s2s::AttentionKind::kScaledDot, false, 4),
        make_model(s2s::AttentionKind::kNone, false, 5),     make_model(s2s::AttentionKind::kAdditive, true, 6),
    };
    return all;
}

bool has_space_or_nul(const std::string& token) {
    for (char32_t cp : s2s::decode_utf8(token)) {
        if (cp == 0 || s2s::is_unicode_space(cp)) return true;
    }
    return false;
}

void check_text(const std::string& text) {
    const std::string clean = s2s::sanitize_utf8(text);
    expect(s2s::is_valid_utf8(clean), "sanitize_utf8 gave invalid UTF-8");
    expect(clean.find('\0') == std::string::npos, "sanitize_utf8 kept a NUL byte");
    expect(s2s::sanitize_utf8(clean) == clean, "sanitize_utf8 is not idempotent");
    if (s2s::is_valid_utf8(text) && text.find('\0') == std::string::npos) {
        expect(clean == text, "sanitize_utf8 changed valid text");
    }
    for (const s2s::TokenizerSettings& settings :
         {s2s::TokenizerSettings{s2s::TokenizerKind::kWords, "en"}, s2s::TokenizerSettings{s2s::TokenizerKind::kCharacters, "zh"}}) {
        const std::vector<std::string> tokens = s2s::tokenize(text, settings);
        for (const std::string& token : tokens) {
            expect(!token.empty(), "empty token");
            expect(s2s::is_valid_utf8(token), "token is not valid UTF-8");
            expect(!has_space_or_nul(token), "token holds whitespace or NUL");
        }
        for (const char* language : {"en", "fr", "zh"}) {
            const s2s::TokenizerSettings detok{settings.kind, language};
            expect(s2s::is_valid_utf8(s2s::detokenize(tokens, detok)), "detokenize gave invalid UTF-8");
        }
    }
}

void check_translation(const s2s::Model& model, const s2s::Translation& t, const s2s::DecodeOptions& options,
                       const std::vector<std::string>& prefix) {
    expect(t.source_tokens.size() <= size_t(s2s::kMaxSourceTokens), "more than 200 source tokens");
    if (t.source_tokens.empty()) {
        expect(t.hypotheses.empty(), "hypotheses for empty input");
        return;
    }
    expect(t.source_tokens.back() == "<eos>", "source does not end in <eos>");
    expect(!t.hypotheses.empty() && t.hypotheses.size() <= size_t(options.beam_size), "wrong number of hypotheses");
    const size_t source_length = t.source_tokens.size();
    const size_t max_length = options.max_length > 0 ? size_t(options.max_length) : 2 * source_length + 10;
    const bool has_attention = model.config.attention != s2s::AttentionKind::kNone;
    for (const s2s::TranslationHypothesis& h : t.hypotheses) {
        expect(!h.target_tokens.empty(), "a hypothesis without tokens");
        expect(h.target_tokens.size() <= std::min(max_length, size_t(s2s::kMaxOutputLength)),
               "hypothesis longer than max_length");
        for (size_t i = 0; i < prefix.size() && i < h.target_tokens.size(); ++i) {
            expect(h.target_tokens[i] == prefix[i], "the forced prefix is not at the start");
        }
        const auto eos = std::find(h.target_tokens.begin(), h.target_tokens.end(), "<eos>");
        expect(h.finished == (eos != h.target_tokens.end()), "finished without <eos> or <eos> without finished");
        if (h.finished) expect(eos + 1 == h.target_tokens.end(), "tokens after <eos>");
        for (const std::string& token : h.target_tokens) expect(token != "<pad>" && token != "<bos>", "<pad>/<bos> output");
        expect(std::isfinite(h.score) && std::isfinite(h.log_prob), "non-finite score");
        expect(h.log_prob <= 1e-6, "positive log probability");
        expect(s2s::is_valid_utf8(h.text), "translation text is not valid UTF-8");
        if (has_attention) {
            expect(h.attention.size() == h.target_tokens.size(), "attention rows != target tokens");
        } else {
            expect(h.attention.empty(), "the fixed-context baseline has attention");
        }
        for (const auto& row : h.attention) {
            expect(row.size() == source_length, "attention columns != source tokens");
            double total = 0;
            for (float w : row) {
                expect(std::isfinite(w) && w >= 0.0f && w <= 1.0f + 1e-6f, "attention weight outside [0, 1]");
                total += w;
            }
            expect(std::fabs(total - 1.0) < 1e-4, "attention row does not sum to 1");
        }
        if (options.alternatives > 0) {
            expect(h.alternatives.size() == h.target_tokens.size(), "alternatives per position");
            for (const auto& position : h.alternatives) {
                expect(position.size() == size_t(options.alternatives), "k alternatives");
                for (size_t i = 1; i < position.size(); ++i) {
                    expect(position[i - 1].second >= position[i].second, "alternatives not best first");
                }
            }
        } else {
            expect(h.alternatives.empty(), "alternatives nobody asked for");
        }
    }
    (void)s2s::to_json(t).dump();  // throws on invalid UTF-8: escapes as an uncaught exception
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    FuzzedDataProvider input(data, size);
    // Options come from the end of the input, the text from the start, so a
    // plain sentence seed is mostly text.
    const s2s::Model& model = models()[input.ConsumeIntegralInRange<size_t>(0, models().size() - 1)];
    s2s::DecodeOptions options;
    options.beam_size = input.ConsumeIntegralInRange<int>(1, s2s::kMaxBeamSize);
    options.max_length = input.ConsumeBool() ? 0 : input.ConsumeIntegralInRange<int>(1, s2s::kMaxOutputLength);
    options.alternatives = input.ConsumeIntegralInRange<int>(0, 4);
    std::vector<std::string> prefix(input.ConsumeIntegralInRange<size_t>(0, 3));
    const std::vector<std::string>& targets = model.target_vocabulary.tokens();
    for (std::string& word : prefix) {
        const size_t pick = input.ConsumeIntegralInRange<size_t>(0, targets.size());  // == size: not a word
        word = pick < targets.size() ? targets[pick] : "zzyzx";
    }
    const std::string text = input.ConsumeRemainingBytesAsString();

    check_text(text);
    try {
        const s2s::Translation t = prefix.empty() ? s2s::translate(model, text, options)
                                                  : s2s::translate_with_prefix(model, text, prefix, options);
        check_translation(model, t, options, prefix);
    } catch (const s2s::InputError& error) {
        // Only for a prefix word the model cannot force: one missing from the
        // vocabulary, or <pad> or <bos>, which are never outputs. The message
        // names the first such word.
        const auto cannot_force = std::find_if(prefix.begin(), prefix.end(), [](const std::string& word) {
            return word == "zzyzx" || word == "<pad>" || word == "<bos>";
        });
        expect(cannot_force != prefix.end(), "InputError for a prefix the model can force");
        expect(std::string(error.what()).find("'" + *cannot_force + "'") != std::string::npos,
               "InputError does not name the word");
    }
    return 0;
}
