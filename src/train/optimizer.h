// Adam (Kingma & Ba, 2015, Algorithm 1) with global gradient-norm clipping
// (Pascanu et al., 2013, section 3.2). The moments are Parameters, like the
// gradients, so the update is one loop over for_each_tensor.
#pragma once

#include "model/parameters.h"

namespace s2s {

struct AdamOptions {
    float learning_rate = 1e-3f;
    float beta1 = 0.9f;
    float beta2 = 0.999f;
    float epsilon = 1e-8f;
};

struct AdamState {
    Parameters first_moment;   // m, same shapes as the parameters
    Parameters second_moment;  // v
    long step = 0;             // updates done (for bias correction)
};

AdamState make_adam_state(const ModelConfig& config);

// Scales grad so its global L2 norm is at most max_norm (<= 0: no clipping).
// Returns the norm before clipping.
double clip_gradient_norm(Parameters& grad, double max_norm);

void adam_update(Parameters& params, const Parameters& grad, AdamState& state, const AdamOptions& options);

void set_zero(Parameters& tensors);
// a += b, tensor by tensor.
void add_into(Parameters& a, const Parameters& b);

}  // namespace s2s
