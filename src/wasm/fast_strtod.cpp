// strtod for the WebAssembly translator, linked in place of the C library's
// (-Wl,--wrap=strtod, cmake/wasm.cmake): nlohmann::json reads every number
// with a fraction or an exponent through strtod, and a model header's
// provenance holds a few hundred (BLEU scores, precisions), each 16 or 17
// digits. musl's strtod works in long double, which WebAssembly has only as
// software emulation of 128-bit floats: about a tenth of a model's load time
// went there.
//
// The quick path is exact: a decimal of at most 2^53 as its digits, times
// or divided by a power of ten up to 10^22 (both exactly representable as
// doubles), is one correctly rounded double operation (Clinger, "How to read
// floating point numbers accurately", 1990), the value strtod returns too.
// Everything else (more digits, larger exponents, hexadecimal, inf, nan,
// leading spaces or '+') goes to the library's strtod, unchanged.
#include <cstdint>

extern "C" double __real_strtod(const char* text, char** end);

namespace {

constexpr double kPowersOf10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

extern "C" double __wrap_strtod(const char* text, char** end) {
    const char* p = text;
    const bool negative = *p == '-';
    if (negative) ++p;
    uint64_t digits = 0;    // the significant digits as an integer
    int digit_count = 0;    // how many (at most 19, so `digits` cannot overflow)
    int exponent = 0;       // value = digits * 10^exponent
    bool any = false;
    const auto take = [&](char c) {
        any = true;
        if (digits == 0 && c == '0') return true;  // a leading zero adds nothing
        if (++digit_count > 19) return false;
        digits = digits * 10 + static_cast<uint64_t>(c - '0');
        return true;
    };
    for (; is_digit(*p); ++p) {
        if (!take(*p)) return __real_strtod(text, end);
    }
    if (*p == '.') {
        for (++p; is_digit(*p); ++p) {
            if (!take(*p)) return __real_strtod(text, end);
            --exponent;
        }
    }
    if (!any) return __real_strtod(text, end);
    if (*p == 'e' || *p == 'E') {
        const char* q = p + 1;
        const bool minus = *q == '-';
        if (*q == '-' || *q == '+') ++q;
        if (!is_digit(*q)) return __real_strtod(text, end);
        int value = 0;
        for (; is_digit(*q); ++q) {
            if (value > 10000) return __real_strtod(text, end);
            value = value * 10 + (*q - '0');
        }
        exponent += minus ? -value : value;
        p = q;
    }
    if (digits > (uint64_t{1} << 53) || exponent < -22 || exponent > 22) return __real_strtod(text, end);
    double result = static_cast<double>(digits);  // exact: at most 2^53
    result = exponent < 0 ? result / kPowersOf10[-exponent] : result * kPowersOf10[exponent];
    if (end != nullptr) *end = const_cast<char*>(p);
    return negative ? -result : result;
}
