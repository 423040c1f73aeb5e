// What a translation carries of its own decoding when asked for it: the best
// hypothesis's decoder trace (DecodeOptions::trace) and the beam search tree
// (DecodeOptions::beam_tree), as typed fields of Translation (translator.h):
// the search's records (trace.h), moved, with their tokens as text. And the
// one way they are written (to_json, translator.h, calls trace_json and
// beam_tree_json): every float either as a JSON number (the CLI's --json,
// --trace, --beam-tree) or packed into one float array, the JSON holding
// only where each sits (the WebAssembly modules: src/wasm/translation.js
// reads the array as one Float32Array and the JSON for the places).
#pragma once

#include "decode/trace.h"
#include "kernels/tensor.h"
#include "model/config.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace s2s {

class Vocabulary;

// The best hypothesis's decoder trace (trace.h has the maths): once per
// sentence the keys and the encoder states, then one step per target token.
struct TranslationTrace {
    struct Piece {
        std::string token;
        float probability = 0.0f;  // p(token | ...), after <pad> and <bos> are ruled out
    };
    struct Step : TraceVectors {   // previous_state, query, scores, weights, context
        std::vector<Piece> top;    // kTraceTopK, most likely first
    };
    AttentionKind scoring = AttentionKind::kNone;  // the model's scoring function (trace_scoring_name)
    float temperature = 1.0f;  // tau of the weights' softmax (DecodeOptions::temperature)
    Matrix keys;               // (key size, S); empty for the fixed-context model
    Matrix states;             // H (C, S)
    std::vector<Step> steps;   // one per target token of the best hypothesis, <eos> included
};

// One candidate of one step of the beam search: BeamNode (trace.h) with its token as text.
struct BeamTreeNode {
    std::string token;
    int parent = -1;               // index into the previous step's nodes; -1 at the first step (<bos>)
    double score = 0.0;            // cumulative log probability of the hypothesis ending here
    bool kept = false;             // survived the step (finished with <eos>, or live)
    std::vector<float> attention;  // kept nodes of a model with attention: the row a_t that chose the token (S)
};
using BeamTree = std::vector<std::vector<BeamTreeNode>>;  // per output step, every candidate, best first

// From the search's records, moved (no float is copied): `sentence`'s keys
// and states and `steps` (the best hypothesis's Hypothesis::trace).
TranslationTrace name_trace(AttentionKind scoring, float temperature, DecodeTrace& sentence, std::vector<TraceStep>&& steps,
                            const Vocabulary& target);
// From DecodeTrace::beam_tree, moved.
BeamTree name_beam_tree(std::vector<std::vector<BeamNode>>&& tree, const Vocabulary& target);

// How trace_json, beam_tree_json and to_json's hypotheses (translator.h)
// write numbers. Without a float array each number is a JSON number (a
// float32 as the double it equals). With one, every number is appended to
// it and the JSON holds its place instead:
// a vector [offset, length], a float32 its offset, a float64 the offset of
// its 8 bytes (two slots of the array, the double's bytes as they lie in
// memory: little-endian in WebAssembly, read with a DataView). Printing
// thousands of floats as text and parsing them again cost more than the
// decoding; one array is copied out of the heap at once.
class NumberWriter {
public:
    explicit NumberWriter(std::vector<float>* packed = nullptr) : packed_(packed) {}
    nlohmann::json floats(const float* data, size_t size);
    nlohmann::json floats(const std::vector<float>& values) { return floats(values.data(), values.size()); }
    nlohmann::json float32(float value);
    nlohmann::json float64(double value);

private:
    std::vector<float>* packed_;
};

// {"scoring", "temperature", "keys": [S vectors of key size] (null for the
//  fixed-context model), "states": [S vectors of C],
//  "steps": [{"previousState", "query", "scores", "weights", "context",
//             "top": [{"token", "probability"}]}]}
// (query, scores and weights null for the fixed-context model).
nlohmann::json trace_json(const TranslationTrace& trace, NumberWriter& numbers);

// [[{"token", "parent", "score", "kept", "attention"}, ...], ...] per step
// (attention only on the nodes that carry one).
nlohmann::json beam_tree_json(const BeamTree& tree, NumberWriter& numbers);

}  // namespace s2s
