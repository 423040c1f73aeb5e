// UTF-8 helpers. All text in the project is UTF-8; these make sure nothing
// ever splits a character in half and that invalid bytes never reach a
// vocabulary or a model.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace s2s {

// True when `text` is well-formed UTF-8 (no overlong forms, no surrogates,
// nothing above U+10FFFF).
bool is_valid_utf8(std::string_view text);

// `text` with every invalid byte sequence replaced by U+FFFD and every NUL
// byte dropped, so the result is always valid UTF-8.
std::string sanitize_utf8(std::string_view text);

// The code point at byte `pos` of `text` and its length in bytes: an invalid
// sequence reads as U+FFFD over its maximal invalid subpart (at least one
// byte), as sanitize_utf8 replaces it. For walking text by code point while
// keeping byte offsets into it.
struct Utf8Char {
    char32_t code_point;
    size_t length;
};
Utf8Char read_utf8_char(std::string_view text, size_t pos);

// Code points of valid UTF-8 text (call sanitize_utf8 first on untrusted text).
std::vector<char32_t> decode_utf8(std::string_view text);
std::string encode_utf8(char32_t code_point);

// One string per code point, in order: the character-level view of `text`.
std::vector<std::string> split_characters(std::string_view text);

// Whitespace for tokenizing and for grouping sentences: beyond d2l's ASCII
// space, the other Unicode spaces and the zero-width ones, since none of them
// can carry meaning inside a token and a stray one would otherwise make a
// distinct vocabulary entry (or a distinct English sentence).
bool is_unicode_space(char32_t code_point);

// Lowercase for ASCII, Latin-1 Supplement, Latin Extended-A, Greek and
// Cyrillic; other code points are returned as they are.
std::string to_lower_utf8(std::string_view text);
// The same mapping for one code point.
char32_t to_lower_code_point(char32_t code_point);

}  // namespace s2s
