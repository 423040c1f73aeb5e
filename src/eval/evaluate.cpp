// Translating and scoring a development set (evaluate.h), for a model or
// for the translation-memory baseline, on several threads natively.
#include "eval/evaluate.h"

#include "common/error.h"
#include "decode/translator.h"
#include "eval/translation_memory.h"
#include "text/tokenizer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <unordered_set>
#ifndef __EMSCRIPTEN__
#include <thread>
#endif

namespace s2s {

namespace {

// Each sentence's references, after checking that `hypotheses` has one
// translation per sentence.
std::vector<std::vector<std::string>> references_for(const std::vector<SourceWithReferences>& data,
                                                     const std::vector<std::string>& hypotheses) {
    if (hypotheses.size() != data.size()) {
        throw UsageError("scoring needs one translation per source sentence, but there are " +
                         std::to_string(hypotheses.size()) + " translations and " + std::to_string(data.size()) +
                         " sentences");
    }
    std::vector<std::vector<std::string>> references;
    references.reserve(data.size());
    for (const SourceWithReferences& entry : data) references.push_back(entry.references);
    return references;
}

}  // namespace

BleuReport score_translations(const std::vector<SourceWithReferences>& data, const std::vector<std::string>& hypotheses,
                              const std::string& target_language) {
    const std::vector<std::vector<std::string>> references = references_for(data, hypotheses);
    // English words, not the model's own source pieces, define a sentence's
    // length (count_english_words).
    std::vector<int> source_words;
    source_words.reserve(data.size());
    for (const SourceWithReferences& entry : data) source_words.push_back(count_english_words(entry.source));
    return bleu_report(hypotheses, references, source_words, bleu_tokenizer_for_language(target_language));
}

BootstrapReport bootstrap_translations(const std::vector<SourceWithReferences>& data,
                                       const std::vector<std::string>& hypotheses,
                                       const std::vector<std::string>* baseline, const std::string& target_language,
                                       int resamples, uint64_t seed) {
    const BleuTokenizer tokenizer = bleu_tokenizer_for_language(target_language);
    const std::vector<BleuStats> system =
        bleu_stats_per_sentence(hypotheses, references_for(data, hypotheses), tokenizer);
    if (baseline == nullptr) return bootstrap_bleu(system, nullptr, resamples, seed);
    const std::vector<BleuStats> other = bleu_stats_per_sentence(*baseline, references_for(data, *baseline), tokenizer);
    return bootstrap_bleu(system, &other, resamples, seed);
}

Evaluation evaluate_model(const Model& model, const std::vector<SourceWithReferences>& data, const DecodeOptions& options,
                          int threads) {
    const auto start = std::chrono::steady_clock::now();
    Evaluation out;
    out.hypotheses.resize(data.size());
    std::atomic<size_t> next{0};
    auto work = [&]() {
        for (size_t k = next++; k < data.size(); k = next++) {
            const Translation t = translate(model, data[k].source, options);
            out.hypotheses[k] = t.best() ? t.best()->text : "";
        }
    };
#ifndef __EMSCRIPTEN__
    // An exception must not escape a thread: keep it and rethrow it here.
    std::vector<std::exception_ptr> errors(static_cast<size_t>(std::max(threads, 1)));
    auto guarded = [&](size_t worker) {
        try {
            work();
        } catch (...) {
            errors[worker] = std::current_exception();
            next = data.size();  // the others stop early
        }
    };
    std::vector<std::thread> pool;
    for (int i = 1; i < threads; ++i) pool.emplace_back(guarded, static_cast<size_t>(i));
    guarded(0);
    for (auto& t : pool) t.join();
    for (const auto& error : errors) {
        if (error) std::rethrow_exception(error);
    }
#else
    (void)threads;
    work();
#endif
    out.report = score_translations(data, out.hypotheses, model.target_tokenizer.language);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

Evaluation evaluate_translation_memory(const std::string& memory_path, double dev_fraction, uint64_t split_seed,
                                       const std::vector<SourceWithReferences>& data,
                                       const std::string& target_language) {
    const auto start = std::chrono::steady_clock::now();
    const TokenizerSettings& english = english_words_tokenizer();
    std::unordered_set<std::string> held_out;
    for (const auto& entry : data) held_out.insert(token_key(entry.source, english));
    std::vector<SentencePair> stored;
    for (SentencePair& pair : split_by_source(read_sentence_pairs(memory_path), dev_fraction, split_seed).train) {
        if (held_out.count(token_key(pair.source, english)) == 0) stored.push_back(std::move(pair));
    }
    const TranslationMemory memory(stored, english);
    Evaluation out;
    for (const auto& entry : data) out.hypotheses.push_back(memory.lookup(entry.source));
    out.report = score_translations(data, out.hypotheses, target_language);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

}  // namespace s2s
