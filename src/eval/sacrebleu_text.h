// Text preparation as sacreBLEU does it (Post, 2018, "A Call for Clarity in
// Reporting BLEU Scores", WMT; https://github.com/mjpost/sacrebleu), so that
// the project's BLEU and chrF2 are the figures papers and model cards report.
// Written from the algorithm's description and checked number for number
// against sacreBLEU 2.6.0 (data/sacrebleu-reference/cases.json, in the tests);
// no sacreBLEU code is copied.
//
// Two tokenizers, picked by target language:
//   13a  the tokenization of WMT's mteval-v13a.pl: a few SGML entities
//        unescaped, then ASCII punctuation other than ' , - . split off, the
//        period and comma split off unless they sit between digits, and a
//        dash split off after a digit. French and English.
//   zh   every CJK character (sacreBLEU's list of ranges, with its quirks, see
//        is_sacrebleu_chinese_character) becomes a token of its own, and the
//        rest is tokenized like 13a without the entity step. Chinese.
// Both split on whitespace as Python's str.split() does, which includes the
// no-break spaces U+00A0 and U+202F of French typography but not U+200B.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace s2s {

enum class BleuTokenizer { k13a, kZh };

// "zh" -> kZh; every other language (fr, en, ...) -> k13a.
BleuTokenizer bleu_tokenizer_for_language(std::string_view language);
// "13a" or "zh", as in sacreBLEU's signature (tok:13a).
const char* bleu_tokenizer_name(BleuTokenizer tokenizer);

// sacreBLEU's BLEU preprocessing of one segment: lowercase (to_lower_utf8),
// strip trailing whitespace, tokenize. Invalid UTF-8 becomes U+FFFD.
std::vector<std::string> bleu_tokens(std::string_view text, BleuTokenizer tokenizer);

// The tokenizers alone, without lowercasing or stripping; exposed for tests.
std::vector<std::string> tokenize_13a(std::string_view text);
std::vector<std::string> tokenize_zh(std::string_view text);

// Python's str.isspace() for one code point: what str.split() and
// str.strip() treat as whitespace.
bool is_python_whitespace(char32_t code_point);

// sacreBLEU's rule for a character the zh tokenizer isolates.
bool is_sacrebleu_chinese_character(char32_t code_point);

// The references sacreBLEU scores, sentence by sentence: empty strings are
// dropped (its way of giving sentences fewer references). Throws UsageError
// if there are not `sentences` reference sets or a sentence has no
// non-empty reference. The views point into `references`.
std::vector<std::vector<std::string_view>> usable_references(const std::vector<std::vector<std::string>>& references,
                                                             size_t sentences);

}  // namespace s2s
