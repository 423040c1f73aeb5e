// Operations on whole sets of weights (weight_operations.h).
#include "train/weight_operations.h"

#include "common/error.h"

#include <algorithm>

namespace s2s {

void copy_overlap(Parameters& into, const Parameters& from) {
    zip_tensors(into, from, [](Matrix& m, const Matrix& d) { m.topLeftCorner(d.rows(), d.cols()) = d; });
}

void interpolate_overlap(Parameters& into, const Parameters& other, float weight) {
    zip_tensors(into, other, [weight](Matrix& m, const Matrix& o) {
        const Eigen::Index rows = std::min(m.rows(), o.rows()), cols = std::min(m.cols(), o.cols());
        m.topLeftCorner(rows, cols) = (1.0f - weight) * m.topLeftCorner(rows, cols) + weight * o.topLeftCorner(rows, cols);
    });
}

long init_encoder_from(Model& model, const Model& donor, const std::string& donor_path) {
    const ModelConfig& a = model.config;
    const ModelConfig& b = donor.config;
    if (a.embedding_size != b.embedding_size || a.encoder_hidden_size != b.encoder_hidden_size ||
        donor.source_tokenizer.kind != model.source_tokenizer.kind) {
        throw UsageError("{init-encoder} " + donor_path + " has {embedding} " + std::to_string(b.embedding_size) +
                         " {hidden} " + std::to_string(b.encoder_hidden_size) +
                         "; use the same sizes (and the same kind of English tokens: pieces or words)");
    }
    model.params.encoder_forward = donor.params.encoder_forward;
    model.params.encoder_backward = donor.params.encoder_backward;
    long copied = 0;
    for (int id = 0; id < model.source_vocabulary.size(); ++id) {
        const int donor_id = id < Vocabulary::kNumSpecial ? id : donor.source_vocabulary.id(model.source_vocabulary.token(id));
        if (id >= Vocabulary::kNumSpecial && donor_id == Vocabulary::kUnk) continue;
        model.params.source_embedding.col(id) = donor.params.source_embedding.col(donor_id);
        ++copied;
    }
    return copied;
}

void init_model_from(Model& model, const Model& donor, const std::string& donor_path) {
    ModelConfig same = model.config;
    same.target_vocab_size = donor.config.target_vocab_size;
    if (to_json(same) != to_json(donor.config) || model.config.target_vocab_size < donor.config.target_vocab_size) {
        throw UsageError("{init-model} " + donor_path + " has other sizes than this run (its " +
                         to_json(donor.config).dump() + "); train with the size {flags} it was trained with");
    }
    copy_overlap(model.params, donor.params);
}

}  // namespace s2s
