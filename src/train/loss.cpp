// The loss (loss.h): masked, label-smoothed cross-entropy and the whole
// forward and backward pass of a batch.
#include "train/loss.h"

#include "model/decoder.h"
#include "model/model.h"

#include <cmath>

namespace s2s {

double cross_entropy(const Matrix& logits, const TokenBatch& targets, float scale, float label_smoothing,
                     Matrix* d_logits, const Matrix* teacher_logits, float teacher_weight) {
    const bool distilling = teacher_logits != nullptr && teacher_weight > 0.0f;
    Eigen::VectorXf teacher_probabilities;
    const Eigen::Index V = logits.rows();
    double total = 0.0;
    // Every real column of d_logits is written below; only padding columns
    // need zeros (zeroing all of it was a tenth of a training step).
    if (d_logits != nullptr) d_logits->resize(V, logits.cols());
    for (Eigen::Index k = 0; k < logits.cols(); ++k) {
        if (targets.mask[k] == 0.0f) {
            if (d_logits != nullptr) d_logits->col(k).setZero();
            continue;
        }
        const auto column = logits.col(k);
        const float max_logit = column.maxCoeff();
        const double log_total = std::log(static_cast<double>((column.array() - max_logit).exp().sum())) + max_logit;
        const int target = targets.tokens[k];
        double nll = log_total - column(target);
        if (label_smoothing > 0.0f) {
            const double mean_nll = log_total - static_cast<double>(column.mean());
            nll = (1.0 - label_smoothing) * nll + label_smoothing * mean_nll;
        }
        if (distilling) {
            const auto teacher = teacher_logits->col(k);
            teacher_probabilities = (teacher.array() - teacher.maxCoeff()).exp().matrix();
            teacher_probabilities /= teacher_probabilities.sum();
            const double teacher_nll = log_total - static_cast<double>(teacher_probabilities.dot(column));
            nll = (1.0 - teacher_weight) * nll + teacher_weight * teacher_nll;
        }
        total += nll;
        if (d_logits != nullptr) {
            auto d = d_logits->col(k);
            d = ((column.array() - static_cast<float>(log_total)).exp()).matrix();
            const float reference_share = distilling ? 1.0f - teacher_weight : 1.0f;
            d(target) -= reference_share * (1.0f - label_smoothing);
            if (label_smoothing > 0.0f) d.array() -= reference_share * label_smoothing / static_cast<float>(V);
            if (distilling) d -= teacher_weight * teacher_probabilities;
            d *= scale;
        }
    }
    return total;
}

double loss_and_gradients(const Parameters& params, const ModelConfig& config, const Batch& batch,
                          const LossOptions& options, Random* random, Parameters& grad) {
    EncoderActivations encoder;
    encoder_forward(params, config, batch.source, options.dropout, random, encoder);
    DecoderActivations decoder;
    decoder_forward(params, config, encoder, batch.target_inputs, options.dropout, random, decoder);
    Matrix teacher_logits;
    if (options.teacher != nullptr && options.teacher_weight > 0.0f) {
        EncoderActivations teacher_encoder;
        encoder_forward(options.teacher->params, options.teacher->config, batch.source, 0.0f, nullptr, teacher_encoder);
        DecoderActivations teacher_decoder;
        decoder_forward(options.teacher->params, options.teacher->config, teacher_encoder, batch.target_inputs, 0.0f,
                        nullptr, teacher_decoder);
        teacher_logits = std::move(teacher_decoder.logits);
    }
    Matrix d_logits;
    const double loss = cross_entropy(decoder.logits, batch.target_outputs, options.scale, options.label_smoothing,
                                      &d_logits, teacher_logits.size() > 0 ? &teacher_logits : nullptr,
                                      options.teacher_weight);
    Matrix d_states, d_final;
    decoder_backward(params, config, encoder, decoder, d_logits, d_states, d_final, grad);
    encoder_backward(params, config, encoder, d_states, d_final, grad);
    return loss;
}

double batch_loss(const Parameters& params, const ModelConfig& config, const Batch& batch, float label_smoothing) {
    EncoderActivations encoder;
    encoder_forward(params, config, batch.source, 0.0f, nullptr, encoder);
    DecoderActivations decoder;
    decoder_forward(params, config, encoder, batch.target_inputs, 0.0f, nullptr, decoder);
    return cross_entropy(decoder.logits, batch.target_outputs, 1.0f, label_smoothing, nullptr);
}

}  // namespace s2s
