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

#include <string>
#include <string_view>
#include <vector>

namespace s2s {

enum class TokenizerKind { kWords, kCharacters };

struct TokenizerSettings {
    TokenizerKind kind = TokenizerKind::kWords;
    std::string language = "en";  // "en", "fr", "zh": steers detokenization only
};

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

nlohmann::json to_json(const TokenizerSettings& settings);
// Throws ModelFileError naming the bad field.
TokenizerSettings tokenizer_settings_from_json(const nlohmann::json& json);

// True for the tokens the word tokenizer splits off (, . ! ?) and for other
// punctuation-only tokens; used to count "words" of a sentence.
bool is_punctuation_token(std::string_view token);

// Number of tokens that are not punctuation: the sentence length used by the
// BLEU-by-length buckets.
int count_words(const std::vector<std::string>& tokens);

}  // namespace s2s
