// Padded, time-major batches of training examples (batch.h).
#include "train/batch.h"

#include "text/vocabulary.h"

#include <algorithm>

namespace s2s {
namespace {

void fill(TokenBatch& out, int length, int batch) {
    out.length = length;
    out.batch = batch;
    out.tokens.assign(static_cast<size_t>(length) * batch, Vocabulary::kPad);
    out.mask.assign(static_cast<size_t>(length) * batch, 0.0f);
}

}  // namespace

Batch make_batch(const std::vector<const Example*>& examples) {
    const int B = static_cast<int>(examples.size());
    size_t S = 1, T = 1;
    for (const Example* e : examples) {
        S = std::max(S, e->source.size());
        T = std::max(T, e->target.size());
    }
    Batch batch;
    fill(batch.source, static_cast<int>(S), B);
    fill(batch.target_inputs, static_cast<int>(T), B);
    fill(batch.target_outputs, static_cast<int>(T), B);
    for (int b = 0; b < B; ++b) {
        const Example& e = *examples[b];
        for (size_t t = 0; t < e.source.size(); ++t) {
            batch.source.tokens[t * B + b] = e.source[t];
            batch.source.mask[t * B + b] = 1.0f;
        }
        for (size_t t = 0; t < e.target.size(); ++t) {
            batch.target_inputs.tokens[t * B + b] = t == 0 ? Vocabulary::kBos : e.target[t - 1];
            batch.target_inputs.mask[t * B + b] = 1.0f;
            batch.target_outputs.tokens[t * B + b] = e.target[t];
            batch.target_outputs.mask[t * B + b] = 1.0f;
        }
        batch.target_tokens += static_cast<long>(e.target.size());
    }
    return batch;
}

}  // namespace s2s
