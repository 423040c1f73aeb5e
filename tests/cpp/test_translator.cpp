// The translator (text in, tokens and attention out) on hostile input: every
// kind of text gives a well-formed result or a typed error naming the
// problem, and the next call gives the same result as before. A small
// random model is enough: these are properties of the pipeline, not of
// translation quality. (The same inputs go through the CLI and the
// JavaScript API in tests/js; tests/fuzz/fuzz_translate searches for more.)
#include "common/error.h"
#include "decode/names.h"
#include "decode/translator.h"
#include "test_helpers.h"
#include "text/bpe.h"
#include "text/utf8.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

using namespace s2s;
using namespace s2s::testing;

namespace {

Model english_model(AttentionKind attention) {
    Model model;
    std::vector<std::string> source = {"<pad>", "<unk>", "<bos>", "<eos>", "i", "see", "the", "cat", ".", "sees", "a", "dog"};
    std::vector<std::string> target = {"<pad>", "<unk>", "<bos>", "<eos>", "je", "vois", "le", "chat", ".", "un", "chien"};
    model.source_vocabulary = Vocabulary::from_tokens(source);
    model.target_vocabulary = Vocabulary::from_tokens(target);
    model.config = tiny_config(attention);
    model.config.source_vocab_size = model.source_vocabulary.size();
    model.config.target_vocab_size = model.target_vocabulary.size();
    model.params = random_parameters(model.config, 3);
    model.params.output_weights *= 4.0f;  // decisive outputs
    return model;
}

void check_well_formed(const Model& model, const Translation& t, int beam) {
    INFO("source tokens: " << t.source_tokens.size());
    if (t.source_tokens.empty()) {
        CHECK(t.hypotheses.empty());
        CHECK(to_json(t)["text"] == "");
        return;
    }
    CHECK(t.source_tokens.size() <= size_t(kMaxSourceTokens));
    CHECK(t.source_tokens.back() == "<eos>");
    REQUIRE(!t.hypotheses.empty());
    CHECK(t.hypotheses.size() <= size_t(beam));
    for (const std::string& token : t.source_tokens) {
        CHECK(!token.empty());
        CHECK(is_valid_utf8(token));
        CHECK(token.find('\0') == std::string::npos);
    }
    for (const TranslationHypothesis& h : t.hypotheses) {
        CHECK(is_valid_utf8(h.text));
        CHECK(std::isfinite(h.score));
        if (model.config.attention == AttentionKind::kNone) {
            CHECK(h.attention.empty());
            continue;
        }
        REQUIRE(h.attention.size() == h.target_tokens.size());
        for (const auto& row : h.attention) {
            REQUIRE(row.size() == t.source_tokens.size());
            CHECK(std::accumulate(row.begin(), row.end(), 0.0) == doctest::Approx(1.0).epsilon(1e-5));
        }
    }
    CHECK_NOTHROW((void)to_json(t).dump());  // dump() throws on invalid UTF-8
}

std::string repeated_words(int count) {
    const char* words[] = {"the", "cat", "sees", "a", "dog"};
    std::string text;
    for (int i = 0; i < count; ++i) text += std::string(i ? " " : "") + words[i % 5];
    return text;
}

}  // namespace

TEST_CASE("hostile text gives a well-formed result and the next call is unaffected") {
    const std::vector<std::pair<const char*, std::string>> inputs = {
        {"empty", ""},
        {"whitespace only", " \t\r\n \xc2\xa0\xe2\x80\xaf\xe3\x80\x80 "},
        {"20,000 characters, one word", std::string(20000, 'a')},
        {"20,000 characters of words", [] { std::string s; for (int i = 0; i < 2500; ++i) s += "the cat "; return s; }()},
        {"1,000 words", repeated_words(1000)},
        {"invalid UTF-8", "i \xff\xfe \xc3\x28 \xed\xa0\x80 \xf4\x90\x80\x80 \xc0\xaf the \xf0\x9f\x98"},
        {"NUL bytes", std::string("the\0cat\0\0 sees\0", 15)},
        {"emoji", "I \xf0\x9f\x98\x80 see the cat \xf0\x9f\x90\x88\xe2\x80\x8d\xe2\xac\x9b."},
        {"CJK", "\xe6\x88\x91\xe7\x88\xb1\xe4\xbd\xa0\xe3\x80\x82"},
        {"right-to-left", "\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7 \xe2\x80\xae" "abc\xe2\x80\xac \xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d"},
        {"markup", "<script>alert(\"x\")</script> <b>the</b> cat &amp; <img src=x onerror=alert(1)>"},
        {"unknown words", "xylophone quantum zebra"},
    };
    for (AttentionKind attention : {AttentionKind::kAdditive, AttentionKind::kNone}) {
        const Model model = english_model(attention);
        DecodeOptions greedy;
        const nlohmann::json reference = to_json(translate(model, "I see the cat.", greedy));
        for (const auto& [name, text] : inputs) {
            for (int beam : {1, 4}) {
                INFO(name << ", beam " << beam << ", " << attention_kind_name(attention));
                DecodeOptions options;
                options.beam_size = beam;
                options.alternatives = beam == 1 ? 0 : 3;
                const Translation t = translate(model, text, options);
                check_well_formed(model, t, beam);
                CHECK(to_json(translate(model, "I see the cat.", greedy)) == reference);
            }
        }
    }
}

TEST_CASE("what hostile text becomes: <unk>, cut input, dropped NUL") {
    const Model model = english_model(AttentionKind::kAdditive);
    const DecodeOptions options;
    auto tokens = [&](const std::string& text) { return translate(model, text, options).source_tokens; };
    using Tokens = std::vector<std::string>;
    CHECK(tokens("").empty());
    CHECK(tokens(" \t\n").empty());
    CHECK(tokens(std::string(20000, 'a')) == Tokens{"<unk>", "<eos>"});
    const Translation cut = translate(model, repeated_words(1000), options);
    CHECK(cut.truncated);
    CHECK(cut.source_tokens.size() == size_t(kMaxSourceTokens));
    CHECK_FALSE(translate(model, repeated_words(199), options).truncated);
    CHECK(translate(model, repeated_words(200), options).truncated);
    CHECK(tokens("xylophone the zebra") == Tokens{"<unk>", "the", "<unk>", "<eos>"});
    CHECK(tokens(std::string("the\0 cat", 8)) == Tokens{"the", "cat", "<eos>"});
    CHECK(tokens("the \xf0\x9f\x98\x80 cat") == Tokens{"the", "<unk>", "cat", "<eos>"});
    CHECK(tokens("<b>the</b>") == Tokens{"<unk>", "<eos>"});
}

TEST_CASE("a bad prefix is an InputError naming the word; the next call works") {
    const Model model = english_model(AttentionKind::kAdditive);
    const DecodeOptions options;
    const nlohmann::json reference = to_json(translate(model, "I see the cat.", options));
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"zzyzx"}, "'zzyzx' is not in this model's target vocabulary"},
        {{"je", "zzyzx"}, "'zzyzx' is not in this model's target vocabulary"},
        {{std::string(1000, 'x')}, "'" + std::string(40, 'x') + "...' is not in this model's target vocabulary"},
        {{"\xff\xfe"}, "'\xef\xbf\xbd\xef\xbf\xbd' is not in this model's target vocabulary"},
        {{"<pad>"}, "'<pad>' is never part of a translation, so it cannot be forced"},
        {{"je", "<bos>"}, "'<bos>' is never part of a translation, so it cannot be forced"},
    };
    for (const auto& [prefix, message] : cases) {
        INFO(message);
        try {
            translate_with_prefix(model, "I see the cat.", prefix, options);
            FAIL("expected an InputError");
        } catch (const InputError& e) {
            CHECK(std::string(e.what()).find(message) != std::string::npos);
            CHECK(is_valid_utf8(e.what()));
        }
        CHECK(to_json(translate(model, "I see the cat.", options)) == reference);
    }
    // <unk> and <eos> are words the model writes, so they can be forced.
    CHECK(translate_with_prefix(model, "I see the cat.", {"<unk>"}, options).best()->target_tokens.front() == "<unk>");
    const Translation ended = translate_with_prefix(model, "I see the cat.", {"<eos>"}, options);
    CHECK(ended.best()->target_tokens == std::vector<std::string>{"<eos>"});
    CHECK(ended.best()->finished);
}

TEST_CASE("finite weights that overflow together: a ModelFileError naming the damage, greedy and beam; the next call works") {
    // Every weight is finite (what the loader checks), yet the logits are
    // not: W_o o + b_o with every entry near FLT_MAX and o near 1 is +inf for
    // every word, and the log-softmax of all-infinite logits is NaN. The
    // model-file fuzzer found files like this; this one is built on purpose.
    const Model good = english_model(AttentionKind::kAdditive);
    const nlohmann::json reference = to_json(translate(good, "I see the cat.", DecodeOptions{}));
    for (const AttentionKind attention : {AttentionKind::kAdditive, AttentionKind::kNone}) {
        Model damaged = english_model(attention);
        const float huge = std::numeric_limits<float>::max();
        damaged.params.output_hidden_weights.setZero();
        damaged.params.output_hidden_bias.setConstant(100.0f);  // o = tanh(100) = 1
        damaged.params.output_weights.setConstant(huge);
        damaged.params.output_bias.setConstant(huge);
        for (const int beam : {1, 4}) {
            INFO("attention " << int(attention) << ", beam " << beam);
            DecodeOptions options;
            options.beam_size = beam;
            try {
                (void)translate(damaged, "I see the cat.", options);
                FAIL("expected a ModelFileError");
            } catch (const ModelFileError& e) {
                const std::string message = e.what();
                CHECK(message.find("not finite") != std::string::npos);
                CHECK(message.find("download or train it again") != std::string::npos);
            }
            CHECK(to_json(translate(good, "I see the cat.", DecodeOptions{})) == reference);
        }
    }
}

TEST_CASE("a subword model's words: pieces grouped by word, an unseen character kept inside its word") {
    const std::string m(kWordMarker);
    Model model;
    // Pieces "▁lo", "e", "▁i", "." and the single letters; "v" was never seen.
    model.source_tokenizer = TokenizerSettings(
        TokenizerKind::kSubwords, "en",
        std::make_shared<const BpeModel>(std::vector<BpeModel::Merge>{{m, "l"}, {m + "l", "o"}, {m, "i"}}));
    model.target_tokenizer = TokenizerSettings(TokenizerKind::kSubwords, "fr",
                                               std::make_shared<const BpeModel>(std::vector<BpeModel::Merge>{}));
    model.source_vocabulary = Vocabulary::from_tokens({"<pad>", "<unk>", "<bos>", "<eos>", m, "l", "o", "e", "i", ".",
                                                       m + "l", m + "lo", m + "i"});
    model.target_vocabulary = Vocabulary::from_tokens({"<pad>", "<unk>", "<bos>", "<eos>", m, "a", "b"});
    model.config = tiny_config(AttentionKind::kAdditive);
    model.config.source_vocab_size = model.source_vocabulary.size();
    model.config.target_vocab_size = model.target_vocabulary.size();
    model.params = random_parameters(model.config, 3);
    DecodeOptions options;
    options.beam_size = 2;
    const Translation t = translate(model, "I love.", options);
    CHECK(t.source_tokens == std::vector<std::string>{m + "i", m + "lo", "<unk>", "e", ".", "<eos>"});
    REQUIRE(t.source_words.size() == 4);
    CHECK(t.source_words[0].text == "i");
    CHECK(t.source_words[1].text == "love");  // the unknown "v" stays in its word, and in its text
    CHECK(t.source_words[1].start == 1);
    CHECK(t.source_words[1].end == 4);
    CHECK(t.source_words[2].text == ".");
    CHECK(t.source_words[3].text == "<eos>");
    // Each piece's place in the text typed: the unknown "v" is characters [4, 5).
    REQUIRE(t.source_offsets.size() == t.source_tokens.size());
    CHECK(t.source_offsets[2].begin == 4);
    CHECK(t.source_offsets[2].end == 5);
    CHECK(t.source_offsets.back().begin == -1);
    const nlohmann::json json = to_json(t);
    CHECK(json["sourceWords"][1]["text"] == "love");
    CHECK(json["sourceOffsets"] == nlohmann::json::parse("[[0, 1], [2, 4], [4, 5], [5, 6], [6, 7], null]"));
    for (const auto& h : t.hypotheses) {
        int covered = 0;
        for (const WordSpan& w : h.target_words) {
            CHECK(w.start == covered);
            covered = w.end;
        }
        CHECK(covered == static_cast<int>(h.target_tokens.size()));
    }
}

TEST_CASE("to_json hypotheses-only: each field once, the matrices' shapes; with the kept floats it loses nothing") {
    for (AttentionKind attention : {AttentionKind::kAdditive, AttentionKind::kNone}) {
        const Model model = english_model(attention);
        for (const std::string text : {"I see the cat.", "", "the cat sees the dog and the cat"}) {
            for (int beam : {1, 3}) {
                INFO(attention_kind_name(attention) << ", \"" << text << "\", beam " << beam);
                DecodeOptions options;
                options.beam_size = beam;
                const Translation t = translate(model, text, options);
                const nlohmann::json document = to_json(t);
                std::vector<float> packed;
                nlohmann::json compact = to_json(t, TranslationLayout::kHypothesesOnly, &packed);
                // Nothing of the best hypothesis at the top level: it is hypotheses[0].
                for (const char* field : {"text", "targetTokens", "targetWords", "attention", "coverage", "possiblyDropped",
                                          "tokenProbabilities", "wordProbabilities", "unsureWords", "score"}) {
                    CHECK_FALSE(compact.contains(field));
                }
                REQUIRE(compact["hypotheses"].size() == t.hypotheses.size());
                for (size_t k = 0; k < t.hypotheses.size(); ++k) {
                    const AttentionMatrix& m = t.hypotheses[k].attention;
                    CHECK(compact["hypotheses"][k]["attention"] == nlohmann::json::array({m.size(), m.cols()}));
                    CHECK(m.values().size() == m.size() * m.cols());
                    compact["hypotheses"][k]["attention"] = m;  // the rows, from the floats the caller reads
                    for (const char* field : {"coverage", "tokenProbabilities", "wordProbabilities"}) {  // and the packed floats
                        const nlohmann::json place = compact["hypotheses"][k][field];
                        REQUIRE(place[0].get<size_t>() + place[1].get<size_t>() <= packed.size());
                        compact["hypotheses"][k][field] = std::vector<float>(packed.begin() + place[0].get<std::ptrdiff_t>(),
                                                                             packed.begin() + (place[0].get<std::ptrdiff_t>() + place[1].get<std::ptrdiff_t>()));
                    }
                }
                // The document is the compact layout plus the best hypothesis's fields on top.
                nlohmann::json rebuilt = compact;
                const nlohmann::json best = compact["hypotheses"].empty() ? nlohmann::json() : compact["hypotheses"][0];
                rebuilt["text"] = best.is_null() ? nlohmann::json("") : best["text"];
                rebuilt["targetTokens"] = best.is_null() ? nlohmann::json::array() : best["targetTokens"];
                rebuilt["targetWords"] = best.is_null() ? nlohmann::json::array() : best["targetWords"];
                rebuilt["attention"] = best.is_null() ? nlohmann::json::array() : best["attention"];
                rebuilt["coverage"] = best.is_null() ? nlohmann::json::array() : best["coverage"];
                rebuilt["possiblyDropped"] = best.is_null() ? nlohmann::json::array() : best["possiblyDropped"];
                for (const char* field : {"tokenProbabilities", "wordProbabilities", "unsureWords", "copiedWords"}) {
                    rebuilt[field] = best.is_null() ? nlohmann::json::array() : best[field];
                }
                rebuilt["score"] = best.is_null() ? nlohmann::json(0.0) : best["score"];
                CHECK(rebuilt == document);
            }
        }
    }
}

TEST_CASE("on_step: greedy decoding reports each token and attention row as it writes them; beam search reports none") {
    for (AttentionKind attention : {AttentionKind::kAdditive, AttentionKind::kNone}) {
        const Model model = english_model(attention);
        INFO(attention_kind_name(attention));
        std::vector<int> tokens;
        std::vector<std::vector<float>> rows;
        DecodeOptions options;
        options.beam_size = 1;  // greedy reports as it writes
        options.on_step = [&](int token, float, const float* row, int columns) {
            tokens.push_back(token);
            rows.emplace_back(row, row + columns);
        };
        const Translation t = translate(model, "the cat sees the dog", options);
        REQUIRE(t.best() != nullptr);
        REQUIRE(tokens.size() == t.best()->target_tokens.size());
        for (size_t i = 0; i < tokens.size(); ++i) CHECK(model.target_vocabulary.token(tokens[i]) == t.best()->target_tokens[i]);
        if (attention == AttentionKind::kNone) {
            for (const auto& row : rows) CHECK(row.empty());
        } else {
            for (size_t i = 0; i < rows.size(); ++i) CHECK(rows[i] == t.best()->attention[i]);
        }
        tokens.clear();
        options.beam_size = 4;
        (void)translate(model, "the cat sees the dog", options);
        CHECK(tokens.empty());
    }
}

TEST_CASE("the model's doubt: each token's and word's probability, and the unsure words under the threshold") {
    const Model model = english_model(AttentionKind::kAdditive);
    for (const int beam : {1, 4}) {
        INFO("beam " << beam);
        DecodeOptions options;
        options.beam_size = beam;
        const Translation t = translate(model, "I see the cat.", options);
        for (const TranslationHypothesis& h : t.hypotheses) {
            REQUIRE(h.token_probabilities.size() == h.target_tokens.size());
            double log_sum = 0.0;
            for (float p : h.token_probabilities) {
                CHECK(p > 0.0f);
                CHECK(p <= 1.0f);
                log_sum += std::log(double(p));
            }
            CHECK(log_sum == doctest::Approx(h.log_prob).epsilon(1e-5));  // the tokens' log p sum to the hypothesis's
            REQUIRE(h.word_probabilities.size() == h.target_words.size());
            std::vector<int> expected_unsure;
            for (size_t w = 0; w < h.target_words.size(); ++w) {
                double product = 1.0;
                for (int k = h.target_words[w].start; k < h.target_words[w].end; ++k) product *= h.token_probabilities[size_t(k)];
                CHECK(h.word_probabilities[w] == doctest::Approx(product).epsilon(1e-5));
                if (h.word_probabilities[w] < kUnsureWordProbability) expected_unsure.push_back(int(w));
            }
            CHECK(h.unsure_words == expected_unsure);
        }
        const nlohmann::json j = to_json(t);
        CHECK(j["tokenProbabilities"].size() == t.best()->target_tokens.size());
        CHECK(j["unsureWords"] == t.best()->unsure_words);
        CHECK(j["hypotheses"][0]["wordProbabilities"].size() == t.best()->target_words.size());
    }
    // A forced word is the reader's choice, never flagged, however unlikely;
    // the words after it are the model's again.
    DecodeOptions greedy;
    const Translation forced = translate_with_prefix(model, "I see the cat.", {"chien"}, greedy);
    const TranslationHypothesis& h = *forced.best();
    REQUIRE(!h.target_words.empty());
    CHECK(h.target_words[0].text == "chien");
    CHECK((h.unsure_words.empty() || h.unsure_words.front() > 0));
    // An unlikely forced word has a low probability all the same: it is shown, not hidden.
    CHECK(h.word_probabilities[0] == doctest::Approx(h.token_probabilities[0]));
}

namespace {

// A translation of `text` laid out by hand (keep_source_names reads only
// these fields): source tokens and words, one attention row per target
// token pointing at `looks_at[t]`, each target word's probability.
struct HandTranslation {
    Translation translation;
    TranslationHypothesis hypothesis;
};

HandTranslation hand_translation(const std::string& text, const std::vector<std::string>& source_tokens,
                                 const std::vector<WordSpan>& source_words, const std::vector<std::string>& target_tokens,
                                 const std::string& target_text, const std::vector<int>& looks_at,
                                 const std::vector<float>& word_probabilities, bool with_attention = true) {
    HandTranslation out;
    out.translation.source_tokens = source_tokens;
    out.translation.source_words = source_words;
    out.translation.source_offsets = token_ranges(text, source_tokens);
    TranslationHypothesis& h = out.hypothesis;
    h.text = target_text;
    h.target_tokens = target_tokens;
    h.target_words = word_spans(target_tokens, TokenizerSettings{TokenizerKind::kWords, "fr"});
    h.word_probabilities = word_probabilities;
    REQUIRE(h.word_probabilities.size() == h.target_words.size());
    mark_unsure(h, 0);
    if (with_attention) {
        std::vector<std::vector<float>> rows(target_tokens.size(), std::vector<float>(source_tokens.size(), 0.0f));
        for (size_t t = 0; t < target_tokens.size(); ++t) rows[t][size_t(looks_at[t])] = 1.0f;
        h.attention = AttentionMatrix(rows);
    }
    return out;
}

// What translate() does after the search: names kept, then the unsure words marked.
void keep_names(const std::string& text, HandTranslation& t, size_t forced) {
    t.translation.hypotheses = {t.hypothesis};
    keep_source_names(text, forced, t.translation);
    t.hypothesis = t.translation.hypotheses.front();
    t.translation.hypotheses.clear();
    mark_unsure(t.hypothesis, forced);
}

// "Tom met Ngozi in Paris." read as pieces: "ngozi" in two, the rest whole.
const std::string kNamesText = "Tom met Ngozi in Paris.";
const std::vector<std::string> kNamesSource = {"tom", "met", "n", "gozi", "in", "paris", ".", "<eos>"};
const std::vector<WordSpan> kNamesSourceWords = {{"tom", 0, 1}, {"met", 1, 2},   {"ngozi", 2, 4}, {"in", 4, 5},
                                                 {"paris", 5, 6}, {".", 6, 7}, {"<eos>", 7, 8}};
const std::vector<std::string> kNamesTarget = {"tom", "a", "rencontré", "vecteur", "à", "paris", ".", "<eos>"};
const std::vector<int> kNamesLooksAt = {0, 1, 1, 2, 4, 5, 6, 7};

}  // namespace

TEST_CASE("names kept: a name written lowercased is recased, one the model could not translate is copied where attention points") {
    HandTranslation t = hand_translation(kNamesText, kNamesSource, kNamesSourceWords, kNamesTarget,
                                         "Tom a rencontré vecteur à paris.", kNamesLooksAt,
                                         {0.9f, 0.9f, 0.9f, 0.05f, 0.9f, 0.9f, 0.9f, 0.9f});
    keep_names(kNamesText, t, 0);
    const TranslationHypothesis& h = t.hypothesis;
    CHECK(h.text == "Tom a rencontré Ngozi à Paris.");
    REQUIRE(h.target_words.size() == 8);
    CHECK(h.target_words[3].text == "Ngozi");
    CHECK(h.target_words[3].start == 3);  // the pieces the model wrote there
    CHECK(h.target_words[5].text == "Paris");
    CHECK(h.copied_words == std::vector<int>{3});
    CHECK(h.unsure_words.empty());  // a copied word is no guess of the model's
    CHECK(h.target_tokens == kNamesTarget);  // the model's tokens stay
    Translation whole = t.translation;
    whole.hypotheses.push_back(h);
    const nlohmann::json j = to_json(whole);
    CHECK(j["copiedWords"] == nlohmann::json::array({3}));
    CHECK(j["text"] == "Tom a rencontré Ngozi à Paris.");
}

TEST_CASE("names kept: a word the model was sure of stays; without attention only the casing applies; forced words stay") {
    SUBCASE("sure of its word") {
        HandTranslation t = hand_translation(kNamesText, kNamesSource, kNamesSourceWords, kNamesTarget,
                                             "Tom a rencontré vecteur à paris.", kNamesLooksAt,
                                             {0.9f, 0.9f, 0.9f, 0.6f, 0.9f, 0.9f, 0.9f, 0.9f});
        keep_names(kNamesText, t, 0);
        CHECK(t.hypothesis.text == "Tom a rencontré vecteur à Paris.");
        CHECK(t.hypothesis.copied_words.empty());
    }
    SUBCASE("the fixed-context baseline") {
        HandTranslation t = hand_translation(kNamesText, kNamesSource, kNamesSourceWords, kNamesTarget,
                                             "Tom a rencontré vecteur à paris.", kNamesLooksAt,
                                             {0.9f, 0.9f, 0.9f, 0.05f, 0.9f, 0.9f, 0.9f, 0.9f}, false);
        keep_names(kNamesText, t, 0);
        CHECK(t.hypothesis.text == "Tom a rencontré vecteur à Paris.");
        CHECK(t.hypothesis.copied_words.empty());
        CHECK(t.hypothesis.unsure_words == std::vector<int>{3});
    }
    SUBCASE("a forced prefix covering the word") {
        HandTranslation t = hand_translation(kNamesText, kNamesSource, kNamesSourceWords, kNamesTarget,
                                             "Tom a rencontré vecteur à paris.", kNamesLooksAt,
                                             {0.9f, 0.9f, 0.9f, 0.05f, 0.9f, 0.9f, 0.9f, 0.9f});
        keep_names(kNamesText, t, 4);
        CHECK(t.hypothesis.text == "Tom a rencontré vecteur à Paris.");
        CHECK(t.hypothesis.copied_words.empty());
        CHECK(t.hypothesis.unsure_words.empty());  // the forced words are the reader's
    }
    SUBCASE("the name already written: only recased") {
        HandTranslation t = hand_translation(kNamesText, kNamesSource, kNamesSourceWords,
                                             {"tom", "a", "rencontré", "ngozi", "à", "paris", ".", "<eos>"},
                                             "Tom a rencontré ngozi à paris.", kNamesLooksAt,
                                             {0.9f, 0.9f, 0.9f, 0.05f, 0.9f, 0.9f, 0.9f, 0.9f});
        keep_names(kNamesText, t, 0);
        CHECK(t.hypothesis.text == "Tom a rencontré Ngozi à Paris.");
        CHECK(t.hypothesis.copied_words.empty());
    }
}

TEST_CASE("names kept: the first word is a name only before another; a number is copied; a run's sure ends stay") {
    // "Barack Obama won 3 games." -> "la bar acodeur a gagné trois jeux ."
    const std::string text = "Barack Obama won 3 games.";
    const std::vector<std::string> source = {"bar", "ack", "ob", "ama", "won", "3", "games", ".", "<eos>"};
    const std::vector<WordSpan> words = {{"barack", 0, 2}, {"obama", 2, 4}, {"won", 4, 5}, {"3", 5, 6},
                                         {"games", 6, 7},  {".", 7, 8},     {"<eos>", 8, 9}};
    const std::vector<std::string> target = {"la", "bar", "acodeur", "a", "gagné", "trois", "jeux", ".", "<eos>"};
    HandTranslation t = hand_translation(text, source, words, target, "La bar acodeur a gagné trois jeux.",
                                         {0, 1, 2, 3, 4, 5, 6, 7, 8}, {0.2f, 0.3f, 0.01f, 0.9f, 0.9f, 0.1f, 0.9f, 0.9f, 0.9f});
    keep_names(text, t, 0);
    CHECK(t.hypothesis.text == "Barack Obama a gagné 3 jeux.");
    CHECK(t.hypothesis.copied_words == std::vector<int>{0, 3});
    // "The" before a name is an opener, never part of it; "Games" alone at
    // the start is a word of one piece.
    const std::string text2 = "The Transformer won.";
    HandTranslation u = hand_translation(text2, {"the", "trans", "former", "won", ".", "<eos>"},
                                         {{"the", 0, 1}, {"transformer", 1, 3}, {"won", 3, 4}, {".", 4, 5}, {"<eos>", 5, 6}},
                                         {"le", "vecteur", "a", "gagné", ".", "<eos>"}, "Le vecteur a gagné.",
                                         {0, 1, 3, 3, 4, 5}, {0.9f, 0.05f, 0.9f, 0.9f, 0.9f, 0.9f});
    keep_names(text2, u, 0);
    CHECK(u.hypothesis.text == "Le Transformer a gagné.");
    CHECK(u.hypothesis.copied_words == std::vector<int>{1});
}

TEST_CASE("translate_sentences: each sentence as translated alone, its byte and UTF-16 ranges") {
    const Model model = english_model(AttentionKind::kAdditive);
    // U+1F600 is 4 bytes of UTF-8 and 2 code units of UTF-16; U+00E9 2 and 1.
    const std::string text = "\xF0\x9F\x98\x80 I see the cat. Caf\xC3\xA9 sees a dog!  The dog";
    DecodeOptions options;
    options.beam_size = 2;
    options.trace = true;
    const std::vector<SentenceTranslation> sentences = translate_sentences(model, text, options);
    REQUIRE(sentences.size() == 3);
    const int begins[] = {0, 18, 36};
    const int ends[] = {17, 34, 43};
    for (size_t s = 0; s < sentences.size(); ++s) {
        INFO("sentence " << s);
        const SentenceTranslation& sentence = sentences[s];
        CHECK(sentence.utf16.begin == begins[s]);
        CHECK(sentence.utf16.end == ends[s]);
        const Translation alone = translate(model, text.substr(sentence.begin, sentence.end - sentence.begin), options);
        CHECK(to_json(sentence.translation) == to_json(alone));
        CHECK(sentence.translation.trace.has_value());
        CHECK(sentence.packed_numbers.empty());  // what to_json packs, for the WebAssembly modules
    }
    CHECK(text.substr(sentences[1].begin, sentences[1].end - sentences[1].begin) == "Caf\xC3\xA9 sees a dog!");
    CHECK(translate_sentences(model, "   ", options).empty());
}
