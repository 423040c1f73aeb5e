// Adam and gradient-norm clipping (optimizer.h), one loop over the tensors.
#include "train/optimizer.h"

#include "train/weight_operations.h"

#include <cmath>
#include <vector>

namespace s2s {
namespace {

std::vector<Matrix*> tensors_of(Parameters& p) {
    std::vector<Matrix*> out;
    p.for_each_tensor([&](const std::string&, Matrix& m) { out.push_back(&m); });
    return out;
}

std::vector<const Matrix*> tensors_of(const Parameters& p) {
    std::vector<const Matrix*> out;
    p.for_each_tensor([&](const std::string&, const Matrix& m) { out.push_back(&m); });
    return out;
}

}  // namespace

AdamState make_adam_state(const ModelConfig& config) {
    return {zero_parameters(config), zero_parameters(config), 0};
}

void set_zero(Parameters& tensors) {
    tensors.for_each_tensor([](const std::string&, Matrix& m) { m.setZero(); });
}

void add_into(Parameters& a, const Parameters& b) {
    zip_tensors(a, b, [](Matrix& into, const Matrix& from) { into += from; });
}

double clip_gradient_norm(Parameters& grad, double max_norm) {
    double squared = 0.0;
    grad.for_each_tensor([&](const std::string&, const Matrix& m) { squared += static_cast<double>(m.squaredNorm()); });
    const double norm = std::sqrt(squared);
    if (max_norm > 0.0 && norm > max_norm) {
        const float scale = static_cast<float>(max_norm / norm);
        grad.for_each_tensor([&](const std::string&, Matrix& m) { m *= scale; });
    }
    return norm;
}

void adam_update(Parameters& params, const Parameters& grad, AdamState& state, const AdamOptions& options) {
    ++state.step;
    const float correction1 = 1.0f - std::pow(options.beta1, static_cast<float>(state.step));
    const float correction2 = 1.0f - std::pow(options.beta2, static_cast<float>(state.step));
    const float step_size = options.learning_rate * std::sqrt(correction2) / correction1;
    auto p = tensors_of(params);
    auto g = tensors_of(grad);
    auto m = tensors_of(state.first_moment);
    auto v = tensors_of(state.second_moment);
    for (size_t i = 0; i < p.size(); ++i) {
        m[i]->array() = options.beta1 * m[i]->array() + (1.0f - options.beta1) * g[i]->array();
        v[i]->array() = options.beta2 * v[i]->array() + (1.0f - options.beta2) * g[i]->array().square();
        // The epsilon-hat form of the paper's section 2 (bias correction folded into the step size).
        p[i]->array() -= step_size * m[i]->array() / (v[i]->array().sqrt() + options.epsilon);
    }
}

}  // namespace s2s
