// IEEE 754 half precision conversions (float16.h), bit by bit so that every
// host and the WASM build round the same way.
#include "format/float16.h"

#include <cstring>

namespace s2s {
namespace {

uint32_t float_bits(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}
float bits_float(uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

}  // namespace

uint16_t float_to_half(float value) {
    const uint32_t bits = float_bits(value);
    const auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
    const uint32_t exponent = (bits >> 23) & 0xFF;
    const uint32_t mantissa = bits & 0x7FFFFF;

    if (exponent == 0xFF) {
        if (mantissa == 0) return static_cast<uint16_t>(sign | 0x7C00);
        // Keep the top payload bits and force the quiet bit so that a NaN
        // whose payload lives only in the low bits does not become infinity.
        return static_cast<uint16_t>(sign | 0x7C00 | 0x0200 | (mantissa >> 13));
    }
    const int unbiased = static_cast<int>(exponent) - 127;
    if (unbiased > 15) return static_cast<uint16_t>(sign | 0x7C00);

    if (unbiased >= -14) {
        uint32_t half = (static_cast<uint32_t>(unbiased + 15) << 10) | (mantissa >> 13);
        const uint32_t rest = mantissa & 0x1FFF;
        // A carry out of the mantissa correctly bumps the exponent, and from
        // the largest finite value on to infinity (0x7C00).
        if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;
        return static_cast<uint16_t>(sign | half);
    }

    // Below the normal range: the result is a half subnormal, a count of
    // 2^-24 units. The float (with its implicit bit) is full * 2^(unbiased-23),
    // i.e. full * 2^(unbiased+1) units, so shift right by -(unbiased+1) >= 14.
    const int shift = -(unbiased + 1);
    if (shift > 24) return sign;  // below half of the smallest subnormal (also float zeros and subnormals)
    const uint32_t full = mantissa | 0x800000;
    uint32_t half = full >> shift;
    const uint32_t rest = full & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1))) ++half;  // may round up to the smallest normal
    return static_cast<uint16_t>(sign | half);
}

float half_to_float(uint16_t value) {
    const uint32_t sign = static_cast<uint32_t>(value & 0x8000) << 16;
    const uint32_t exponent = (value >> 10) & 0x1F;
    uint32_t mantissa = value & 0x3FF;

    if (exponent == 0x1F) return bits_float(sign | 0x7F800000 | (mantissa << 13));
    if (exponent != 0) return bits_float(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
    if (mantissa == 0) return bits_float(sign);
    // Every half subnormal is a normal float: move the leading one up to the
    // implicit bit position and lower the exponent to match.
    int unbiased = -14;
    while ((mantissa & 0x400) == 0) {
        mantissa <<= 1;
        --unbiased;
    }
    mantissa &= 0x3FF;
    return bits_float(sign | (static_cast<uint32_t>(unbiased + 127) << 23) | (mantissa << 13));
}

}  // namespace s2s
