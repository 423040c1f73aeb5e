// sacreBLEU's text preparation (src/eval/sacrebleu_text.h): the 13a and zh
// tokenizers, case by case, and BLEU's lowercasing and tokenizer choice.
#include "eval/sacrebleu_text.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace s2s;

namespace {
using Strings = std::vector<std::string>;
}  // namespace

TEST_CASE("sacrebleu tokenizer 13a") {
    CHECK(tokenize_13a("Hello, world!") == Strings{"Hello", ",", "world", "!"});
    // Apostrophes and hyphens stay inside words; the sentence period goes.
    CHECK(tokenize_13a("J'adore l'apprentissage profond.") == Strings{"J'adore", "l'apprentissage", "profond", "."});
    CHECK(tokenize_13a("Va-t'en -c a-b") == Strings{"Va-t'en", "-c", "a-b"});
    // Periods and commas between digits stay; a dash after a digit goes.
    CHECK(tokenize_13a("3,50 euros.") == Strings{"3,50", "euros", "."});
    CHECK(tokenize_13a("3.") == Strings{"3", "."});
    CHECK(tokenize_13a("x.5") == Strings{"x", ".", "5"});
    CHECK(tokenize_13a("a..b") == Strings{"a", ".", ".", "b"});
    CHECK(tokenize_13a("1990-2000") == Strings{"1990", "-", "2000"});
    // Every other ASCII punctuation mark is a token; so <unk> is three.
    CHECK(tokenize_13a("<unk>") == Strings{"<", "unk", ">"});
    CHECK(tokenize_13a("(hi) [x] {y} @#$%^*+=|~`/\\:;") ==
          Strings{"(", "hi", ")", "[", "x", "]", "{", "y", "}", "@", "#", "$", "%", "^", "*", "+", "=", "|", "~", "`",
                  "/", "\\", ":", ";"});
    // SGML entities, in sacreBLEU's order (&amp; before &lt;).
    CHECK(tokenize_13a("&quot;hi&quot; &amp;lt; &amp;") == Strings{"\"", "hi", "\"", "<", "&"});
    CHECK(tokenize_13a("a<skipped>b") == Strings{"ab"});
    // Python's whitespace: French no-break spaces split, U+200B does not.
    CHECK(tokenize_13a("Es-tu en danger\u00A0?") == Strings{"Es-tu", "en", "danger", "?"});
    CHECK(tokenize_13a("Tu viens\u202F!") == Strings{"Tu", "viens", "!"});
    CHECK(tokenize_13a("a\u200Bb c") == Strings{"a\u200Bb", "c"});
    CHECK(tokenize_13a("  ").empty());
    CHECK(tokenize_13a("").empty());
}

TEST_CASE("sacrebleu tokenizer zh") {
    CHECK(tokenize_zh("我爱深度学习。") == Strings{"我", "爱", "深", "度", "学", "习", "。"});
    CHECK(tokenize_zh("我在家<unk>。") == Strings{"我", "在", "家", "<", "unk", ">", "。"});
    CHECK(tokenize_zh("GPU很快") == Strings{"GPU", "很", "快"});
    CHECK(tokenize_zh("3.5元，好") == Strings{"3.5", "元", "，", "好"});
    // sacreBLEU's range quirk: curly quotes and the ellipsis (U+2001-U+2A6D)
    // are isolated, a CJK Extension B character (U+20000) is not.
    CHECK(tokenize_zh("“怎么了”") == Strings{"“", "怎", "么", "了", "”"});
    CHECK(tokenize_zh("你好…") == Strings{"你", "好", "…"});
    CHECK(tokenize_zh("a\U00020000b") == Strings{"a\U00020000b"});
    CHECK(is_sacrebleu_chinese_character(0x2001));
    CHECK_FALSE(is_sacrebleu_chinese_character(0x2000));
    CHECK(is_sacrebleu_chinese_character(0x2A6D));
    CHECK_FALSE(is_sacrebleu_chinese_character(0x2A6E));
    CHECK_FALSE(is_sacrebleu_chinese_character(0x20000));
    CHECK(is_sacrebleu_chinese_character(0x2F81));
    CHECK(is_sacrebleu_chinese_character(0x9FBB));
    CHECK_FALSE(is_sacrebleu_chinese_character(0x9FBC));
    CHECK(is_sacrebleu_chinese_character(0xFFEF));
    CHECK_FALSE(is_sacrebleu_chinese_character(0xFFF0));
    CHECK_FALSE(is_sacrebleu_chinese_character('a'));
    CHECK_FALSE(is_sacrebleu_chinese_character(0xAC00));  // Hangul syllables are not in the list
}

TEST_CASE("sacrebleu: BLEU preprocessing lowercases before tokenizing, picks the tokenizer by language") {
    CHECK(bleu_tokens("Hello World.", BleuTokenizer::k13a) == Strings{"hello", "world", "."});
    CHECK(bleu_tokens("Élève &QUOT;X&QUOT;", BleuTokenizer::k13a) == Strings{"élève", "\"", "x", "\""});
    CHECK(bleu_tokens("我爱GPU。", BleuTokenizer::kZh) == Strings{"我", "爱", "gpu", "。"});
    CHECK(bleu_tokenizer_for_language("zh") == BleuTokenizer::kZh);
    CHECK(bleu_tokenizer_for_language("fr") == BleuTokenizer::k13a);
    CHECK(bleu_tokenizer_for_language("en") == BleuTokenizer::k13a);
    CHECK(std::string(bleu_tokenizer_name(BleuTokenizer::kZh)) == "zh");
    CHECK(std::string(bleu_tokenizer_name(BleuTokenizer::k13a)) == "13a");
    CHECK(is_python_whitespace(0x202F));
    CHECK(is_python_whitespace(0x1F));
    CHECK_FALSE(is_python_whitespace(0x200B));
    CHECK_FALSE(is_python_whitespace(0xFEFF));
}
