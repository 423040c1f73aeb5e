#include "model/parameters.h"

#include <cmath>

namespace s2s {

uint64_t Random::next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

float Random::uniform() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }

namespace {

void shape_gru(GruWeights& gru, int input, int hidden) {
    gru.input_weights = Matrix::Zero(3 * hidden, input);
    gru.state_weights = Matrix::Zero(3 * hidden, hidden);
    gru.input_bias = Matrix::Zero(3 * hidden, 1);
    gru.state_bias = Matrix::Zero(3 * hidden, 1);
}

}  // namespace

long Parameters::count() const {
    long total = 0;
    for_each_tensor([&](const std::string&, const Matrix& m) { total += m.size(); });
    return total;
}

Parameters zero_parameters(const ModelConfig& config) {
    const int E = config.embedding_size, H = config.encoder_hidden_size, C = config.context_size();
    const int D = config.decoder_hidden_size, A = config.attention_size, P = config.output_hidden_size;
    Parameters p;
    p.source_embedding = Matrix::Zero(E, config.source_vocab_size);
    p.target_embedding = Matrix::Zero(E, config.target_vocab_size);
    shape_gru(p.encoder_forward, E, H);
    shape_gru(p.encoder_backward, E, H);
    p.init_weights = Matrix::Zero(D, C);
    p.init_bias = Matrix::Zero(D, 1);
    switch (config.attention) {
        case AttentionKind::kAdditive:
            p.attention_query = Matrix::Zero(A, D);
            p.attention_key = Matrix::Zero(A, C);
            p.attention_vector = Matrix::Zero(A, 1);
            break;
        case AttentionKind::kGeneral:
            p.attention_key = Matrix::Zero(D, C);
            break;
        case AttentionKind::kDot:
        case AttentionKind::kScaledDot:
        case AttentionKind::kNone:
            break;
    }
    shape_gru(p.decoder, E + C, D);
    p.output_hidden_weights = Matrix::Zero(P, D + C + E);
    p.output_hidden_bias = Matrix::Zero(P, 1);
    p.output_weights = Matrix::Zero(config.target_vocab_size, P);
    p.output_bias = Matrix::Zero(config.target_vocab_size, 1);
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
