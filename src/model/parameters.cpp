// Parameters (parameters.h): the shape of every tensor, zero and random
// initialization (the generator is common/random.h).
#include "model/parameters.h"

#include <cmath>

namespace s2s {

namespace {

void add_gru(std::vector<TensorShape>& shapes, const std::string& prefix, int input, int hidden) {
    shapes.push_back({prefix + ".input_weights", 3 * hidden, input});
    shapes.push_back({prefix + ".state_weights", 3 * hidden, hidden});
    shapes.push_back({prefix + ".input_bias", 3 * hidden, 1});
    shapes.push_back({prefix + ".state_bias", 3 * hidden, 1});
}

}  // namespace

long Parameters::count() const {
    long total = 0;
    for_each_tensor([&](const std::string&, const Matrix& m) { total += m.size(); });
    return total;
}

std::vector<TensorShape> parameter_shapes(const ModelConfig& config) {
    const int E = config.embedding_size, H = config.encoder_hidden_size, C = config.context_size();
    const int D = config.decoder_hidden_size, A = config.attention_size, P = config.output_hidden_size;
    std::vector<TensorShape> shapes = {
        {"source_embedding", E, config.source_vocab_size},
        {"target_embedding", E, config.target_vocab_size},
    };
    add_gru(shapes, "encoder_forward", E, H);
    add_gru(shapes, "encoder_backward", E, H);
    shapes.push_back({"init_weights", D, C});
    shapes.push_back({"init_bias", D, 1});
    switch (config.attention) {
        case AttentionKind::kAdditive:
            shapes.push_back({"attention_query", A, D});
            shapes.push_back({"attention_key", A, C});
            shapes.push_back({"attention_vector", A, 1});
            break;
        case AttentionKind::kGeneral:
            shapes.push_back({"attention_key", D, C});
            break;
        case AttentionKind::kDot:
        case AttentionKind::kScaledDot:
        case AttentionKind::kNone:
            break;  // no attention parameters
    }
    add_gru(shapes, "decoder", E + C, D);
    shapes.push_back({"output_hidden_weights", P, D + C + E});
    shapes.push_back({"output_hidden_bias", P, 1});
    shapes.push_back({"output_weights", config.target_vocab_size, P});
    shapes.push_back({"output_bias", config.target_vocab_size, 1});
    return shapes;
}

Parameters zero_parameters(const ModelConfig& config) {
    const std::vector<TensorShape> shapes = parameter_shapes(config);
    Parameters p;
    size_t next = 0;
    p.for_each_tensor([&](const std::string& name, Matrix& m) {
        if (next < shapes.size() && shapes[next].name == name) {
            m = Matrix::Zero(shapes[next].rows, shapes[next].cols);
            ++next;
        } else {
            m.resize(0, 0);
        }
    });
    return p;
}

Parameters random_parameters(const ModelConfig& config, uint64_t seed) {
    Parameters p = zero_parameters(config);
    Random random(seed);
    p.for_each_tensor([&](const std::string& name, Matrix& m) {
        if (m.cols() == 1 && name != "attention_vector") return;  // biases start at zero
        float limit = std::sqrt(6.0f / static_cast<float>(m.rows() + m.cols()));
        if (name == "source_embedding" || name == "target_embedding") limit = 0.1f;
        for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = random.uniform(-limit, limit);
    });
    // Update-gate bias +1: z near sigmoid(1) keeps more of the previous state.
    const int H = config.encoder_hidden_size, D = config.decoder_hidden_size;
    p.encoder_forward.input_bias.middleRows(H, H).setConstant(1.0f);
    p.encoder_backward.input_bias.middleRows(H, H).setConstant(1.0f);
    p.decoder.input_bias.middleRows(D, D).setConstant(1.0f);
    return p;
}

}  // namespace s2s
