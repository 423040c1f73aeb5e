// Operations on whole sets of weights, tensor by tensor: the pairing of two
// models' tensors that the optimizer, checkpoint averaging, a second stage
// of training (train --init-model, --init-encoder) and `seq2seq convert
// --interpolate` all walk, written once.
//
// Two Parameters of one configuration list the same tensors in the same
// order (for_each_tensor); a later training stage may have grown the target
// vocabulary at its end, so a tensor of one can be larger than its partner:
// the *_overlap operations act on the top-left corner the two share, and
// the rest (the grown tokens' rows or columns) keeps its values.
#pragma once

#include "model/model.h"
#include "model/parameters.h"

#include <string>
#include <vector>

namespace s2s {

// Calls fn(a's tensor, b's tensor) for each pair of tensors at the same
// place in for_each_tensor's order. `b` must list at least as many tensors.
template <typename Fn>
void zip_tensors(Parameters& a, const Parameters& b, Fn fn) {
    std::vector<const Matrix*> others;
    b.for_each_tensor([&](const std::string&, const Matrix& m) { others.push_back(&m); });
    size_t index = 0;
    a.for_each_tensor([&](const std::string&, Matrix& m) { fn(m, *others[index++]); });
}

// into's corner shared with `from` takes from's values: all of a tensor but
// the rows or columns of a grown target vocabulary. `from` is no larger.
void copy_overlap(Parameters& into, const Parameters& from);

// into = (1 - weight) into + weight other, on the corner the two share.
void interpolate_overlap(Parameters& into, const Parameters& other, float weight);

// Transfer learning for a small corpus: the English encoder of a model
// trained on more data (its GRUs, and the source embedding of every token
// the donor knows). Returns how many source embeddings were copied. Throws
// UsageError (naming train's --init-encoder) when the sizes or the kind of
// English tokens differ.
long init_encoder_from(Model& model, const Model& donor, const std::string& donor_path);

// A second stage of training: every weight from a model of `model`'s
// configuration, whose target vocabulary may have grown at its end (those
// rows keep their start). Throws UsageError (naming train's --init-model)
// for other sizes.
void init_model_from(Model& model, const Model& donor, const std::string& donor_path);

}  // namespace s2s
