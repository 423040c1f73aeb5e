// The decoder step's matrices in int8 (int8_kernels.h), for a model whose
// file stores its weights as int8. They belong to the loaded Model
// (model.h: Model::int8_step), which fills them at load; decoding reads them
// (decoder_step) in place of the float matrices; training never sees them:
// the Trainer refuses a translation-only model and drops them from any other
// before its first update (train/trainer.h).
#pragma once

#include "model/int8_kernels.h"

namespace s2s {

// Each is empty when the file stores that matrix as float, or when it is too
// wide to pack (kMaxInt8Columns); decoder_step then uses the float matrix.
struct Int8StepWeights {
    Int8Matrix attention_query;        // W_q (A, D), additive attention only
    Int8Matrix decoder_input;          // the decoder GRU's W_x (3D, E + C)
    Int8Matrix decoder_state;          // the decoder GRU's W_h (3D, D)
    Int8Matrix output_hidden_weights;  // W_p (P, D + C + E)
    Int8Matrix output_weights;         // W_o (Vt, P)

    bool empty() const {
        return attention_query.empty() && decoder_input.empty() && decoder_state.empty() &&
               output_hidden_weights.empty() && output_weights.empty();
    }
};

}  // namespace s2s
