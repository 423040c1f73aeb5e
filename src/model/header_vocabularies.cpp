// A quick path for the largest part of a model file's header: the two
// vocabularies, JSON arrays of thousands of token strings (16,000 in en-fr,
// 170 kB). Read through nlohmann::json they cost most of a cold model load
// in WASM (a JSON node and a heap string per token, built, copied into the
// Vocabulary and freed again). Here they are read straight into vectors of
// strings, and the rest of the header, with each vocabulary replaced by [],
// goes to parse_header as before.
//
// It never decides alone what is valid: it accepts only a strict subset of
// JSON (strings of valid UTF-8 with the simple escapes; no \u, no control
// characters), and anything else, or any doubt about where the arrays are,
// makes it give up, and parse_header then reads the whole text, exactly as
// without it (same result, same error messages).
#include "model/model_file_internal.h"

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

}  // namespace

bool split_header_vocabularies(std::string_view text, std::string& rest, std::vector<std::string>& source,
                               std::vector<std::string>& target) {
    Scanner scan(text);
    struct Span {
        size_t from = 0, to = 0;
        bool found = false;
    } spans[2];
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
        if (side >= 0) {
            if (spans[side].found) return false;  // a repeated key: leave it to the full parse
            spans[side].from = scan.at();
            if (!scan.string_array(side == 0 ? source : target)) return false;
            spans[side].to = scan.at();
            spans[side].found = true;
        } else if (!scan.skip_value()) {
            return false;
        }
        scan.skip_space();
        if (scan.take('}')) break;
        if (!scan.take(',')) return false;
    }
    if (!spans[0].found || !spans[1].found) return false;
    // The text with each array replaced by [], in order of position.
    const Span& first = spans[0].from < spans[1].from ? spans[0] : spans[1];
    const Span& second = spans[0].from < spans[1].from ? spans[1] : spans[0];
    rest.clear();
    rest.reserve(text.size() - (first.to - first.from) - (second.to - second.from) + 4);
    rest.append(text.substr(0, first.from)).append("[]");
    rest.append(text.substr(first.to, second.from - first.to)).append("[]");
    rest.append(text.substr(second.to));
    return true;
}

}  // namespace model_file_detail
}  // namespace s2s
