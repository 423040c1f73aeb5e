// The decoder step's matrices in int8 (int8_kernels.h), for a model whose
// file stores its weights as int8. They belong to the loaded Model
// (model.h: Model::int8_step), which fills them at load; decoding reads them
// (decoder_step) in place of the float matrices; training never sees them:
// the Trainer refuses a translation-only model and drops them from any other
// before its first update (train/trainer.h).
#pragma once

#include "kernels/int8_kernels.h"

#include <memory>

namespace s2s {

// An embedding matrix (E, V), column t = token t's embedding, kept as an
// int8 file stores it: E rows of V values, one float scale per row. Column
// t is values[d * V + t] * scales[d], d < E: the floats a decode at load
// would have made, made for the tokens a sentence uses only. `values` and
// `scales` point into `storage`: the model file's bytes themselves when the
// model was loaded from bytes it owns (model_from_owned_bytes), else a copy.
// A model load thus decodes nothing of 1.15 million values (for en-fr), and
// the heap holds a quarter of the floats' bytes.
struct Int8Embedding {
    int rows = 0;  // E
    int cols = 0;  // V
    const float* scales = nullptr;   // (E)
    const int8_t* values = nullptr;  // E * V, row-major
    std::shared_ptr<const void> storage;
    bool empty() const { return rows == 0; }
    // Token `id`'s embedding into out[0..E).
    void column(int id, float* out) const {
        const int8_t* value = values + id;
        for (int d = 0; d < rows; ++d, value += cols) out[d] = static_cast<float>(*value) * scales[d];
    }
};

// Each is empty when the file stores that matrix as float, or when it is too
// wide to pack (kMaxInt8Columns); decoder_step then uses the float matrix.
// The embeddings are kept only by a translation-only model (LoadFor::kTranslation).
struct Int8StepWeights {
    Int8Matrix attention_query;        // W_q (A, D), additive attention only
    Int8Matrix decoder_input;          // the decoder GRU's W_x (3D, E + C)
    Int8Matrix decoder_state;          // the decoder GRU's W_h (3D, D)
    Int8Matrix output_hidden_weights;  // W_p (P, D + C + E)
    Int8Matrix output_weights;         // W_o (Vt, P)
    Int8Embedding source_embedding;    // (E, Vs): encoder_forward reads it
    Int8Embedding target_embedding;    // (E, Vt): decoder_step reads it

    bool empty() const {
        return attention_query.empty() && decoder_input.empty() && decoder_state.empty() &&
               output_hidden_weights.empty() && output_weights.empty() && source_embedding.empty() &&
               target_embedding.empty();
    }
};

}  // namespace s2s
