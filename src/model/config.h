// Architecture of a model: sizes and the attention variant. Stored in the
// model file header; the same struct configures training and inference.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace s2s {

// How the decoder reads the encoder states H_1..H_S at step t.
enum class AttentionKind {
    // Bahdanau et al. (2015), eq. (6) and appendix A.1.2:
    // e_ti = v . tanh(W_q s_{t-1} + W_k H_i)
    kAdditive,
    // Luong et al. (2015), "dot": e_ti = s_{t-1} . H_i (needs D = C)
    kDot,
    // Vaswani et al. (2017), eq. (1): e_ti = s_{t-1} . H_i / sqrt(C) (needs D = C)
    kScaledDot,
    // Luong et al. (2015), "general": e_ti = s_{t-1} . (W_k H_i)
    kGeneral,
    // The fixed-context baseline (Cho et al., 2014; Sutskever et al., 2014):
    // no attention, c_t = the final encoder state [h_fwd_S; h_bwd_1] for all t.
    kNone,
};

std::string attention_kind_name(AttentionKind kind);
// Throws UsageError listing the valid names.
AttentionKind attention_kind_from_name(const std::string& name);

struct ModelConfig {
    int source_vocab_size = 0;    // Vs
    int target_vocab_size = 0;    // Vt
    int embedding_size = 64;      // E (source and target)
    int encoder_hidden_size = 64; // H per direction; the context is C = 2H
    int decoder_hidden_size = 64; // D
    int attention_size = 64;      // A (additive only)
    int output_hidden_size = 64;  // P, the deep output (Bahdanau et al., 2015, A.2.2)
    AttentionKind attention = AttentionKind::kAdditive;

    int context_size() const { return 2 * encoder_hidden_size; }

    // Throws UsageError (or ModelFileError when from a file) naming the bad field.
    void validate() const;
};

nlohmann::json to_json(const ModelConfig& config);
// Throws ModelFileError naming the missing or bad field.
ModelConfig model_config_from_json(const nlohmann::json& json);

}  // namespace s2s
