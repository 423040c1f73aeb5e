// Splitting a text into sentences, so that a paragraph is translated one
// sentence at a time (the models were trained on single sentences: a
// paragraph as one input comes back garbled, with words dropped).
//
// A sentence ends at . ! ? … (or a run of them, "?!", "..."), or at the
// fullwidth 。！？, together with the closing quotes and brackets right
// after it, when what follows is the end of the text, or whitespace and
// then something that can start a sentence (not a lowercase letter). It
// does not end after
//   - a known abbreviation ("Mr.", "Dr.", "e.g.", "i.e.", "etc." before a
//     lowercase word, "vs.", "St.", "No." before a number, ...), or a single
//     letter and a period ("J. Smith", "U.S.");
//   - a period inside a number or a word ("3.14", "example.com"): no
//     whitespace follows it.
// A blank line (two line breaks) always ends a sentence. Offsets are bytes
// of the UTF-8 text; each span is trimmed of surrounding whitespace and
// never empty.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace s2s {

struct SentenceSpan {
    size_t begin = 0;  // first byte
    size_t end = 0;    // one past the last byte
};

std::vector<SentenceSpan> split_sentences(std::string_view text);

}  // namespace s2s
