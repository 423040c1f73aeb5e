// Tokenizer and detokenizer.
//
// Words (English, French): compatible with the preprocessing of d2l.ai's
// Tatoeba chapter ("Machine Translation and the Dataset"): lowercase, the
// non-breaking spaces U+202F and U+00A0 become spaces, and the punctuation
// marks , . ! ? are split off as tokens of their own; apostrophes stay inside
// words ("j'ai", "don't"). Runs of whitespace separate tokens.
// Characters (Chinese targets): every code point other than whitespace is a
// token.
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s2s {

class BpeModel;

// kSubwords: byte-pair-encoded pieces (src/text/bpe.h), what the shipped
// models use. kWords and kCharacters: the toy tasks of the Train view, and
// word-level model files written before subwords (format versions 1 and 2).
enum class TokenizerKind { kWords, kCharacters, kSubwords };

struct TokenizerSettings {
    TokenizerSettings(TokenizerKind kind_ = TokenizerKind::kWords, std::string language_ = "en",
                      std::shared_ptr<const BpeModel> bpe_ = nullptr)
        : kind(kind_), language(std::move(language_)), bpe(std::move(bpe_)) {}
    TokenizerKind kind = TokenizerKind::kWords;
    std::string language = "en";  // "en", "fr", "zh": steers detokenization (and French elisions for subwords)
    std::shared_ptr<const BpeModel> bpe;  // kSubwords only: the learned merges
};

// Punctuation marks: ASCII, Latin-1 and general punctuation, CJK and
// fullwidth marks. The word tokenizer counts them out of "words"; the
// subword pre-tokenizer makes each a pre-token of its own.
bool is_punctuation_code_point(char32_t cp);

// Invalid UTF-8 is sanitized first (see sanitize_utf8), so this never throws.
std::vector<std::string> tokenize(std::string_view text, const TokenizerSettings& settings);

// Ordinary text from tokens: words joined by spaces, , and . attached to the
// word before them, ! and ? attached in English and Chinese but kept after a
// space in French (French typography), first letter capitalized. Characters
// are concatenated, except that a space is kept between two Latin words.
// The tokens joined by single spaces: equal for two texts that tokenize
// alike ("Go." and "go ."), so the leak guards use it as a set key.
std::string join_tokens(const std::vector<std::string>& tokens);
inline std::string token_key(std::string_view text, const TokenizerSettings& settings) {
    return join_tokens(tokenize(text, settings));
}

std::string detokenize(const std::vector<std::string>& tokens, const TokenizerSettings& settings);

// `with_merges` false: a BPE tokenizer's "merges" array is replaced by its
// size, "merge_count" (what the WASM module's info() reports: serializing
// thousands of merges nobody reads there took a tenth of a first model load).
nlohmann::json to_json(const TokenizerSettings& settings, bool with_merges = true);
// Throws ModelFileError naming the bad field.
TokenizerSettings tokenizer_settings_from_json(const nlohmann::json& json);
// The same for settings whose BPE merges a model file stores beside its
// header (format version 4: a record of strings, model_file.h): `json`
// holds no "merges" and `merges` the "left right" strings, checked as the
// JSON ones are but for their UTF-8, which the file reader checked (and
// every piece must then be in the vocabulary, whose tokens are checked:
// src/model/model_load.cpp).
TokenizerSettings tokenizer_settings_from_json(const nlohmann::json& json, std::vector<std::string> merges);

// A word of a tokenized text: tokens [start, end) and its text. For subword
// pieces the words are the pre-tokens of bpe.h (a word, a punctuation mark,
// a French elided article; special tokens are words of their own); for
// words and characters every token is a word.
struct WordSpan {
    std::string text;
    int start = 0;
    int end = 0;  // exclusive
};
std::vector<WordSpan> word_spans(const std::vector<std::string>& tokens, const TokenizerSettings& settings);

// Where each token of `text` came from: code units [begin, end) of `text`
// as JavaScript indexes a string (UTF-16), so a page can slice what the
// reader typed for a token ("<unk>" shows the character it stands for).
// {-1, -1} for a special token (the final <eos>) and for every token from
// one that does not spell the text's next characters on (a token list of
// another text). Tokens are matched as tokenize() normalized them:
// lowercase, U+2019 as "'", the word marker of a piece read as a space.
struct TextRange {
    int begin = -1;
    int end = -1;
};
std::vector<TextRange> token_ranges(std::string_view text, const std::vector<std::string>& tokens);

// True for the tokens the word tokenizer splits off (, . ! ?) and for other
// punctuation-only tokens; used to count "words" of a sentence.
bool is_punctuation_token(std::string_view token);

// Number of tokens that are not punctuation: the sentence length used by the
// BLEU-by-length buckets.
int count_words(const std::vector<std::string>& tokens);

// The English word tokenizer. It defines what a "word" of an English source
// is (the length limit, the leak guards, the BLEU-by-length buckets,
// `eval --min-words`) whatever pieces a model reads, so that a sentence has
// the same length for every model.
const TokenizerSettings& english_words_tokenizer();

// Words of an English sentence as english_words_tokenizer() sees them.
int count_english_words(std::string_view text);

}  // namespace s2s
