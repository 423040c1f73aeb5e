// Text in, translation out (translator.h): tokenize, cut to
// kMaxSourceTokens, decode, detokenize, and the JSON every client reads.
#include "decode/translator.h"

#include "common/error.h"
#include "decode/names.h"
#include "text/sentences.h"
#include "text/utf8.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace s2s {
namespace {

// The model's doubt (TranslationHypothesis): token and word probabilities
// (mark_unsure then names the words under the threshold).
void describe_doubt(const std::vector<float>& token_log_probs, TranslationHypothesis& out) {
    out.token_probabilities.reserve(token_log_probs.size());
    for (float log_p : token_log_probs) out.token_probabilities.push_back(std::exp(log_p));
    for (size_t w = 0; w < out.target_words.size(); ++w) {
        const WordSpan& word = out.target_words[w];
        double log_p = 0.0;
        for (int t = word.start; t < word.end && t < static_cast<int>(token_log_probs.size()); ++t) log_p += token_log_probs[t];
        const float p = static_cast<float>(std::exp(log_p));
        out.word_probabilities.push_back(p);
    }
}

TranslationHypothesis describe(const Model& model, Hypothesis&& h) {
    TranslationHypothesis out;
    std::vector<std::string> words;
    for (int id : h.tokens) {
        out.target_tokens.push_back(model.target_vocabulary.token(id));
        if (id != Vocabulary::kEos) words.push_back(out.target_tokens.back());
    }
    out.text = detokenize(words, model.target_tokenizer);
    out.target_words = word_spans(out.target_tokens, model.target_tokenizer);
    describe_doubt(h.token_log_probs, out);
    out.attention = std::move(h.attention);
    if (!out.attention.empty()) {
        const size_t S = out.attention.cols();
        out.coverage.assign(S, 0.0f);
        for (const auto& row : out.attention) {
            for (size_t i = 0; i < S; ++i) out.coverage[i] += row[i];
        }
    }
    for (const auto& position : h.alternatives) {
        std::vector<std::pair<std::string, float>> choices;
        for (const TokenChoice& c : position) choices.emplace_back(model.target_vocabulary.token(c.token), c.log_prob);
        out.alternatives.push_back(std::move(choices));
    }
    out.score = h.normalized_score;
    out.log_prob = h.log_prob;
    out.finished = h.finished;
    return out;
}

// A prefix word as messages quote it: short, and valid UTF-8 whatever the
// caller passed (the message may cross into JavaScript).
std::string quoted(const std::string& word) {
    constexpr size_t kShown = 40;
    if (word.size() <= kShown) return "'" + sanitize_utf8(word) + "'";
    return "'" + sanitize_utf8(word.substr(0, kShown)) + "...'";
}

}  // namespace

void mark_unsure(TranslationHypothesis& h, size_t forced) {
    h.unsure_words.clear();
    for (size_t w = 0; w < h.target_words.size() && w < h.word_probabilities.size(); ++w) {
        const bool copied = std::find(h.copied_words.begin(), h.copied_words.end(), static_cast<int>(w)) != h.copied_words.end();
        if (!copied && h.target_words[w].start >= static_cast<int>(forced) && h.word_probabilities[w] < kUnsureWordProbability) {
            h.unsure_words.push_back(static_cast<int>(w));
        }
    }
}

DecodeOptions decode_defaults(const Model& model) {
    DecodeOptions options;
    if (model.length_penalty) options.length_penalty = static_cast<float>(*model.length_penalty);
    if (model.coverage_penalty) options.coverage_penalty = static_cast<float>(*model.coverage_penalty);
    return options;
}

Translation translate(const Model& model, const std::string& text, const DecodeOptions& options) {
    Translation result;
    std::vector<std::string> tokens = tokenize(text, model.source_tokenizer);
    if (tokens.empty()) return result;
    if (static_cast<int>(tokens.size()) > kMaxSourceTokens - 1) {
        tokens.resize(kMaxSourceTokens - 1);
        result.truncated = true;
    }
    std::vector<int> ids = model.source_vocabulary.encode(tokens);
    ids.push_back(Vocabulary::kEos);
    for (int id : ids) result.source_tokens.push_back(model.source_vocabulary.token(id));
    // Words from the pieces as read, before the vocabulary turns unseen
    // characters into <unk>: an unknown character stays inside its word.
    tokens.push_back(model.source_vocabulary.token(Vocabulary::kEos));
    result.source_words = word_spans(tokens, model.source_tokenizer);
    result.source_offsets = token_ranges(text, tokens);
    DecodeTrace sentence;
    std::vector<Hypothesis> hypotheses = decode(model.params, model.config, ids, options, &model.int8_step, &sentence,
                                               model.target_shortlist ? &*model.target_shortlist : nullptr);
    // Each weight is finite (the loader refuses others), but a damaged file's
    // weights can still overflow together: a score that is then not a number
    // (or infinite with no forced prefix, which alone can force an impossible
    // token) is the file's fault, reported as such, never shown.
    for (const Hypothesis& h : hypotheses) {
        if (std::isnan(h.log_prob) || std::isnan(h.normalized_score) ||
            (options.forced_prefix.empty() && !(std::isfinite(h.log_prob) && std::isfinite(h.normalized_score)))) {
            throw ModelFileError("this model's numbers overflow while translating (a score is not finite): the file is "
                                 "damaged; download or train it again");
        }
    }
    if (options.trace && !hypotheses.empty()) {
        result.trace = name_trace(model.config.attention, options.temperature, sentence, std::move(hypotheses.front().trace),
                                  model.target_vocabulary);
    }
    const size_t forced = options.forced_prefix.size();
    for (Hypothesis& h : hypotheses) result.hypotheses.push_back(describe(model, std::move(h)));
    if (options.keep_names) keep_source_names(text, forced, result);
    // After the names and numbers are copied through: the text as shown.
    for (TranslationHypothesis& h : result.hypotheses) {
        h.possibly_dropped = possibly_dropped(h.coverage, result.source_words, h.text, model.target_tokenizer.language);
    }
    for (TranslationHypothesis& h : result.hypotheses) mark_unsure(h, forced);
    if (options.beam_tree) result.beam_tree = name_beam_tree(std::move(sentence.beam_tree), model.target_vocabulary);
    return result;
}

std::vector<int> forced_prefix_ids(const Model& model, const std::vector<std::string>& prefix) {
    std::vector<int> ids;
    for (const std::string& word : prefix) {
        const int id = model.target_vocabulary.id(word);
        if (id == Vocabulary::kUnk && word != "<unk>") {
            throw InputError(quoted(word) + " is not in this model's target vocabulary; pick one of the suggested words");
        }
        // The decoder never writes these, so they cannot be forced either
        // (search.cpp would refuse them by id, a message no user can read).
        if (id == Vocabulary::kPad || id == Vocabulary::kBos) {
            throw InputError(quoted(word) + " is never part of a translation, so it cannot be forced; pick one of the "
                             "suggested words");
        }
        ids.push_back(id);
    }
    return ids;
}

Translation translate_with_prefix(const Model& model, const std::string& text, const std::vector<std::string>& prefix,
                                  DecodeOptions options) {
    options.forced_prefix = forced_prefix_ids(model, prefix);
    return translate(model, text, options);
}

std::vector<SentenceTranslation> translate_sentences(const Model& model, const std::string& text, const DecodeOptions& options) {
    std::vector<SentenceTranslation> out;
    // The UTF-16 offsets are counted in one walk over the text: the spans
    // come in order, and each starts at or after the previous one's end.
    size_t byte = 0;
    int unit = 0;
    auto units_at = [&](size_t target) {
        while (byte < target && byte < text.size()) {
            const Utf8Char c = read_utf8_char(text, byte);
            unit += c.code_point >= 0x10000 ? 2 : 1;
            byte += c.length;
        }
        return unit;
    };
    for (const SentenceSpan& span : split_sentences(text)) {
        SentenceTranslation sentence;
        sentence.begin = span.begin;
        sentence.end = span.end;
        sentence.utf16.begin = units_at(span.begin);
        sentence.utf16.end = units_at(span.end);
        sentence.translation = translate(model, text.substr(span.begin, span.end - span.begin), options);
        out.push_back(std::move(sentence));
    }
    return out;
}

std::string join_translations(const Model& model, const std::vector<SentenceTranslation>& sentences) {
    const std::string separator = model.target_tokenizer.language == "zh" ? "" : " ";
    std::string joined;
    for (const SentenceTranslation& s : sentences) {
        const std::string text = s.translation.best() ? s.translation.best()->text : "";
        if (text.empty()) continue;
        if (!joined.empty()) joined += separator;
        joined += text;
    }
    return joined;
}

namespace {
nlohmann::json words_json(const std::vector<WordSpan>& words) {
    nlohmann::json out = nlohmann::json::array();
    for (const WordSpan& w : words) out.push_back({{"text", w.text}, {"start", w.start}, {"end", w.end}});
    return out;
}
}  // namespace

nlohmann::json to_json(const Translation& translation, TranslationLayout layout, std::vector<float>* packed) {
    const bool document = layout == TranslationLayout::kDocument;
    if (!document && packed == nullptr) {
        throw std::invalid_argument("to_json: the hypotheses-only layout packs its numbers into an array; none was given");
    }
    if (!document && packed != nullptr) packed->clear();
    NumberWriter numbers(document ? nullptr : packed);
    auto attention_json = [&](const TranslationHypothesis& h) {
        if (document) return nlohmann::json(h.attention);
        return nlohmann::json::array({h.attention.size(), h.attention.cols()});
    };
    auto hypothesis_json = [&](const TranslationHypothesis& h) {
        nlohmann::json alternatives = nlohmann::json::array();
        for (const auto& position : h.alternatives) {
            nlohmann::json choices = nlohmann::json::array();
            for (const auto& [token, log_prob] : position) choices.push_back({{"token", token}, {"logProb", numbers.float32(log_prob)}});
            alternatives.push_back(choices);
        }
        nlohmann::json j = {{"text", h.text},         {"targetTokens", h.target_tokens}, {"targetWords", words_json(h.target_words)},
                            {"attention", attention_json(h)}, {"coverage", numbers.floats(h.coverage)},
                            {"possiblyDropped", h.possibly_dropped},
                            {"tokenProbabilities", numbers.floats(h.token_probabilities)},
                            {"wordProbabilities", numbers.floats(h.word_probabilities)},
                            {"unsureWords", h.unsure_words},
                            {"copiedWords", h.copied_words},
                            {"score", h.score},       {"logProb", h.log_prob},          {"finished", h.finished}};
        if (!h.alternatives.empty()) j["alternatives"] = alternatives;
        return j;
    };
    nlohmann::json out;
    const TranslationHypothesis* best = translation.best();
    if (document) {
        out["text"] = best ? best->text : "";
        out["targetTokens"] = best ? best->target_tokens : std::vector<std::string>{};
        out["targetWords"] = words_json(best ? best->target_words : std::vector<WordSpan>{});
        out["attention"] = best ? attention_json(*best) : nlohmann::json::array();
        out["coverage"] = best ? nlohmann::json(best->coverage) : nlohmann::json::array();
        out["possiblyDropped"] = best ? nlohmann::json(best->possibly_dropped) : nlohmann::json::array();
        out["tokenProbabilities"] = best ? nlohmann::json(best->token_probabilities) : nlohmann::json::array();
        out["wordProbabilities"] = best ? nlohmann::json(best->word_probabilities) : nlohmann::json::array();
        out["unsureWords"] = best ? nlohmann::json(best->unsure_words) : nlohmann::json::array();
        out["copiedWords"] = best ? nlohmann::json(best->copied_words) : nlohmann::json::array();
        out["score"] = best ? best->score : 0.0;
    }
    out["sourceTokens"] = translation.source_tokens;
    out["sourceWords"] = words_json(translation.source_words);
    nlohmann::json offsets = nlohmann::json::array();
    for (const TextRange& r : translation.source_offsets) {
        offsets.push_back(r.begin < 0 ? nlohmann::json(nullptr) : nlohmann::json::array({r.begin, r.end}));
    }
    out["sourceOffsets"] = std::move(offsets);
    if (translation.trace) out["trace"] = trace_json(*translation.trace, numbers);
    if (translation.beam_tree) out["beamTree"] = beam_tree_json(*translation.beam_tree, numbers);
    out["truncated"] = translation.truncated;
    nlohmann::json hypotheses = nlohmann::json::array();
    for (const auto& h : translation.hypotheses) hypotheses.push_back(hypothesis_json(h));
    out["hypotheses"] = hypotheses;
    return out;
}

}  // namespace s2s
