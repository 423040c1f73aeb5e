// Masked cross-entropy and the full forward/backward pass of one batch.
#pragma once

#include "model/parameters.h"
#include "train/batch.h"

namespace s2s {

// Sum over real target positions of -log softmax(logits)[target]
// (logits (Vt, T * B)). With d_logits != nullptr, writes
// scale * dLoss/dlogits, zero on padding. Label smoothing eps spreads eps of
// the target mass uniformly (Szegedy et al., 2016), which the returned loss
// includes.
double cross_entropy(const Matrix& logits, const TokenBatch& targets, float scale, float label_smoothing,
                     Matrix* d_logits);

struct LossOptions {
    float dropout = 0.0f;           // on embeddings and the deep output
    float label_smoothing = 0.0f;
    float scale = 1.0f;             // gradients are of scale * summed loss
};

// Forward and backward through encoder, decoder and loss; accumulates (+=)
// scale * gradients into grad and returns the summed loss. random may be
// null (no dropout).
double loss_and_gradients(const Parameters& params, const ModelConfig& config, const Batch& batch,
                          const LossOptions& options, Random* random, Parameters& grad);

// The loss alone (no dropout), for gradient checks and validation.
double batch_loss(const Parameters& params, const ModelConfig& config, const Batch& batch, float label_smoothing = 0.0f);

}  // namespace s2s
