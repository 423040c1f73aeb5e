// IEEE 754 half precision (binary16) to and from float32: the model file's
// float16 dtype (model_file.h). Round to nearest even, as IEEE 754 requires;
// values beyond the half range become infinity, NaN stays NaN.
#pragma once

#include <cstdint>

namespace s2s {

uint16_t float_to_half(float value);
float half_to_float(uint16_t value);

}  // namespace s2s
