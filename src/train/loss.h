// Masked cross-entropy and the full forward/backward pass of one batch.
#pragma once

#include "model/parameters.h"
#include "train/batch.h"

namespace s2s {

// Sum over real target positions of -log softmax(logits)[target]
// (logits (Vt, T * B)). With d_logits != nullptr, writes
// scale * dLoss/dlogits, zero on padding. Label smoothing eps spreads eps of
// the target mass uniformly (Szegedy et al., 2016), which the returned loss
// includes. With teacher_logits (same shape), each position's training
// distribution is (1 - teacher_weight) times that label-smoothed reference
// plus teacher_weight times softmax(teacher_logits): word-level knowledge
// distillation (Hinton et al., 2015; Kim and Rush, 2016). The loss is the
// cross-entropy against that mixture.
double cross_entropy(const Matrix& logits, const TokenBatch& targets, float scale, float label_smoothing,
                     Matrix* d_logits, const Matrix* teacher_logits = nullptr, float teacher_weight = 0.0f);

struct Model;

struct LossOptions {
    float dropout = 0.0f;           // on embeddings and the deep output
    float label_smoothing = 0.0f;
    float scale = 1.0f;             // gradients are of scale * summed loss
    // Word-level distillation: the teacher reads the same batch (teacher
    // forcing, no dropout) and its softmax takes teacher_weight of each
    // position's target distribution (cross_entropy). It must have the
    // student's vocabularies; any sizes and attention of its own.
    const Model* teacher = nullptr;
    float teacher_weight = 0.0f;
};

// Forward and backward through encoder, decoder and loss; accumulates (+=)
// scale * gradients into grad and returns the summed loss. random may be
// null (no dropout).
double loss_and_gradients(const Parameters& params, const ModelConfig& config, const Batch& batch,
                          const LossOptions& options, Random* random, Parameters& grad);

// The loss alone (no dropout), for gradient checks and validation.
double batch_loss(const Parameters& params, const ModelConfig& config, const Batch& batch, float label_smoothing = 0.0f);

}  // namespace s2s
