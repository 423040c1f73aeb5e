// Subword pieces (src/text/bpe.h): normalization, pre-tokens, learning,
// encoding, exact decoding over the whole training data, and word spans.
#include "common/error.h"
#include "text/bpe.h"
#include "text/bpe_learn.h"
#include "corpus/parallel_corpus.h"
#include "text/tokenizer.h"
#include "text/utf8.h"
#include "text/vocabulary.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

using s2s::BpeModel;
using s2s::learn_bpe;
using Pieces = std::vector<std::string>;

namespace {

std::vector<std::string> pre_token_texts(const std::string& text, const std::string& language) {
    const std::string normalized = s2s::normalize_text(text);
    std::vector<std::string> out;
    for (const s2s::PreToken& t : s2s::pre_tokenize(normalized, language)) out.push_back(s2s::pre_token_text(normalized, t));
    return out;
}

std::string data_file(const char* name) {
    const std::string path = std::string(S2S_SOURCE_DIR) + "/../shared/data/" + name;
    REQUIRE_MESSAGE(std::filesystem::exists(path), "the training data must be beside the checkout: " << path);
    return path;
}

}  // namespace

TEST_CASE("normalize_text lowercases, unifies apostrophes and spaces, and never keeps the marker") {
    CHECK(s2s::normalize_text("  Hello,\u202F  World !\t") == "hello, world !");
    CHECK(s2s::normalize_text("J\u2019ai faim.") == "j'ai faim.");
    CHECK(s2s::normalize_text("a\u2581b") == "a_b");
    CHECK(s2s::normalize_text("").empty());
    CHECK(s2s::normalize_text("\xFF") == "\xEF\xBF\xBD");  // invalid UTF-8 is repaired
}

TEST_CASE("pre-tokens: punctuation apart, numbers and inner apostrophes kept, French elisions split") {
    const std::string m(s2s::kWordMarker);
    CHECK(pre_token_texts("I love deep learning.", "en") == Pieces{m + "i", m + "love", m + "deep", m + "learning", "."});
    CHECK(pre_token_texts("Don't pay 3.50, it's 3,50!", "en") ==
          Pieces{m + "don't", m + "pay", m + "3.50", ",", m + "it's", m + "3,50", "!"});
    CHECK(pre_token_texts("J'adore l'apprentissage profond.", "fr") ==
          Pieces{m + "j'", "adore", m + "l'", "apprentissage", m + "profond", "."});
    CHECK(pre_token_texts("Qu'il vienne jusqu'ici aujourd'hui !", "fr") ==
          Pieces{m + "qu'", "il", m + "vienne", m + "jusqu'", "ici", m + "aujourd'hui", m + "!"});
    // English keeps "l'" forms whole: only French splits them.
    CHECK(pre_token_texts("l'amour", "en") == Pieces{m + "l'amour"});
    CHECK(pre_token_texts("« Va-t'en ! »", "fr") == Pieces{m + "«", m + "va", "-", "t'", "en", m + "!", m + "»"});
    CHECK(pre_token_texts("'quoted'", "en") == Pieces{m + "'", "quoted", "'"});
    // Chinese: a run of characters is one pre-token (no spaces to find words by);
    // in other languages each CJK character stands alone.
    CHECK(pre_token_texts("我爱Tom。他很好", "zh") == Pieces{m + "我爱tom", "。", "他很好"});
    CHECK(pre_token_texts("I met 王 today", "en") == Pieces{m + "i", m + "met", m + "王", m + "today"});
}

TEST_CASE("BPE learns the most frequent pair first, deterministically, and stops at the size") {
    const std::unordered_map<std::string, long> counts{{"low", 5}, {"lower", 2}, {"newest", 6}, {"widest", 3}};
    Pieces pieces;
    const BpeModel model = learn_bpe(counts, 100, &pieces);
    REQUIRE(!model.merges().empty());
    // "es" (9 times: newest 6 + widest 3) and "st" (9) tie; "e s" comes first in byte order.
    CHECK(model.merges()[0].left == "e");
    CHECK(model.merges()[0].right == "s");
    CHECK(model.encode_pre_token("newest") == Pieces{"newest"});
    CHECK(model.encode_pre_token("lowest") == Pieces{"low", "est"});
    // Alphabet first, most frequent first; every merge's result is a piece.
    CHECK(pieces.front() == "e");
    const std::set<std::string> all(pieces.begin(), pieces.end());
    for (const auto& merge : model.merges()) CHECK(all.count(merge.left + merge.right) == 1);
    // Same input, same result (no dependence on hash order).
    CHECK(learn_bpe(counts, 100).merges().size() == model.merges().size());

    Pieces small;
    learn_bpe(counts, 12, &small);
    CHECK(small.size() == 12);
    // A pair seen once is never merged: "wi" occurs in widest (3) only via... counts < 2 stop the learning.
    Pieces single;
    const BpeModel once = learn_bpe({{"ab", 1}}, 100, &single);
    CHECK(once.merges().empty());
    CHECK(single == Pieces{"a", "b"});
}

TEST_CASE("BPE's rank index is built on the first encode: copies agree, a moved-from model has no merges, threads agree") {
    const std::unordered_map<std::string, long> counts{{"low", 5}, {"lower", 2}, {"newest", 6}, {"widest", 3}};
    const BpeModel learned = learn_bpe(counts, 100);
    const Pieces expected = learned.encode_pre_token("lowest");
    REQUIRE(expected == Pieces{"low", "est"});
    {
        BpeModel fresh(learned.merges());
        const BpeModel copy = fresh;  // before either has encoded
        CHECK(copy.encode_pre_token("lowest") == expected);
        CHECK(fresh.encode_pre_token("lowest") == expected);
        BpeModel moved = std::move(fresh);
        CHECK(moved.encode_pre_token("lowest") == expected);
        CHECK(fresh.merges().empty());                                     // NOLINT(bugprone-use-after-move): checked on purpose
        CHECK(fresh.encode_pre_token("lowest") == Pieces{"l", "o", "w", "e", "s", "t"});  // NOLINT(bugprone-use-after-move)
        BpeModel assigned;
        assigned = std::move(moved);
        CHECK(assigned.encode_pre_token("newest") == Pieces{"newest"});
    }
    // Two threads encoding with a model that has not built its index yet.
    const BpeModel shared(learned.merges());
    Pieces first, second;
    std::thread a([&] { first = shared.encode_pre_token("lowest"); });
    std::thread b([&] { second = shared.encode_pre_token("lowest"); });
    a.join();
    b.join();
    CHECK(first == expected);
    CHECK(second == expected);
}

TEST_CASE("BPE-dropout: 0 is plain encoding, 1 gives characters, between: other pieces of the same text, by the seed") {
    const std::unordered_map<std::string, long> counts{{"low", 5}, {"lower", 2}, {"newest", 6}, {"widest", 3}};
    const BpeModel model = learn_bpe(counts, 100);
    s2s::Random random(1);
    CHECK(model.encode_pre_token("lowest", 0.0f, random) == model.encode_pre_token("lowest"));
    CHECK(random.next() == s2s::Random(1).next());  // dropout 0 draws nothing
    CHECK(model.encode_pre_token("lowest", 1.0f, random) == Pieces{"l", "o", "w", "e", "s", "t"});
    // At 0.5, over 200 draws: several segmentations, every one spelling the
    // word with pieces the model has (characters or merge results), the
    // whole word among them; the same seed gives the same pieces.
    std::set<std::string> known{"l", "o", "w", "e", "r", "n", "s", "t", "i", "d"};
    for (const auto& merge : model.merges()) known.insert(merge.left + merge.right);
    std::set<Pieces> seen;
    s2s::Random draws(7);
    for (int i = 0; i < 200; ++i) {
        const Pieces pieces = model.encode_pre_token("newest", 0.5f, draws);
        std::string spelt;
        for (const std::string& piece : pieces) {
            CHECK(known.count(piece) == 1);
            spelt += piece;
        }
        CHECK(spelt == "newest");
        seen.insert(pieces);
    }
    CHECK(seen.size() >= 4);
    CHECK(seen.count(Pieces{"newest"}) == 1);
    s2s::Random a(3), b(3);
    CHECK(model.encode("the newest, the lowest", "en", 0.3f, a) == model.encode("the newest, the lowest", "en", 0.3f, b));
    s2s::Random whole(3);
    CHECK(model.encode("the newest, the lowest", "en", 0.0f, whole) == model.encode("the newest, the lowest", "en"));
}

TEST_CASE("unseen characters stay pieces of their own and become <unk> in the vocabulary") {
    const BpeModel model = learn_bpe({{std::string(s2s::kWordMarker) + "ab", 4}}, 10);
    const std::string m(s2s::kWordMarker);
    const Pieces pieces = model.encode("ab 😀 ab", "en");
    CHECK(pieces == Pieces{m + "ab", m, "😀", m + "ab"});
    s2s::Vocabulary vocabulary = s2s::Vocabulary::from_tokens({"<pad>", "<unk>", "<bos>", "<eos>", m, "a", "b", m + "a", m + "ab"});
    const std::vector<int> ids = vocabulary.encode(pieces);
    CHECK(ids == std::vector<int>{8, 4, s2s::Vocabulary::kUnk, 8});
    // Decoding what the model read shows the unknown character as <unk>: never dropped.
    Pieces read;
    for (int id : ids) read.push_back(vocabulary.token(id));
    CHECK(s2s::decode_pieces(read) == "ab <unk> ab");
}

TEST_CASE("tokenizer settings of kind bpe round-trip through JSON and refuse a damaged merge") {
    const s2s::TokenizerSettings settings{s2s::TokenizerKind::kSubwords, "fr",
                                          std::make_shared<const BpeModel>(std::vector<BpeModel::Merge>{{"a", "b"}, {"ab", "c"}})};
    const nlohmann::json json = s2s::to_json(settings);
    CHECK(json["kind"] == "bpe");
    CHECK(json["merges"] == nlohmann::json::array({"a b", "ab c"}));
    const s2s::TokenizerSettings back = s2s::tokenizer_settings_from_json(json);
    REQUIRE(back.bpe);
    CHECK(back.bpe->merges().size() == 2);
    CHECK(s2s::tokenize("abc", back) == Pieces{std::string(s2s::kWordMarker), "abc"});
    for (const char* bad : {"ab", "a  b", " a", "a b c", ""}) {
        nlohmann::json damaged = json;
        damaged["merges"][1] = bad;
        CHECK_THROWS_AS(s2s::tokenizer_settings_from_json(damaged), s2s::ModelFileError);
    }
    nlohmann::json missing = json;
    missing.erase("merges");
    CHECK_THROWS_WITH_AS(s2s::tokenizer_settings_from_json(missing), doctest::Contains("merges"), s2s::ModelFileError);
}

TEST_CASE("detokenize: pieces spell the text, with a capital first letter") {
    const std::string m(s2s::kWordMarker);
    const s2s::TokenizerSettings settings{s2s::TokenizerKind::kSubwords, "fr", std::make_shared<const BpeModel>()};
    CHECK(s2s::detokenize({m + "j'", "ad", "ore", m + "l'", "apprent", "issage", m + "!"}, settings) ==
          "J'adore l'apprentissage !");
    CHECK(s2s::detokenize({m + "«", m + "va", m + "»"}, settings) == "« Va »");
    CHECK(s2s::detokenize({"<unk>", m + "est"}, settings) == "<unk> est");
    CHECK(s2s::detokenize({}, settings).empty());
}

TEST_CASE("piece_words groups pieces into the words of the text") {
    const std::string m(s2s::kWordMarker);
    // "j'adore l'apprentissage profond." -> j' | adore | l' | apprentissage | profond | .
    const Pieces fr{m + "j'", "ad", "ore", m + "l'", "app", "rent", "issage", m + "pro", "fond", ".", "<eos>"};
    CHECK(s2s::piece_words(fr, "fr") == std::vector<int>{0, 1, 1, 2, 3, 3, 3, 4, 4, 5, 6});
    // A lone marker belongs to the unknown character after it.
    CHECK(s2s::piece_words({m + "i", m, "<unk>", m + "do", "."}, "en") == std::vector<int>{0, 1, 1, 2, 3});
    CHECK(s2s::piece_words({}, "en").empty());
    // Chinese: every piece is a word, a lone marker going with the next.
    CHECK(s2s::piece_words({m + "我们", "学习", m, "<unk>", "。"}, "zh") == std::vector<int>{0, 1, 2, 2, 3});
    // Any sequence a model may write, even one starting mid-word, gets words.
    CHECK(s2s::piece_words({"ing", ",", "ly"}, "en") == std::vector<int>{0, 1, 2});
}

TEST_CASE("decoding the pieces of every sentence of the data gives the normalized sentence back") {
    for (const auto& [file, language] : {std::pair{"fra-eng.txt", "fr"}, std::pair{"cmn-eng.txt", "zh"}}) {
        const std::vector<s2s::SentencePair> pairs = s2s::read_sentence_pairs(data_file(file));
        std::vector<std::string> english, target;
        for (const auto& pair : pairs) {
            english.push_back(pair.source);
            target.push_back(pair.target);
        }
        for (const auto& [sentences, side_language] : {std::pair{&english, "en"}, std::pair{&target, language}}) {
            const BpeModel model = learn_bpe(s2s::count_pre_tokens(*sentences, side_language), 4000);
            long checked = 0, mismatches = 0, unplaced = 0;
            std::string first_mismatch, first_unplaced;
            std::set<std::string> seen;
            for (const std::string& sentence : *sentences) {
                if (!seen.insert(sentence).second) continue;
                const Pieces pieces = model.encode(sentence, side_language);
                const std::string decoded = s2s::decode_pieces(pieces);
                ++checked;
                if (decoded != s2s::normalize_text(sentence)) {
                    if (mismatches++ == 0) first_mismatch = sentence;
                }
                // Every piece is found in the text it came from, in order.
                int last_end = 0;
                const std::vector<s2s::TextRange> ranges = s2s::token_ranges(sentence, pieces);
                for (size_t k = 0; k < ranges.size(); ++k) {
                    const s2s::TextRange& r = ranges[k];
                    // Only a piece that is the word marker alone may be empty (at the start).
                    if (r.begin < last_end || r.end < r.begin || (r.end == r.begin && pieces[k] != s2s::kWordMarker)) {
                        if (unplaced++ == 0) first_unplaced = sentence;
                        break;
                    }
                    last_end = r.end;
                }
            }
            INFO(file << " (" << side_language << "): first mismatch: " << first_mismatch
                      << "; first sentence with a piece not placed: " << first_unplaced);
            CHECK(mismatches == 0);
            CHECK(unplaced == 0);
            CHECK(checked > 20000);
        }
    }
}

TEST_CASE("token_ranges: where each token is in the text typed, in UTF-16 code units") {
    using s2s::TextRange;
    const auto ranges = [](const std::string& text, const Pieces& tokens) {
        std::vector<std::pair<int, int>> out;
        for (const TextRange& r : s2s::token_ranges(text, tokens)) out.emplace_back(r.begin, r.end);
        return out;
    };
    const std::string m(s2s::kWordMarker);
    using Ranges = std::vector<std::pair<int, int>>;
    // Pieces: case, the marker as the space before, a curly apostrophe, <eos>.
    CHECK(ranges("  I DON\u2019T  know.", {m + "i", m + "don", "'t", m + "kn", "ow", ".", "<eos>"}) ==
          Ranges{{2, 3}, {4, 7}, {7, 9}, {11, 13}, {13, 15}, {15, 16}, {-1, -1}});
    // An emoji is two UTF-16 code units; an unseen character stays a piece.
    CHECK(ranges("a \U0001F600 b", {m + "a", m + "\U0001F600", m + "b"}) == Ranges{{0, 1}, {2, 4}, {5, 6}});
    // Words (a word model's tokens), French accents lowercased.
    CHECK(ranges("\u00C9T\u00C9, oui!", {"\u00E9t\u00E9", ",", "oui", "!"}) == Ranges{{0, 3}, {3, 4}, {5, 8}, {8, 9}});
    // Chinese characters, one token each.
    CHECK(ranges("\u6211\u7231 \u4F60", {"\u6211", "\u7231", "\u4F60"}) == Ranges{{0, 1}, {1, 2}, {3, 4}});
    // Tokens of another text: no range from the first that does not fit.
    CHECK(ranges("cat dog", {"cat", "cow", "dog"}) == Ranges{{0, 3}, {-1, -1}, {-1, -1}});
    CHECK(ranges("", {"a"}) == Ranges{{-1, -1}});
    // A piece that is the marker alone is the space it stands for.
    CHECK(ranges("a  \u55E8", {m + "a", m, "\u55E8"}) == Ranges{{0, 1}, {1, 3}, {3, 4}});
    // Through the tokenizer itself, for every kind.
    for (const s2s::TokenizerSettings& settings : {s2s::english_words_tokenizer(), s2s::TokenizerSettings(s2s::TokenizerKind::kCharacters, "zh")}) {
        const std::string text = "Tom\u00A0said: \u201CIt\u2019s 3.5 km.\u201D";
        const Pieces tokens = s2s::tokenize(text, settings);
        for (const TextRange& r : s2s::token_ranges(text, tokens)) CHECK(r.begin >= 0);
    }
}
