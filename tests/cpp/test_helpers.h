// Small fixtures shared by the native tests.
#pragma once

#include "model/config.h"
#include "model/model.h"
#include "model/parameters.h"
#include "text/vocabulary.h"
#include "train/batch.h"

#include <string>
#include <vector>

namespace s2s::testing {

// Sets every size and the attention variant at once; vocabulary sizes stay.
inline void set_architecture(ModelConfig& config, int embedding, int encoder_hidden, int decoder_hidden, int attention_size,
                             int output_hidden, AttentionKind attention) {
    config.embedding_size = embedding;
    config.encoder_hidden_size = encoder_hidden;
    config.decoder_hidden_size = decoder_hidden;
    config.attention_size = attention_size;
    config.output_hidden_size = output_hidden;
    config.attention = attention;
}

// A tiny configuration for gradient checks: small enough to differentiate
// numerically, big enough that every shape is distinct (a transposed
// product would not compile or would be caught).
inline ModelConfig tiny_config(AttentionKind attention) {
    ModelConfig config;
    config.source_vocab_size = 11;
    config.target_vocab_size = 13;
    const bool needs_equal_sizes = attention == AttentionKind::kDot || attention == AttentionKind::kScaledDot;
    set_architecture(config, 5, 4, needs_equal_sizes ? 8 : 6, 7, 9, attention);
    return config;
}

// Vocabularies of the sizes model.config gives: the four special tokens,
// then "s4", "s5", ... (source) and "t4", "t5", ... (target).
inline void set_placeholder_vocabularies(Model& model) {
    std::vector<std::string> source = {"<pad>", "<unk>", "<bos>", "<eos>"}, target = source;
    for (int i = 4; i < model.config.source_vocab_size; ++i) source.push_back("s" + std::to_string(i));
    for (int i = 4; i < model.config.target_vocab_size; ++i) target.push_back("t" + std::to_string(i));
    model.source_vocabulary = Vocabulary::from_tokens(source);
    model.target_vocabulary = Vocabulary::from_tokens(target);
}

// Examples of different lengths, so a batch of them has padding on both sides.
// Random parameters with sharper output weights: a random model then gives
// long, varied outputs whose choices are decisive rather than ties.
inline Parameters sharp_random_parameters(const ModelConfig& config, uint64_t seed) {
    Parameters p = random_parameters(config, seed);
    p.output_weights *= 4.0f;
    return p;
}

// A tiny additive-attention model with random weights and W_o scaled up
// (so its logits spread as a trained model's do), `target_vocab_size`
// targets, placeholder vocabularies.
inline Model scaled_model(int target_vocab_size, uint64_t seed) {
    Model model;
    model.config = tiny_config(AttentionKind::kAdditive);
    model.config.target_vocab_size = target_vocab_size;
    set_placeholder_vocabularies(model);
    model.params = random_parameters(model.config, seed);
    model.params.output_weights *= 3.0f;
    return model;
}

inline std::vector<Example> tiny_examples() {
    return {
        {{4, 5, 6, 7, 3}, {8, 4, 3}},
        {{9, 10, 3}, {5, 6, 7, 12, 3}},
        {{6, 3}, {11, 3}},
    };
}

}  // namespace s2s::testing
