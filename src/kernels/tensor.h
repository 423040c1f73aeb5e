// Tensor types shared by the model, the decoder and the trainer.
//
// Shape legend (used in every shape comment of the project):
//   S  source length (tokens, including <eos>)   T  target length
//   B  batch (sentences trained on together)
//   E  embedding size        H  encoder hidden size per direction
//   C  context size = 2H     D  decoder hidden size
//   A  attention size        P  deep-output size
//   V  vocabulary size (Vs source, Vt target)
//   K  hypotheses decoded at once (beam search: the live hypotheses of one
//      sentence; the columns the inference kernels take)
// (The attention keys' row count has no letter: it is A, D or C by the
// scoring function, attention.h.)
//
// Matrices are column-major (Eigen's default) and a column is one example:
// activations of one time step are (dim, B). A whole sequence is stored time
// major, (dim, S * B) with column t * B + b, so the B columns of step t are
// one contiguous block (`time_block`).
#pragma once

#include <Eigen/Core>

namespace s2s {

using Matrix = Eigen::MatrixXf;
using Vector = Eigen::VectorXf;
using RowVector = Eigen::RowVectorXf;
using ConstMatrixRef = Eigen::Ref<const Matrix>;
using MatrixRef = Eigen::Ref<Matrix>;

// The (rows, B) block of step t of a time-major sequence.
inline auto time_block(Matrix& sequence, int t, int batch) { return sequence.middleCols(t * batch, batch); }
inline auto time_block(const Matrix& sequence, int t, int batch) { return sequence.middleCols(t * batch, batch); }

}  // namespace s2s
