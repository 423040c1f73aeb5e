// A quick path for the largest part of a model file's header: the two
// vocabularies, JSON arrays of thousands of token strings (16,000 in en-fr,
// 170 kB). Read through nlohmann::json they cost most of a cold model load
// in WASM (a JSON node and a heap string per token, built, copied into the
// Vocabulary and freed again). Here they are read straight into vectors of
// strings, and the rest of the header, with each vocabulary replaced by [],
// goes to parse_header as before. The same goes for the BPE merges of a
// subword model's two tokenizers ("source_tokenizer": {"merges": [...]},
// 18,000 strings in en-fr, 280 kB): each "merges" array is taken out and
// replaced by [] as well, and the lexical shortlist's "triggers" (a base64
// string, 85 kB in en-fr: "target_shortlist": {"triggers": "..."}) is taken
// out and replaced by "".
//
// It never decides alone what is valid: it accepts only a strict subset of
// JSON (strings of valid UTF-8 with the simple escapes; no \u, no control
// characters), and anything else, or any doubt about where the arrays are,
// makes it give up, and parse_header then reads the whole text, exactly as
// without it (same result, same error messages).
#include "model/model_file_internal.h"

#include <algorithm>
#include <cstring>

namespace s2s {
namespace model_file_detail {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class Scanner {
public:
    explicit Scanner(std::string_view text) : text_(text) {}

    size_t at() const { return at_; }
    bool done() const { return at_ >= text_.size(); }
    char peek() const { return done() ? '\0' : text_[at_]; }
    void skip_space() {
        while (!done() && is_space(text_[at_])) ++at_;
    }
    bool take(char c) {
        if (peek() != c) return false;
        ++at_;
        return true;
    }

    // A JSON string of the strict subset into `out`; false otherwise.
    bool string(std::string& out) {
        if (!take('"')) return false;
        out.clear();
        while (!done()) {
            // A run of plain printable ASCII, copied at once.
            size_t run = at_;
            while (run < text_.size()) {
                const auto c = static_cast<unsigned char>(text_[run]);
                if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') break;
                ++run;
            }
            out.append(text_.data() + at_, run - at_);
            at_ = run;
            if (done()) return false;
            const auto c = static_cast<unsigned char>(text_[at_]);
            if (c == '"') {
                ++at_;
                return true;
            }
            if (c < 0x20) return false;
            if (c == '\\') {
                if (at_ + 1 >= text_.size()) return false;
                const char* simple = std::strchr("\"\\/bfnrt", text_[at_ + 1]);
                if (simple == nullptr || *simple == '\0') return false;  // \u and anything else: give up
                static const char kDecoded[] = "\"\\/\b\f\n\r\t";
                out.push_back(kDecoded[simple - "\"\\/bfnrt"]);
                at_ += 2;
                continue;
            }
            const size_t length = utf8_sequence(at_);
            if (length == 0) return false;
            out.append(text_.data() + at_, length);
            at_ += length;
        }
        return false;
    }

    // A JSON array of strings (the strict subset) into `out`.
    bool string_array(std::vector<std::string>& out) {
        if (!take('[')) return false;
        skip_space();
        if (take(']')) return true;
        std::string item;
        for (;;) {
            skip_space();
            if (!string(item)) return false;
            out.push_back(item);
            skip_space();
            if (take(']')) return true;
            if (!take(',')) return false;
        }
    }

    // Steps over any value without validating it (parse_header validates
    // what is left): strings with their escapes, nested brackets, scalars.
    bool skip_value() {
        int depth = 0;
        while (!done()) {
            const char c = text_[at_];
            if (c == '"') {
                ++at_;
                while (!done() && text_[at_] != '"') at_ += text_[at_] == '\\' ? 2 : 1;
                if (done()) return false;
                ++at_;
            } else if (c == '{' || c == '[') {
                ++depth;
                ++at_;
            } else if (c == '}' || c == ']') {
                if (depth == 0) return true;  // the end of the enclosing object
                --depth;
                ++at_;
            } else if (c == ',' && depth == 0) {
                return true;
            } else {
                ++at_;
            }
        }
        return false;
    }

private:
    // The length of the valid UTF-8 sequence at `i` (2 to 4 bytes: no
    // overlong forms, no surrogates, at most U+10FFFF), or 0.
    size_t utf8_sequence(size_t i) const {
        const auto byte = [&](size_t k) { return i + k < text_.size() ? static_cast<unsigned char>(text_[i + k]) : 0u; };
        const unsigned c = byte(0);
        const auto cont = [&](size_t k) { return (byte(k) & 0xC0u) == 0x80u; };
        if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
        if (c >= 0xE0 && c <= 0xEF) {
            const unsigned c1 = byte(1);
            if (!cont(1) || !cont(2)) return 0;
            if (c == 0xE0 && c1 < 0xA0) return 0;  // overlong
            if (c == 0xED && c1 >= 0xA0) return 0;  // a surrogate
            return 3;
        }
        if (c >= 0xF0 && c <= 0xF4) {
            const unsigned c1 = byte(1);
            if (!cont(1) || !cont(2) || !cont(3)) return 0;
            if (c == 0xF0 && c1 < 0x90) return 0;  // overlong
            if (c == 0xF4 && c1 >= 0x90) return 0;  // beyond U+10FFFF
            return 4;
        }
        return 0;
    }

    std::string_view text_;
    size_t at_ = 0;
};

// An object's field `wanted`, read by `take` (which returns false when the
// value is outside the strict subset), with where its value starts and
// ends; the other fields are stepped over for parse_header. `found` stays
// false for an object without it.
template <typename Take>
bool object_field(Scanner& scan, const char* wanted, Take take, bool& found, size_t& from, size_t& to) {
    if (!scan.take('{')) return false;
    std::string key;
    for (;;) {
        scan.skip_space();
        if (scan.take('}')) return true;
        if (!scan.string(key)) return false;
        scan.skip_space();
        if (!scan.take(':')) return false;
        scan.skip_space();
        if (key == wanted) {
            if (found) return false;  // a repeated key
            from = scan.at();
            if (!take()) return false;
            to = scan.at();
            found = true;
        } else if (!scan.skip_value()) {
            return false;
        }
        scan.skip_space();
        if (scan.take('}')) return true;
        if (!scan.take(',')) return false;
    }
}

// A tokenizer's object ({"kind": ..., "language": ..., "merges": [...]}):
// its "merges" array (the strict subset) into `out` (a word tokenizer has
// none).
bool tokenizer_merges(Scanner& scan, std::vector<std::string>& out, bool& found, size_t& from, size_t& to) {
    return object_field(scan, "merges", [&] { return scan.string_array(out); }, found, from, to);
}

// The shortlist's object ({"always": ..., "per_target": ..., "triggers":
// "...", "built_from": {...}}): its "triggers" string into `out` (only
// base64 characters are valid there: checked when it is decoded).
bool shortlist_triggers(Scanner& scan, std::string& out, bool& found, size_t& from, size_t& to) {
    return object_field(scan, "triggers", [&] { return scan.string(out); }, found, from, to);
}

}  // namespace

bool split_header_vocabularies(std::string_view text, std::string& rest, std::vector<std::string>& source,
                               std::vector<std::string>& target, HeaderMerges* merges) {
    Scanner scan(text);
    struct Span {
        size_t from = 0, to = 0;
        const char* with = "[]";
    };
    std::vector<Span> spans;  // the arrays taken out, each to become [] (the triggers: "")
    bool vocabulary_found[2] = {false, false};
    bool tokenizer_seen[2] = {false, false};
    bool shortlist_seen = false;
    scan.skip_space();
    if (!scan.take('{')) return false;
    std::string key;
    for (;;) {
        scan.skip_space();
        if (scan.take('}')) break;
        if (!scan.string(key)) return false;
        scan.skip_space();
        if (!scan.take(':')) return false;
        scan.skip_space();
        const int side = key == "source_vocabulary" ? 0 : key == "target_vocabulary" ? 1 : -1;
        const int tokenizer = key == "source_tokenizer" ? 0 : key == "target_tokenizer" ? 1 : -1;
        if (side >= 0) {
            if (vocabulary_found[side]) return false;  // a repeated key: leave it to the full parse
            const size_t from = scan.at();
            if (!scan.string_array(side == 0 ? source : target)) return false;
            spans.push_back({from, scan.at()});
            vocabulary_found[side] = true;
        } else if (tokenizer >= 0 && merges != nullptr) {
            if (tokenizer_seen[tokenizer]) return false;
            tokenizer_seen[tokenizer] = true;
            if (scan.peek() == '{') {
                size_t from = 0, to = 0;
                bool& found = tokenizer == 0 ? merges->source_found : merges->target_found;
                if (!tokenizer_merges(scan, tokenizer == 0 ? merges->source : merges->target, found, from, to)) return false;
                if (found) spans.push_back({from, to});
            } else if (!scan.skip_value()) {
                return false;
            }
        } else if (key == "target_shortlist" && merges != nullptr) {
            if (shortlist_seen) return false;
            shortlist_seen = true;
            if (scan.peek() == '{') {
                size_t from = 0, to = 0;
                if (!shortlist_triggers(scan, merges->shortlist_triggers, merges->shortlist_found, from, to)) return false;
                if (merges->shortlist_found) spans.push_back({from, to, "\"\""});
            } else if (!scan.skip_value()) {
                return false;
            }
        } else if (!scan.skip_value()) {
            return false;
        }
        scan.skip_space();
        if (scan.take('}')) break;
        if (!scan.take(',')) return false;
    }
    if (!vocabulary_found[0] || !vocabulary_found[1]) return false;
    // The text with each array replaced by [], in order of position.
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.from < b.from; });
    size_t taken = 0;
    for (const Span& span : spans) taken += span.to - span.from;
    rest.clear();
    rest.reserve(text.size() - taken + 2 * spans.size());
    size_t copied = 0;
    for (const Span& span : spans) {
        rest.append(text.substr(copied, span.from - copied)).append(span.with);
        copied = span.to;
    }
    rest.append(text.substr(copied));
    return true;
}

}  // namespace model_file_detail
}  // namespace s2s
