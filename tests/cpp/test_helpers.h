// Small fixtures shared by the native tests.
#pragma once

#include "model/config.h"
#include "model/parameters.h"
#include "train/batch.h"

#include <vector>

namespace s2s::testing {

// A tiny configuration for gradient checks: small enough to differentiate
// numerically, big enough that every shape is distinct (a transposed
// product would not compile or would be caught).
inline ModelConfig tiny_config(AttentionKind attention) {
    ModelConfig config;
    config.source_vocab_size = 11;
    config.target_vocab_size = 13;
    config.embedding_size = 5;
    config.encoder_hidden_size = 4;
    config.decoder_hidden_size = attention == AttentionKind::kDot || attention == AttentionKind::kScaledDot ? 8 : 6;
    config.attention_size = 7;
    config.output_hidden_size = 9;
    config.attention = attention;
    return config;
}

// Examples of different lengths, so a batch of them has padding on both sides.
inline std::vector<Example> tiny_examples() {
    return {
        {{4, 5, 6, 7, 3}, {8, 4, 3}},
        {{9, 10, 3}, {5, 6, 7, 12, 3}},
        {{6, 3}, {11, 3}},
    };
}

}  // namespace s2s::testing
