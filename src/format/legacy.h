// What a reader of format versions 1 to 3 (model_file.h) needs outside the
// container: their header held the shortlist's triggers as base64 text
// (target_shortlist.h), which version 4 stores as a record. The container
// of versions 1 and 2 is read by read_model_layout itself (legacy.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace s2s {

// The bytes of standard base64 `text` (RFC 4648: "=" padding, no line
// breaks). `damaged(problem)` must throw; it is called with a description
// of the first fault (a length that is no multiple of 4, a character
// outside the alphabet, padding before the end).
std::vector<uint8_t> legacy_base64_bytes(const std::string& text, void (*damaged)(const std::string& problem));

}  // namespace s2s
