// Training examples and padded batches.
#pragma once

#include "model/encoder.h"

#include <vector>

namespace s2s {

struct Example {
    std::vector<int> source;  // ids, ending with <eos>
    std::vector<int> target;  // ids, ending with <eos>
};

struct Batch {
    TokenBatch source;          // (S, B)
    TokenBatch target_inputs;   // <bos> y_1 .. y_{T-1}   (T, B)
    TokenBatch target_outputs;  // y_1 .. y_T (= <eos>)   (T, B), mask = real tokens
    long target_tokens = 0;     // number of real target tokens (the loss's denominator)
};

// Pads with <pad> to the longest source and target of the batch.
Batch make_batch(const std::vector<const Example*>& examples);

}  // namespace s2s
