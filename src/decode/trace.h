// The decoder trace: for each output step t of a hypothesis, the numbers the
// decoder computed on its way to that step's token, captured where they are
// computed (decoder_step, attention_step_inference), never recomputed:
//   previous_state  s_{t-1}                    (D)
//   query           what the keys are scored against (A for additive:
//                   W_q s_{t-1}; D for dot, scaled dot and general: s_{t-1})
//   scores          e_t, the scoring function's own formula (S):
//                   additive   e_ti = v . tanh(W_q s_{t-1} + W_k H_i)
//                   dot        e_ti = s_{t-1} . H_i
//                   scaled dot e_ti = s_{t-1} . H_i / sqrt(C)
//                   general    e_ti = s_{t-1} . (W_k H_i)
//   weights         a_t = softmax(e_t / tau)   (S; tau: DecodeOptions::temperature)
//   context         c_t = sum_i a_ti H_i       (C; the final encoder state
//                   for the fixed-context model, which has no scores or weights)
//   top             the kTraceTopK most likely next pieces, with probabilities
// and once per sentence (DecodeTrace) the keys (key size, S: W_k H for
// additive and general, H itself for dot and scaled dot) and the encoder
// states H (C, S). Numbers are float32, after int8 dequantization for an
// int8 model. With a beam, every live hypothesis carries its own records
// (appended as its attention rows are), so the chosen hypothesis's trace is
// the one that produced its tokens.
//
// The beam tree (DecodeOptions::beam_tree): per step, every candidate the
// search considered, kept or pruned, with its parent among the previous
// step's nodes, so that a page can draw the search.
//
// These are the search's records, tokens as ids; a Translation carries them
// with their tokens as text (translation_trace.h), which is what clients read.
#pragma once

#include "model/config.h"
#include "kernels/tensor.h"

#include <string>
#include <vector>

namespace s2s {

struct DecoderStep;
struct EncodedSource;

// Next pieces listed per trace step: enough to see what the model hesitated
// between without growing the trace much.
inline constexpr int kTraceTopK = 5;

struct TracePiece {
    int token = 0;
    float probability = 0.0f;  // p(token | ...), after <pad> and <bos> are ruled out
};

// A step's vectors: what the search records and what a translation's trace
// carries (TranslationTrace::Step, translation_trace.h), the same.
struct TraceVectors {
    std::vector<float> previous_state;  // s_{t-1} (D)
    std::vector<float> query;           // (A) or (D); empty for the fixed-context model
    std::vector<float> scores;          // e_t (S); empty for the fixed-context model
    std::vector<float> weights;         // a_t (S); empty for the fixed-context model
    std::vector<float> context;         // c_t (C)
};

struct TraceStep : TraceVectors {
    std::vector<TracePiece> top;        // kTraceTopK, most likely first
};

struct BeamNode {
    int token = 0;
    int parent = -1;              // index into the previous step's nodes; -1 at the first step (the root, <bos>)
    double score = 0.0;           // cumulative log probability of the hypothesis ending here
    bool kept = false;            // survived the step (finished with <eos>, or live)
    std::vector<float> attention; // kept nodes: the attention row a_t that led to this token (S); else empty
};

// What a decode records once per sentence when asked (search.h, decode()).
struct DecodeTrace {
    Matrix keys;    // (key size, S), with DecodeOptions::trace; empty for the fixed-context model
    Matrix states;  // H (C, S), with DecodeOptions::trace
    std::vector<std::vector<BeamNode>> beam_tree;  // per step, with DecodeOptions::beam_tree
};

// The trace record of hypothesis `column` of a decoder step that was run
// with step.record_scores on. previous_states: s_{t-1} (D, K), the step's
// input. top: the next pieces (the search's own top-k of the step's log
// probabilities, <pad> and <bos> ruled out).
TraceStep make_trace_step(const ModelConfig& config, const EncodedSource& source, const Matrix& previous_states,
                          const DecoderStep& step, int column, std::vector<TracePiece> top);

// The scoring function's name as the trace reports it: "additive", "dot",
// "scaled-dot", "general" or "none".
std::string trace_scoring_name(AttentionKind kind);

}  // namespace s2s
