// The model configuration (config.h): attention kind names, validation,
// and the JSON of the model file header.
#include "model/config.h"

#include "common/error.h"

#include <array>
#include <utility>

namespace s2s {
namespace {

const std::array<std::pair<AttentionKind, const char*>, 5> kAttentionNames = {{
    {AttentionKind::kAdditive, "additive"},
    {AttentionKind::kDot, "dot"},
    {AttentionKind::kScaledDot, "scaled-dot"},
    {AttentionKind::kGeneral, "general"},
    {AttentionKind::kNone, "none"},
}};

// Sizes beyond this would not fit a browser; refusing them early also keeps
// a corrupted header from asking for gigabytes.
constexpr int kMaxSize = 1 << 20;

void check_size(const char* field, int value, int min_value) {
    if (value < min_value || value > kMaxSize) {
        throw UsageError(std::string("model config: ") + field + " = " + std::to_string(value) + " is out of range; it must be between " +
                         std::to_string(min_value) + " and " + std::to_string(kMaxSize));
    }
}

}  // namespace

std::string attention_kind_name(AttentionKind kind) {
    for (const auto& [k, name] : kAttentionNames) {
        if (k == kind) return name;
    }
    return "unknown";
}

AttentionKind attention_kind_from_name(const std::string& name) {
    for (const auto& [k, n] : kAttentionNames) {
        if (name == n) return k;
    }
    throw UsageError("unknown attention '" + name + "'; use one of: additive, dot, scaled-dot, general, none");
}

void ModelConfig::validate() const {
    // Four special tokens plus at least one real one.
    check_size("source_vocab_size", source_vocab_size, 5);
    check_size("target_vocab_size", target_vocab_size, 5);
    check_size("embedding_size", embedding_size, 1);
    check_size("encoder_hidden_size", encoder_hidden_size, 1);
    check_size("decoder_hidden_size", decoder_hidden_size, 1);
    check_size("attention_size", attention_size, 1);
    check_size("output_hidden_size", output_hidden_size, 1);
    if ((attention == AttentionKind::kDot || attention == AttentionKind::kScaledDot) &&
        decoder_hidden_size != context_size()) {
        throw UsageError("model config: '" + attention_kind_name(attention) +
                         "' attention compares the decoder state with the encoder states directly, so "
                         "decoder_hidden_size (" + std::to_string(decoder_hidden_size) +
                         ") must equal 2 * encoder_hidden_size (" + std::to_string(context_size()) +
                         "); change one of them or use 'additive' or 'general'");
    }
}

nlohmann::json to_json(const ModelConfig& config) {
    return {
        {"source_vocab_size", config.source_vocab_size},
        {"target_vocab_size", config.target_vocab_size},
        {"embedding_size", config.embedding_size},
        {"encoder_hidden_size", config.encoder_hidden_size},
        {"decoder_hidden_size", config.decoder_hidden_size},
        {"attention_size", config.attention_size},
        {"output_hidden_size", config.output_hidden_size},
        {"attention", attention_kind_name(config.attention)},
    };
}

ModelConfig model_config_from_json(const nlohmann::json& json) {
    if (!json.is_object()) throw ModelFileError("model header: 'config' must be an object");
    auto get_int = [&](const char* field) {
        auto it = json.find(field);
        if (it == json.end() || !it->is_number_integer()) {
            throw ModelFileError(std::string("model header: config.") + field + " is missing or not an integer");
        }
        auto value = it->get<long long>();
        if (value < 0 || value > kMaxSize) {
            throw ModelFileError(std::string("model header: config.") + field + " = " + std::to_string(value) + " is out of range");
        }
        return static_cast<int>(value);
    };
    ModelConfig config;
    config.source_vocab_size = get_int("source_vocab_size");
    config.target_vocab_size = get_int("target_vocab_size");
    config.embedding_size = get_int("embedding_size");
    config.encoder_hidden_size = get_int("encoder_hidden_size");
    config.decoder_hidden_size = get_int("decoder_hidden_size");
    config.attention_size = get_int("attention_size");
    config.output_hidden_size = get_int("output_hidden_size");
    auto it = json.find("attention");
    if (it == json.end() || !it->is_string()) throw ModelFileError("model header: config.attention is missing or not a string");
    try {
        config.attention = attention_kind_from_name(it->get<std::string>());
        config.validate();
    } catch (const UsageError& e) {
        throw ModelFileError(std::string("model header: ") + e.what());
    }
    return config;
}

}  // namespace s2s
