// UTF-8 decoding, encoding and repair (utf8.h).
#include "text/utf8.h"

namespace s2s {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

// Result of reading one sequence: either a code point, or `length` bytes that
// form a maximal invalid subpart (Unicode's recommended unit for U+FFFD
// substitution, so that one bad byte never swallows the valid text after it).
struct Step {
    char32_t code_point;
    size_t length;
    bool valid;
};

bool is_continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

Step read_one(std::string_view text, size_t pos) {
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(pos);
    if (lead < 0x80) return {lead, 1, true};

    size_t needed;
    char32_t cp;
    // The allowed range of the second byte excludes overlong forms, surrogates
    // and values above U+10FFFF at the earliest byte where they show.
    unsigned char second_min = 0x80, second_max = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        needed = 1;
        cp = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        needed = 2;
        cp = lead & 0x0F;
        if (lead == 0xE0) second_min = 0xA0;
        if (lead == 0xED) second_max = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        needed = 3;
        cp = lead & 0x07;
        if (lead == 0xF0) second_min = 0x90;
        if (lead == 0xF4) second_max = 0x8F;
    } else {
        return {kReplacement, 1, false};
    }

    size_t i = 1;
    for (; i <= needed; ++i) {
        if (pos + i >= text.size()) return {kReplacement, i, false};
        const unsigned char b = byte(pos + i);
        const bool ok = (i == 1) ? (b >= second_min && b <= second_max) : is_continuation(b);
        if (!ok) return {kReplacement, i, false};
        cp = (cp << 6) | (b & 0x3F);
    }
    return {cp, needed + 1, true};
}

void append_utf8(std::string& out, char32_t cp) {
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = kReplacement;
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

// In these blocks upper and lower case alternate code point by code point;
// `upper_is_even` says which parity holds the capital.
char32_t lower_in_pairs(char32_t cp, bool upper_is_even) {
    const bool even = (cp % 2) == 0;
    return even == upper_is_even ? cp + 1 : cp;
}

}  // namespace

// Simple (one-to-one) lowercase mapping from the Unicode character database,
// restricted to the blocks the project's languages need.
char32_t to_lower_code_point(char32_t cp) {
    if (cp < 0x80) return (cp >= 'A' && cp <= 'Z') ? cp + 0x20 : cp;
    if (cp < 0x100) return (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) ? cp + 0x20 : cp;
    if (cp < 0x180) {
        if (cp == 0x130) return 'i';  // dotted capital I (Turkish)
        if (cp <= 0x137) return lower_in_pairs(cp, true);
        if (cp == 0x138) return cp;  // kra has no capital
        if (cp <= 0x148) return lower_in_pairs(cp, false);
        if (cp == 0x149) return cp;
        if (cp <= 0x177) return lower_in_pairs(cp, true);
        if (cp == 0x178) return 0xFF;  // Ÿ lives far away from ÿ
        if (cp <= 0x17E) return lower_in_pairs(cp, false);
        return cp;
    }
    if (cp >= 0x370 && cp <= 0x3FF) {
        if (cp <= 0x373 || cp == 0x376) return lower_in_pairs(cp, true);
        if (cp == 0x37F) return 0x3F3;
        if (cp == 0x386) return 0x3AC;
        if (cp >= 0x388 && cp <= 0x38A) return cp + 0x25;
        if (cp == 0x38C) return 0x3CC;
        if (cp == 0x38E || cp == 0x38F) return cp + 0x3F;
        if (cp >= 0x391 && cp <= 0x3AB && cp != 0x3A2) return cp + 0x20;
        if (cp == 0x3CF) return 0x3D7;
        if (cp >= 0x3D8 && cp <= 0x3EF) return lower_in_pairs(cp, true);
        if (cp == 0x3F4) return 0x3B8;
        if (cp == 0x3F7 || cp == 0x3FA) return cp + 1;
        if (cp == 0x3F9) return 0x3F2;
        if (cp >= 0x3FD) return cp - 0x82;
        return cp;
    }
    if (cp >= 0x400 && cp <= 0x52F) {
        if (cp <= 0x40F) return cp + 0x50;
        if (cp <= 0x42F) return cp + 0x20;
        if (cp >= 0x460 && cp <= 0x481) return lower_in_pairs(cp, true);
        if (cp >= 0x48A && cp <= 0x4BF) return lower_in_pairs(cp, true);
        if (cp == 0x4C0) return 0x4CF;
        if (cp >= 0x4C1 && cp <= 0x4CE) return lower_in_pairs(cp, false);
        if (cp >= 0x4D0) return lower_in_pairs(cp, true);
        return cp;
    }
    return cp;
}

bool is_valid_utf8(std::string_view text) {
    for (size_t pos = 0; pos < text.size();) {
        // ASCII needs no decoding (a model load checks 18,000 vocabulary
        // tokens, mostly ASCII, through here).
        if (static_cast<unsigned char>(text[pos]) < 0x80) {
            ++pos;
            continue;
        }
        const Step step = read_one(text, pos);
        if (!step.valid) return false;
        pos += step.length;
    }
    return true;
}

std::string sanitize_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t pos = 0; pos < text.size();) {
        const Step step = read_one(text, pos);
        if (!step.valid) {
            append_utf8(out, kReplacement);
        } else if (step.code_point != 0) {
            // Valid sequences are copied byte for byte: cheaper than re-encoding.
            out.append(text.substr(pos, step.length));
        }
        pos += step.length;
    }
    return out;
}

std::vector<char32_t> decode_utf8(std::string_view text) {
    std::vector<char32_t> out;
    out.reserve(text.size());
    for (size_t pos = 0; pos < text.size();) {
        const Step step = read_one(text, pos);
        out.push_back(step.code_point);  // kReplacement when invalid
        pos += step.length;
    }
    return out;
}

std::string encode_utf8(char32_t code_point) {
    std::string out;
    append_utf8(out, code_point);
    return out;
}

std::vector<std::string> split_characters(std::string_view text) {
    std::vector<std::string> out;
    for (size_t pos = 0; pos < text.size();) {
        const Step step = read_one(text, pos);
        out.push_back(step.valid ? std::string(text.substr(pos, step.length)) : encode_utf8(kReplacement));
        pos += step.length;
    }
    return out;
}

std::string to_lower_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t pos = 0; pos < text.size();) {
        const Step step = read_one(text, pos);
        append_utf8(out, to_lower_code_point(step.code_point));
        pos += step.length;
    }
    return out;
}

bool is_unicode_space(char32_t cp) {
    switch (cp) {
        case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x20:
        case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029:
        case 0x202F: case 0x205F: case 0x3000: case 0xFEFF:
            return true;
        default:
            return cp >= 0x2000 && cp <= 0x200B;
    }
}

Utf8Char read_utf8_char(std::string_view text, size_t pos) {
    const Step step = read_one(text, pos);
    return {step.code_point, step.length};
}

}  // namespace s2s
