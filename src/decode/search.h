// Greedy and beam search over the decoder, returning for every hypothesis
// its tokens, its attention matrix and its scores.
#pragma once

#include "decode/attention_matrix.h"
#include "common/limits.h"
#include "decode/shortlist.h"
#include "decode/trace.h"
#include "model/config.h"
#include "kernels/int8_step_weights.h"
#include "model/parameters.h"

#include <functional>
#include <vector>

namespace s2s {

// Each initializer here is the option's default everywhere: the CLI's, and
// through the option table (option_ranges.h, which also holds each numeric
// field's range) the WebAssembly modules' and the JavaScript API's.
struct DecodeOptions {
    // 1 = greedy; at most kMaxBeamSize (limits.h, as every bound here). Beam 4
    // by default: on the development splits it scores 2.7 to 6.2 BLEU above
    // greedy (README's tables) and repairs long sentences that greedy
    // decoding turns to nonsense, for a first heatmap within 10% of greedy's
    // (bench/cold-start.md). Training's own development scores stay greedy.
    int beam_size = 4;
    int max_length = 0;    // output tokens including <eos>; 0 = 2 * source length + 10; at most kMaxOutputLength
    // Tokens forced at the start of the output (the page's "what if": choose
    // another word at position t and decode the rest from there).
    std::vector<int> forced_prefix;
    // For each output position, also return the k most likely tokens the
    // model considered there (0 = none; at most kMaxAlternatives).
    int alternatives = 0;
    // How beam search ranks its finished hypotheses (Wu et al., 2016,
    // "Google's Neural Machine Translation System", eq. 14):
    //   score = log P(Y|X) / lp(Y) + cp(X; Y)
    //   lp(Y) = ((5 + |Y|) / 6)^alpha               length normalization
    //   cp    = beta * sum_i log(min(sum_t a_ti, 1)) coverage penalty
    // alpha = 0 ranks by raw log probability, which favours short outputs;
    // beta > 0 penalizes source words that received little attention in
    // all (a dropped clause). The defaults were chosen on the development
    // splits (README, "Beam search"). Greedy decoding ignores both.
    float length_penalty = kDefaultLengthPenalty;     // alpha, 0..kMaxPenalty
    float coverage_penalty = kDefaultCoveragePenalty; // beta, 0..kMaxPenalty

    // Temperature tau of the attention softmax, a_t = softmax(e_t / tau),
    // kMinTemperature..kMaxTemperature. 1 (the default) is the trained model
    // and takes exactly the code path it took before the option existed.
    float temperature = 1.0f;
    // Record a decoder trace of every hypothesis (Hypothesis::trace, and the
    // sentence's keys and states in DecodeTrace): trace.h. Off costs nothing.
    bool trace = false;
    // Record the beam search tree (DecodeTrace::beam_tree): every candidate
    // of every step, kept or pruned. Meaningful for beam_size > 1.
    bool beam_tree = false;
    // Use the model's lexical shortlist, when it has one and its output layer
    // is int8 (src/decode/shortlist.h): the output layer and the softmax over
    // the sentence's candidate pieces only. Off computes every row.
    bool shortlist = true;
    // Write the source's names and numbers as the source spells them:
    // lowercased names recased, and a name the model could not translate
    // (its aligned words unsure) copied through (src/decode/names.h).
    // Applied by translate() (translator.h) after the search.
    bool keep_names = true;

    // Greedy decoding (beam_size 1) calls it after each output step, as the
    // decoder writes: the token chosen, its log probability, and its
    // attention row (`columns` weights; null and 0 for the fixed-context
    // baseline), valid during the call only. Beam search never calls it
    // (the best hypothesis is known only at the end). Empty: not called.
    std::function<void(int token, float log_prob, const float* attention, int columns)> on_step;

    static constexpr float kDefaultLengthPenalty = 0.6f;
    static constexpr float kDefaultCoveragePenalty = 0.2f;
};

// One alternative the model considered at a position: token id and log p.
struct TokenChoice {
    int token = 0;
    float log_prob = 0.0f;
};

struct Hypothesis {
    std::vector<int> tokens;                      // output ids, ending with <eos> when finished
    AttentionMatrix attention;                    // one row per output token, S columns, each row sums to 1;
                                                  // empty for the fixed-context baseline, which has no attention
    std::vector<float> token_log_probs;           // log p of each output token
    std::vector<std::vector<TokenChoice>> alternatives;  // per position, when requested
    std::vector<TraceStep> trace;                 // one record per output token, with DecodeOptions::trace
    int trace_tail = -1;                          // beam search's bookkeeping for `trace` (search.cpp)
    double log_prob = 0.0;                        // sum of token_log_probs
    double normalized_score = 0.0;                // the ranking score: log_prob / lp + cp (DecodeOptions)
    bool finished = false;                        // ended with <eos> (not cut at max_length)
};

// source: ids ending with <eos>. Returns hypotheses best first (one for
// greedy, up to beam_size for beam search). Throws UsageError for a bad
// option (beam_size out of range, a forced token outside the vocabulary).
// int8: a loaded model's int8 step weights (Model::int8_step; see
// decoder_step), or null to decode with the float parameters alone.
// sentence_trace: when not null and options.trace or options.beam_tree is
// on, receives what is recorded once per sentence (trace.h).
// shortlist: the model's lexical shortlist (Model::target_shortlist), used
// when options.shortlist is on and int8's output layer is int8; null: none.
std::vector<Hypothesis> decode(const Parameters& params, const ModelConfig& config, const std::vector<int>& source,
                               const DecodeOptions& options, const Int8StepWeights* int8 = nullptr,
                               DecodeTrace* sentence_trace = nullptr, const TargetShortlist* shortlist = nullptr);

// The GNMT score of a hypothesis under `options` (see DecodeOptions).
// source_length counts the source's <eos>, which the coverage sum leaves out.
double hypothesis_score(const Hypothesis& h, int source_length, const DecodeOptions& options);

// Greedy decoding on its own (the reference that beam size 1 must equal).
Hypothesis greedy_decode(const Parameters& params, const ModelConfig& config, const std::vector<int>& source,
                         const DecodeOptions& options, const Int8StepWeights* int8 = nullptr,
                         const TargetShortlist* shortlist = nullptr);

}  // namespace s2s
