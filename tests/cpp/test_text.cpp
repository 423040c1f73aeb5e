// UTF-8 helpers, tokenizer/detokenizer and vocabulary.
#include <doctest/doctest.h>

#include "common/error.h"
#include "text/tokenizer.h"
#include "text/utf8.h"
#include "text/vocabulary.h"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using s2s::TokenizerKind;
using s2s::TokenizerSettings;
using s2s::Vocabulary;
using Tokens = std::vector<std::string>;

namespace {

const TokenizerSettings kEnglish{TokenizerKind::kWords, "en"};
const TokenizerSettings kFrench{TokenizerKind::kWords, "fr"};
const TokenizerSettings kChinese{TokenizerKind::kCharacters, "zh"};

Tokens words(const std::string& text) { return s2s::tokenize(text, kEnglish); }

// Random bytes biased towards UTF-8 lead/continuation bytes, tabs, spaces,
// NULs and the marks the tokenizer splits, so that the odd cases show up.
std::string random_bytes(std::mt19937& rng, size_t length) {
    static const unsigned char kInteresting[] = {0x00, 0x09, 0x0A, 0x0D, 0x20, '.', ',', '!', '?', '\'', 'a', 'Z',
                                                 '3',  0x80, 0xBF, 0xC0, 0xC2, 0xC3, 0xE0, 0xE2, 0xED, 0xEF, 0xF0,
                                                 0xF4, 0xF5, 0xFF, 0xA0, 0x80, 0xAF};
    std::string out;
    for (size_t i = 0; i < length; ++i) {
        if (rng() % 2 == 0) {
            out.push_back(static_cast<char>(kInteresting[rng() % sizeof kInteresting]));
        } else {
            out.push_back(static_cast<char>(rng() % 256));
        }
    }
    return out;
}

template <typename F>
std::string message_of(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "<no exception>";
}

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

}  // namespace

// ---------------------------------------------------------------- UTF-8

TEST_CASE("is_valid_utf8 accepts well-formed text and rejects the classic malformations") {
    CHECK(s2s::is_valid_utf8(""));
    CHECK(s2s::is_valid_utf8("plain ASCII"));
    CHECK(s2s::is_valid_utf8("Ça va ? 我很好。😀"));
    CHECK(s2s::is_valid_utf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF, the last code point

    CHECK_FALSE(s2s::is_valid_utf8("\x80"));                  // lone continuation byte
    CHECK_FALSE(s2s::is_valid_utf8("\xC0\xAF"));              // overlong '/'
    CHECK_FALSE(s2s::is_valid_utf8("\xE0\x80\xAF"));          // overlong, 3 bytes
    CHECK_FALSE(s2s::is_valid_utf8("\xED\xA0\x80"));          // surrogate U+D800
    CHECK_FALSE(s2s::is_valid_utf8("\xF4\x90\x80\x80"));      // above U+10FFFF
    CHECK_FALSE(s2s::is_valid_utf8("\xE6\x88"));              // truncated 我
    CHECK_FALSE(s2s::is_valid_utf8("\xFF"));
    CHECK_FALSE(s2s::is_valid_utf8("abc\xC3"));               // truncated at the end
}

TEST_CASE("sanitize_utf8 replaces invalid sequences with U+FFFD and drops NUL") {
    CHECK(s2s::sanitize_utf8("a\xFF" "b") == "a\xEF\xBF\xBD" "b");
    // A truncated sequence is one maximal invalid subpart: one replacement,
    // and the valid character after it survives.
    CHECK(s2s::sanitize_utf8("\xE6\x88x") == "\xEF\xBF\xBDx");
    CHECK(s2s::sanitize_utf8("\xE6\x88\xE6\x88\x91") == "\xEF\xBF\xBD我");
    CHECK(s2s::sanitize_utf8(std::string("a\0b", 3)) == "ab");
    CHECK(s2s::sanitize_utf8("déjà vu 😀") == "déjà vu 😀");  // valid text unchanged

    std::mt19937 rng(42);
    for (int i = 0; i < 2000; ++i) {
        const std::string clean = s2s::sanitize_utf8(random_bytes(rng, rng() % 40));
        REQUIRE(s2s::is_valid_utf8(clean));
        REQUIRE(clean.find('\0') == std::string::npos);
        REQUIRE(s2s::sanitize_utf8(clean) == clean);
    }
}

TEST_CASE("decode_utf8, encode_utf8 and split_characters agree") {
    const std::string text = "aé我😀";
    const std::vector<char32_t> cps = s2s::decode_utf8(text);
    CHECK(cps == std::vector<char32_t>{U'a', U'é', U'我', U'😀'});
    std::string back;
    for (char32_t cp : cps) back += s2s::encode_utf8(cp);
    CHECK(back == text);
    CHECK(s2s::split_characters(text) == Tokens{"a", "é", "我", "😀"});
    CHECK(s2s::encode_utf8(0xD800) == "\xEF\xBF\xBD");
    CHECK(s2s::encode_utf8(0x110000) == "\xEF\xBF\xBD");
    // Untrusted bytes still never produce a split character.
    for (const std::string& piece : s2s::split_characters("x\xE6\x88")) CHECK(s2s::is_valid_utf8(piece));
}

TEST_CASE("to_lower_utf8 covers Latin, Greek and Cyrillic and leaves the rest alone") {
    CHECK(s2s::to_lower_utf8("HELLO World") == "hello world");
    CHECK(s2s::to_lower_utf8("ÉTÉ À PARIS") == "été à paris");
    CHECK(s2s::to_lower_utf8("ÀÂÇÈÉÊËÎÏÔÙÛÜŸŒÆ") == "àâçèéêëîïôùûüÿœæ");
    CHECK(s2s::to_lower_utf8("ŁÓDŹ ŞİŠ") == "łódź şiš");
    CHECK(s2s::to_lower_utf8("ΑΘΗΝΑ Άλφα ΣΟΦΙΑ") == "αθηνα άλφα σοφια");
    CHECK(s2s::to_lower_utf8("ПРИВЕТ Ёж ЇЖАК") == "привет ёж їжак");
    CHECK(s2s::to_lower_utf8("× ß 我很好 😀") == "× ß 我很好 😀");
}

// ---------------------------------------------------------------- tokenizer

TEST_CASE("word tokenizer reproduces d2l's Tatoeba preprocessing") {
    CHECK(words("Go.") == Tokens{"go", "."});
    CHECK(words("J'ai perdu.") == Tokens{"j'ai", "perdu", "."});
    CHECK(words("I'm home.") == Tokens{"i'm", "home", "."});
    CHECK(words("Don't move!") == Tokens{"don't", "move", "!"});
    CHECK(words("Who?") == Tokens{"who", "?"});
    CHECK(words("Va !") == Tokens{"va", "!"});
    CHECK(words("Hi, Tom.") == Tokens{"hi", ",", "tom", "."});
}

TEST_CASE("word tokenizer: non-breaking spaces, curly apostrophes and French accents") {
    CHECK(words("Courez\u202f!") == Tokens{"courez", "!"});
    CHECK(words("Attendez\u00a0!") == Tokens{"attendez", "!"});
    CHECK(words("J\u2019ai gagné\u202f!") == Tokens{"j'ai", "gagné", "!"});
    CHECK(words("ÇA SUFFIT ! Élève") == Tokens{"ça", "suffit", "!", "élève"});
    CHECK(words("Êtes-vous prêts ?") == Tokens{"êtes-vous", "prêts", "?"});
}

TEST_CASE("word tokenizer splits , . ! ? everywhere except a decimal point") {
    CHECK(words("go.now") == Tokens{"go", ".", "now"});
    CHECK(words("Hi,Tom!Bye?") == Tokens{"hi", ",", "tom", "!", "bye", "?"});
    CHECK(words("Wait...") == Tokens{"wait", ".", ".", "."});
    CHECK(words("What?!") == Tokens{"what", "?", "!"});
    CHECK(words("It costs 3.50.") == Tokens{"it", "costs", "3.50", "."});
    CHECK(words("3. Go") == Tokens{"3", ".", "go"});
    CHECK(words(".5 and 5.") == Tokens{".", "5", "and", "5", "."});
    CHECK(words("1,000") == Tokens{"1", ",", "000"});
}

TEST_CASE("word tokenizer: whitespace runs separate tokens and no token is ever empty") {
    CHECK(words("  a\t b\r\n  c  ") == Tokens{"a", "b", "c"});
    CHECK(words("").empty());
    CHECK(words(" \t\r\n ").empty());
    CHECK(words("!!") == Tokens{"!", "!"});

    std::mt19937 rng(7);
    for (int i = 0; i < 2000; ++i) {
        const std::string text = random_bytes(rng, rng() % 40);
        for (const auto* settings : {&kEnglish, &kChinese}) {
            for (const std::string& token : s2s::tokenize(text, *settings)) {
                REQUIRE_FALSE(token.empty());
                REQUIRE(s2s::is_valid_utf8(token));
                REQUIRE(token.find_first_of(std::string(" \t\r\n\0", 5)) == std::string::npos);
                if (settings == &kChinese) REQUIRE(s2s::decode_utf8(token).size() == 1);
            }
        }
    }
}

TEST_CASE("tokenizer sanitizes invalid UTF-8 and NUL instead of failing") {
    const Tokens tokens = words(std::string("caf\xC3 \xFF ok\0ay.", 13));
    CHECK(tokens == Tokens{"caf\xEF\xBF\xBD", "\xEF\xBF\xBD", "okay", "."});
}

TEST_CASE("emoji and CJK characters are never split") {
    CHECK(words("I ❤ 😀 東京!") == Tokens{"i", "❤", "😀", "東京", "!"});
    CHECK(s2s::tokenize("😀👍", kChinese) == Tokens{"😀", "👍"});
}

TEST_CASE("character tokenizer: each non-whitespace code point is a token") {
    CHECK(s2s::tokenize("我很好。", kChinese) == Tokens{"我", "很", "好", "。"});
    CHECK(s2s::tokenize("Tom 很好！", kChinese) == Tokens{"t", "o", "m", "很", "好", "！"});
    CHECK(s2s::tokenize(" \t", kChinese).empty());
}

TEST_CASE("detokenize joins words with the language's typography") {
    CHECK(s2s::detokenize({}, kEnglish).empty());
    CHECK(s2s::detokenize({"go", "."}, kEnglish) == "Go.");
    CHECK(s2s::detokenize({"hello", ",", "tom", "!"}, kEnglish) == "Hello, tom!");
    CHECK(s2s::detokenize({"what", "?", "!"}, kEnglish) == "What?!");
    CHECK(s2s::detokenize({"va", "!"}, kFrench) == "Va !");
    CHECK(s2s::detokenize({"quoi", "?", "!"}, kFrench) == "Quoi ?!");
    CHECK(s2s::detokenize({"oui", ",", "d'accord", "."}, kFrench) == "Oui, d'accord.");
    CHECK(s2s::detokenize({"«", "bonjour", "»"}, kFrench) == "« Bonjour »");
    CHECK(s2s::detokenize({"<unk>", "est", "là", "."}, kFrench) == "<unk> est là.");
    CHECK(s2s::detokenize({"je", "vois", "<unk>", "."}, kFrench) == "Je vois <unk>.");
    CHECK(s2s::detokenize({"我", "很", "好", "。"}, kChinese) == "我很好。");
    CHECK(s2s::detokenize({"t", "o", "m", "很", "好"}, kChinese) == "Tom很好");
    CHECK(s2s::detokenize({"我", "<unk>", "。"}, kChinese) == "我<unk>。");
    CHECK(s2s::detokenize({"hello", "world"}, kChinese) == "Hello world");  // whole Latin words keep a space
}

TEST_CASE("detokenize takes any token sequence a model can write, including punctuation first") {
    // A model's output is arbitrary: a leading ! or ? once read before the
    // first token.
    for (const auto& settings : {kEnglish, kFrench, kChinese}) {
        CHECK(s2s::detokenize({"?"}, settings) == "?");
        CHECK(s2s::detokenize({"!", "bonjour"}, settings).rfind("!", 0) == 0);
        CHECK(s2s::detokenize({".", ",", "?", "!"}, settings).size() >= 4);
    }
}

TEST_CASE("detokenize(tokenize(x)) gives x back for canonical sentences") {
    for (const char* s : {"Go.", "I'm home.", "Wait!", "Really?", "It costs 3.50.", "Hi, there."}) {
        CHECK(s2s::detokenize(s2s::tokenize(s, kEnglish), kEnglish) == s);
    }
    for (const char* s : {"Va !", "J'ai perdu.", "Êtes-vous prêts ?", "Ça alors !", "Où es-tu ?"}) {
        CHECK(s2s::detokenize(s2s::tokenize(s, kFrench), kFrench) == s);
    }
    for (const char* s : {"我很好。", "你好吗？", "汤姆在哪里？"}) {
        CHECK(s2s::detokenize(s2s::tokenize(s, kChinese), kChinese) == s);
    }
    // Tatoeba's narrow no-break space comes back as an ordinary space.
    CHECK(s2s::detokenize(s2s::tokenize("Courez\u202f!", kFrench), kFrench) == "Courez !");
}

TEST_CASE("detokenize capitalizes every letter that to_lower_utf8 lowercases") {
    const std::vector<std::pair<char32_t, char32_t>> ranges = {
        {0x41, 0x5A}, {0xC0, 0xDE}, {0x100, 0x17F}, {0x370, 0x3FF}, {0x400, 0x52F}};
    int checked = 0;
    for (const auto& range : ranges) {
        for (char32_t cp = range.first; cp <= range.second; ++cp) {
            const std::string upper = s2s::encode_utf8(cp);
            const std::string lower = s2s::to_lower_utf8(upper);
            // İ and ϴ lowercase to i and θ, whose capitals are I and Θ.
            if (lower == upper || cp == 0x130 || cp == 0x3F4) continue;
            INFO("U+" << std::hex << static_cast<unsigned>(cp));
            CHECK(s2s::detokenize({lower}, kEnglish) == upper);
            ++checked;
        }
    }
    CHECK(checked > 300);
    CHECK(s2s::detokenize({"привет", "!"}, kEnglish) == "Привет!");
    CHECK(s2s::detokenize({"ς"}, kEnglish) == "Σ");
}

TEST_CASE("is_punctuation_token and count_words") {
    for (const char* p : {",", ".", "!", "?", "...", "«", "»", "…", "。", "，", "！", "？", "、", "“", "”", "‘", "’",
                          "–", "—", "¿", "¡", "\"", "(", ")", ":", ";"}) {
        INFO(p);
        CHECK(s2s::is_punctuation_token(p));
    }
    for (const char* w : {"", "a", "j'ai", "3.5", "<unk>", "我", "😀", "-5"}) {
        INFO(w);
        CHECK_FALSE(s2s::is_punctuation_token(w));
    }
    CHECK(s2s::count_words(words("J'ai perdu.")) == 2);
    CHECK(s2s::count_words(words("Wait... what?!")) == 2);
    CHECK(s2s::count_words(s2s::tokenize("我很好。", kChinese)) == 3);
    CHECK(s2s::count_words({}) == 0);
}

TEST_CASE("tokenizer settings JSON round trip and validation") {
    for (const TokenizerSettings& s : {kEnglish, kFrench, kChinese}) {
        const nlohmann::json json = s2s::to_json(s);
        const TokenizerSettings back = s2s::tokenizer_settings_from_json(json);
        CHECK(back.kind == s.kind);
        CHECK(back.language == s.language);
    }
    CHECK(s2s::to_json(kEnglish) == nlohmann::json{{"kind", "words"}, {"language", "en"}});
    CHECK(s2s::to_json(kChinese) == nlohmann::json{{"kind", "characters"}, {"language", "zh"}});

    const auto fails_naming = [](const nlohmann::json& json, const std::string& field) {
        const std::string message = message_of([&] { s2s::tokenizer_settings_from_json(json); });
        INFO(message);
        CHECK_THROWS_AS(s2s::tokenizer_settings_from_json(json), s2s::ModelFileError);
        CHECK(contains(message, field));
    };
    fails_naming(nlohmann::json::array(), "JSON object");
    fails_naming(nlohmann::json{{"language", "en"}}, "\"kind\"");
    fails_naming(nlohmann::json{{"kind", "bytes"}, {"language", "en"}}, "\"kind\"");
    fails_naming(nlohmann::json{{"kind", 3}, {"language", "en"}}, "\"kind\"");
    fails_naming(nlohmann::json{{"kind", "words"}}, "\"language\"");
    fails_naming(nlohmann::json{{"kind", "words"}, {"language", 5}}, "\"language\"");
    fails_naming(nlohmann::json{{"kind", "words"}, {"language", ""}}, "\"language\"");
}

// ---------------------------------------------------------------- vocabulary

TEST_CASE("a new vocabulary holds the four special tokens at fixed ids") {
    const Vocabulary v;
    CHECK(v.size() == 4);
    CHECK(v.tokens() == Tokens{"<pad>", "<unk>", "<bos>", "<eos>"});
    CHECK(v.id("<pad>") == Vocabulary::kPad);
    CHECK(v.id("<unk>") == Vocabulary::kUnk);
    CHECK(v.id("<bos>") == Vocabulary::kBos);
    CHECK(v.id("<eos>") == Vocabulary::kEos);
    CHECK(v.id("chat") == Vocabulary::kUnk);
}

TEST_CASE("Vocabulary::build: min frequency, ordering and max size") {
    const std::vector<Tokens> sentences = {{"b", "a", "a"}, {"c", "a", "b"}, {"d"}, {"Z", "é"}};
    const Vocabulary all = Vocabulary::build(sentences, 1);
    // Counts a:3 b:2, then the ones in byte order: "Z" < "c" < "d" < "é".
    CHECK(all.tokens() == Tokens{"<pad>", "<unk>", "<bos>", "<eos>", "a", "b", "Z", "c", "d", "é"});
    CHECK(Vocabulary::build(sentences, 0).tokens() == all.tokens());
    CHECK(Vocabulary::build(sentences, 2).tokens() == Tokens{"<pad>", "<unk>", "<bos>", "<eos>", "a", "b"});
    CHECK(Vocabulary::build(sentences, 4).size() == 4);
    CHECK(Vocabulary::build(sentences, 1, 5).tokens() == Tokens{"<pad>", "<unk>", "<bos>", "<eos>", "a"});
    CHECK(Vocabulary::build(sentences, 1, 4).size() == 4);
    CHECK(Vocabulary::build(sentences, 1, 100).tokens() == all.tokens());
    CHECK(Vocabulary::build({}, 1).size() == 4);

    CHECK_THROWS_AS(Vocabulary::build(sentences, 1, 3), s2s::UsageError);
    CHECK_THROWS_AS(Vocabulary::build(sentences, 1, -1), s2s::UsageError);
    CHECK_THROWS_AS(Vocabulary::build(sentences, -1), s2s::UsageError);
}

TEST_CASE("Vocabulary::build does not depend on the order of its input") {
    std::vector<Tokens> sentences;
    std::mt19937 rng(3);
    for (int i = 0; i < 200; ++i) {
        Tokens sentence;
        for (int j = 0; j < 6; ++j) sentence.push_back("w" + std::to_string(rng() % 50));
        sentences.push_back(sentence);
    }
    const Vocabulary reference = Vocabulary::build(sentences, 2, 30);
    for (int round = 0; round < 5; ++round) {
        std::shuffle(sentences.begin(), sentences.end(), rng);
        for (Tokens& s : sentences) std::shuffle(s.begin(), s.end(), rng);
        CHECK(Vocabulary::build(sentences, 2, 30).tokens() == reference.tokens());
    }
}

TEST_CASE("Vocabulary::build never adds a special token twice, nor an empty one") {
    const Vocabulary v = Vocabulary::build({{"<unk>", "<eos>", "x", "", "<pad>", "<bos>"}}, 1);
    CHECK(v.tokens() == Tokens{"<pad>", "<unk>", "<bos>", "<eos>", "x"});
}

TEST_CASE("Vocabulary lookups") {
    const Vocabulary v = Vocabulary::build({{"le", "chat", "le"}}, 1);
    CHECK(v.id("le") == 4);
    CHECK(v.id("chat") == 5);
    CHECK(v.token(5) == "chat");
    CHECK(v.encode({"le", "chien", "chat", "<eos>"}) == std::vector<int>{4, Vocabulary::kUnk, 5, Vocabulary::kEos});
    CHECK_THROWS_AS(v.token(-1), std::out_of_range);
    CHECK_THROWS_AS(v.token(v.size()), std::out_of_range);
}

TEST_CASE("Vocabulary: a token looked up from two halves, and an index over many tokens") {
    // Long tokens (beyond the index's 64-byte stack buffer), empty halves,
    // multi-byte UTF-8 and thousands of entries (the table grows and probes).
    std::vector<std::string> tokens = {"<pad>", "<unk>", "<bos>", "<eos>"};
    const std::string long_token(100, 'x');
    tokens.push_back(long_token);
    tokens.push_back("\xE2\x96\x81" "apprentissage");  // "▁apprentissage"
    for (int i = 0; i < 5000; ++i) tokens.push_back("p" + std::to_string(i));
    const Vocabulary v = Vocabulary::from_tokens(tokens);
    for (size_t i = 0; i < tokens.size(); ++i) {
        if (i == static_cast<size_t>(Vocabulary::kUnk)) continue;
        CAPTURE(i);
        REQUIRE(v.id(tokens[i]) == static_cast<int>(i));
        const std::string& t = tokens[i];
        for (size_t cut : {size_t{0}, t.size() / 2, t.size()}) {
            CHECK(v.id(std::string_view(t).substr(0, cut), std::string_view(t).substr(cut)) == static_cast<int>(i));
        }
    }
    CHECK(v.id(long_token.substr(0, 60), long_token.substr(60)) == 4);
    CHECK(v.id("\xE2\x96\x81", "apprentissage") == 5);
    CHECK(v.id("p12", "3") == v.id("p123"));
    CHECK(v.id("p", "") == Vocabulary::kUnk);
    CHECK(v.id(long_token, "x") == Vocabulary::kUnk);
    CHECK(v.id("", "") == Vocabulary::kUnk);
    // Copies keep a working index.
    const Vocabulary copy = v;
    CHECK(copy.id("p4999") == v.size() - 1);
}

TEST_CASE("Vocabulary JSON round trip") {
    const Vocabulary v = Vocabulary::build({{"été", "我", "😀", "j'ai", "été"}}, 1);
    const nlohmann::json json = v.to_json();
    CHECK(json.is_array());
    CHECK(json.size() == static_cast<size_t>(v.size()));
    const Vocabulary back = Vocabulary::from_json(nlohmann::json::parse(json.dump()));
    CHECK(back.tokens() == v.tokens());
    for (const std::string& t : v.tokens()) CHECK(back.id(t) == v.id(t));
}

TEST_CASE("Vocabulary::from_tokens / from_json reject damaged vocabularies, naming the problem") {
    const Tokens specials = {"<pad>", "<unk>", "<bos>", "<eos>"};
    const auto rejects = [](const nlohmann::json& json, const std::string& expected) {
        const std::string message = message_of([&] { Vocabulary::from_json(json); });
        INFO(message);
        CHECK_THROWS_AS(Vocabulary::from_json(json), s2s::ModelFileError);
        CHECK(contains(message, expected));
    };

    CHECK(Vocabulary::from_tokens(specials).size() == 4);
    rejects(nlohmann::json::object(), "JSON array");
    rejects(nlohmann::json{"<pad>", "<unk>", "<bos>", "<eos>", 5}, "vocabulary entry 4 is a number");
    rejects(nlohmann::json{"<pad>", "<unk>", "<bos>"}, "only 3 entries");
    rejects(nlohmann::json::array(), "only 0 entries");
    rejects(nlohmann::json{"<unk>", "<pad>", "<bos>", "<eos>"}, "vocabulary entry 0 is \"<unk>\" but must be \"<pad>\"");
    rejects(nlohmann::json{"<pad>", "<unk>", "<bos>", "</s>"}, "vocabulary entry 3");
    rejects(nlohmann::json{"<pad>", "<unk>", "<bos>", "<eos>", "le", ""}, "vocabulary entry 5 is an empty token");
    rejects(nlohmann::json{"<pad>", "<unk>", "<bos>", "<eos>", "le", "chien", "chat", "le", "x", "y", "z", "u", "v",
                           "w", "a", "b", "c", "chat"},
            "vocabulary entry 7 duplicates \"le\"");
    rejects(nlohmann::json{"<pad>", "<unk>", "<bos>", "<eos>", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k",
                           "l", "chat", "chat"},
            "vocabulary entry 17 duplicates \"chat\"");
    rejects(nlohmann::json{"<pad>", "<unk>", "<bos>", "<eos>", "<unk>"}, "vocabulary entry 4 duplicates \"<unk>\"");

    const std::string bad_utf8 = message_of([] {
        Vocabulary::from_tokens({"<pad>", "<unk>", "<bos>", "<eos>", "caf\xC3"});
    });
    CHECK(contains(bad_utf8, "vocabulary entry 4"));
    CHECK(contains(bad_utf8, "UTF-8"));
    CHECK_THROWS_AS(Vocabulary::from_tokens({"<pad>", "<unk>", "<bos>", "<eos>", "caf\xC3"}), s2s::ModelFileError);
}
