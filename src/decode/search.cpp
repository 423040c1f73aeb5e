// Greedy and beam search over decoder_step (search.h): option checks, the
// top-k selection, the hypotheses' bookkeeping and the GNMT ranking score.
#include "decode/search.h"

#include "common/error.h"
#include "decode/option_ranges.h"
#include "model/decoder.h"
#include "text/vocabulary.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace s2s {
namespace {

int resolve_max_length(const DecodeOptions& options, int source_length) {
    int length = options.max_length > 0 ? options.max_length
                                         : kDefaultMaxLengthPerSourceToken * source_length + kDefaultMaxLengthExtra;
    return std::min(length, kMaxOutputLength);
}

void validate(const ModelConfig& config, const std::vector<int>& source, const DecodeOptions& options) {
    check_option_ranges(options);
    if (source.empty()) throw InputError("nothing to translate: the source is empty");
    for (int id : source) {
        if (id < 0 || id >= config.source_vocab_size) throw InputError("source token id " + std::to_string(id) + " is outside the vocabulary");
    }
    for (int id : options.forced_prefix) {
        if (id < 0 || id >= config.target_vocab_size || id == Vocabulary::kPad || id == Vocabulary::kBos) {
            throw UsageError("forced token id " + std::to_string(id) + " is not a target word of this model");
        }
    }
}

constexpr float kNever = -std::numeric_limits<float>::infinity();  // outside a shortlist

// The k best tokens of one column of log probabilities, best first; ties go
// to the lower id so that greedy and beam search agree. One pass keeping the
// k best so far (k is at most a beam or the alternatives asked for, V is the
// vocabulary): a token enters only if it beats the k-th, and since ids come
// in increasing order an equal score never displaces a lower id.
std::vector<TokenChoice> top_tokens(const Matrix& log_probs, int column, int k) {
    const int V = static_cast<int>(log_probs.rows());
    k = std::min(k, V);
    std::vector<TokenChoice> best;
    best.reserve(static_cast<size_t>(k) + 1);
    const float* scores = log_probs.col(column).data();
    for (int id = 0; id < V; ++id) {
        // Once k are in, a block of 8 of which none beats the k-th changes
        // nothing: one test for the block (the comparisons below, vectorized).
        if (k > 0 && static_cast<int>(best.size()) == k && id % 8 == 0 && id + 8 <= V) {
            const float threshold = best.back().log_prob;
            int beats = 0;
            for (int i = 0; i < 8; ++i) beats |= scores[id + i] > threshold;
            if (beats == 0) {
                id += 7;
                continue;
            }
        }
        const float score = scores[id];
        // Impossible: <pad> and <bos>, <eos> as an unforced first token
        // (forbid_special_outputs) and the pieces outside a lexical
        // shortlist (-infinity). Never chosen nor offered, so fewer than k
        // come back when fewer are possible. (Not a threshold on the value:
        // a damaged model's finite log probabilities can be as low, and
        // <eos> must stay possible after the first step.)
        if (id == Vocabulary::kPad || id == Vocabulary::kBos || score == kNever) continue;
        if (static_cast<int>(best.size()) == k && !(score > best.back().log_prob)) continue;
        size_t position = best.size();
        while (position > 0 && score > best[position - 1].log_prob) --position;
        best.insert(best.begin() + static_cast<std::ptrdiff_t>(position), {id, score});
        if (static_cast<int>(best.size()) > k) best.pop_back();
    }
    return best;
}

// <pad> and <bos> are never outputs, and <eos> is not the first one: an
// empty translation is never a result nor a candidate (at the first step
// <eos> is impossible, like a piece outside a shortlist), unless the
// caller forces the first token (a forced <eos> keeps its probability).
void forbid_special_outputs(Matrix& log_probs, bool first_step) {
    log_probs.row(Vocabulary::kPad).setConstant(-1e30f);
    log_probs.row(Vocabulary::kBos).setConstant(-1e30f);
    if (first_step) log_probs.row(Vocabulary::kEos).setConstant(kNever);
}

void append_step(Hypothesis& h, int token, float log_prob, const Matrix& attention, int column,
                 const Matrix& log_probs, int alternatives) {
    h.tokens.push_back(token);
    h.token_log_probs.push_back(log_prob);
    h.log_prob += log_prob;
    if (attention.rows() != 0) {  // the fixed-context baseline has no attention
        const auto a = attention.col(column);
        h.attention.append_row(a.data(), static_cast<size_t>(a.size()));
    }
    if (alternatives > 0) h.alternatives.push_back(top_tokens(log_probs, column, alternatives));
    h.finished = token == Vocabulary::kEos;
}

// The token at output position t: forced while inside the prefix.
bool forced_token(const DecodeOptions& options, size_t position, int& token) {
    if (position >= options.forced_prefix.size()) return false;
    token = options.forced_prefix[position];
    return true;
}

// The trace's next pieces of hypothesis `column` (trace.h, kTraceTopK).
std::vector<TracePiece> trace_top(const Matrix& log_probs, int column) {
    std::vector<TracePiece> top;
    for (const TokenChoice& c : top_tokens(log_probs, column, kTraceTopK)) top.push_back({c.token, std::exp(c.log_prob)});
    return top;
}

// The shortlist's blocks for this sentence (with the forced prefix's
// tokens), or empty when decoding computes every row.
std::vector<int> output_blocks(const ModelConfig& config, const std::vector<int>& source, const DecodeOptions& options,
                               const Int8StepWeights* int8, const TargetShortlist* shortlist) {
    if (shortlist == nullptr || !options.shortlist || int8 == nullptr || int8->output_weights.empty()) return {};
    return shortlist_blocks(*shortlist, source, config.target_vocab_size, options.forced_prefix);
}

struct Candidate {
    double log_prob;  // of the extended hypothesis
    int parent;       // index into the live hypotheses
    int token;
};

// One step of the beam tree: every candidate (sorted, best first), the first
// `survivors` kept; each kept node keeps the attention row that its parent's
// step computed (the row the page shows when the node is clicked).
void record_beam_step(const std::vector<Candidate>& candidates, size_t survivors, const std::vector<int>& live_nodes,
                      const Matrix& attention, std::vector<std::vector<BeamNode>>& tree) {
    std::vector<BeamNode>& nodes = tree.emplace_back();
    nodes.reserve(candidates.size());
    for (size_t i = 0; i < candidates.size(); ++i) {
        const Candidate& c = candidates[i];
        BeamNode node;
        node.token = c.token;
        node.parent = live_nodes[static_cast<size_t>(c.parent)];
        node.score = c.log_prob;
        node.kept = i < survivors;
        if (node.kept && attention.rows() != 0) {
            const auto a = attention.col(c.parent);
            node.attention.assign(a.data(), a.data() + a.size());
        }
        nodes.push_back(std::move(node));
    }
}

}  // namespace

double hypothesis_score(const Hypothesis& h, int source_length, const DecodeOptions& options) {
    const double length = static_cast<double>(std::max<size_t>(h.tokens.size(), 1));
    const double lp = std::pow((5.0 + length) / 6.0, static_cast<double>(options.length_penalty));
    double cp = 0.0;
    if (options.coverage_penalty > 0.0f && !h.attention.empty()) {
        // Words only: the source's <eos> (last column) is no word to cover.
        for (int i = 0; i + 1 < source_length; ++i) {
            double received = 0.0;
            for (const auto& row : h.attention) received += row[static_cast<size_t>(i)];
            // A floor keeps a word never looked at from making the score -inf.
            cp += std::log(std::clamp(received, 1e-6, 1.0));
        }
        cp *= static_cast<double>(options.coverage_penalty);
    }
    return h.log_prob / lp + cp;
}

Hypothesis greedy_decode(const Parameters& params, const ModelConfig& config, const std::vector<int>& source,
                         const DecodeOptions& options, const Int8StepWeights* int8, const TargetShortlist* shortlist) {
    validate(config, source, options);
    const EncodedSource encoded = encode_source(params, config, source, int8);
    const std::vector<int> blocks = output_blocks(config, source, options, int8, shortlist);
    const int max_length = resolve_max_length(options, encoded.length);
    Hypothesis h;
    Matrix state = encoded.initial_state;
    std::vector<int> previous = {Vocabulary::kBos};
    DecoderStep step;
    step.attention_temperature = options.temperature;
    step.record_scores = options.trace;
    if (!blocks.empty()) step.output_blocks = &blocks;
    for (int t = 0; t < max_length; ++t) {
        decoder_step(params, config, encoded, previous, state, step, int8);
        forbid_special_outputs(step.log_probs, t == 0 && options.forced_prefix.empty());
        int token;
        if (!forced_token(options, h.tokens.size(), token)) token = top_tokens(step.log_probs, 0, 1)[0].token;
        if (options.trace) h.trace.push_back(make_trace_step(config, encoded, state, step, 0, trace_top(step.log_probs, 0)));
        append_step(h, token, step.log_probs(token, 0), step.attention, 0, step.log_probs, options.alternatives);
        if (h.finished) break;
        state = step.states;
        previous[0] = token;
    }
    h.normalized_score = hypothesis_score(h, encoded.length, options);
    return h;
}

std::vector<Hypothesis> decode(const Parameters& params, const ModelConfig& config, const std::vector<int>& source,
                               const DecodeOptions& options, const Int8StepWeights* int8, DecodeTrace* sentence_trace,
                               const TargetShortlist* shortlist) {
    // Beam size 1 runs through the beam code too (not greedy_decode), so the
    // test that the two agree checks the beam bookkeeping.
    validate(config, source, options);
    const int beam = options.beam_size;
    const EncodedSource encoded = encode_source(params, config, source, int8);
    const int max_length = resolve_max_length(options, encoded.length);
    if (sentence_trace != nullptr) {
        *sentence_trace = DecodeTrace();
        if (options.trace) {
            sentence_trace->keys = encoded.keys;
            sentence_trace->states = encoded.states;
        }
    }
    const bool record_tree = options.beam_tree && sentence_trace != nullptr;
    std::vector<int> live_nodes(1, -1);  // beam tree: each live hypothesis's node in the previous step (-1: the root)

    std::vector<Hypothesis> live(1);
    Matrix states = encoded.initial_state;  // (D, live)
    std::vector<Hypothesis> finished;
    // Kept across steps (cleared, not freed): a step reuses their memory.
    DecoderStep step;
    std::vector<int> previous;
    std::vector<Candidate> candidates;
    std::vector<int> children_left;
    std::vector<int> parents;
    std::vector<int> next_nodes;
    std::vector<Hypothesis> next;
    Matrix next_states;
    // The trace's records of every hypothesis, each linked to the record
    // before it (-1: none): a hypothesis holds only its last record's index
    // while searching, so copying it for a sibling copies no trace.
    std::vector<TraceStep> trace_pool;
    std::vector<int> trace_parents;
    step.attention_temperature = options.temperature;
    step.record_scores = options.trace;
    const std::vector<int> blocks = output_blocks(config, source, options, int8, shortlist);
    if (!blocks.empty()) step.output_blocks = &blocks;
    for (int t = 0; t < max_length && !live.empty(); ++t) {
        previous.clear();
        for (const auto& h : live) previous.push_back(h.tokens.empty() ? Vocabulary::kBos : h.tokens.back());
        decoder_step(params, config, encoded, previous, states, step, int8);
        forbid_special_outputs(step.log_probs, t == 0 && options.forced_prefix.empty());

        // Each live hypothesis proposes its `beam` best extensions (or its
        // forced token); the best `beam` of all proposals survive.
        candidates.clear();
        for (int k = 0; k < static_cast<int>(live.size()); ++k) {
            int token;
            if (forced_token(options, static_cast<size_t>(t), token)) {
                candidates.push_back({live[k].log_prob + step.log_probs(token, k), k, token});
                continue;
            }
            for (const TokenChoice& c : top_tokens(step.log_probs, k, beam)) {
                candidates.push_back({live[k].log_prob + c.log_prob, k, c.token});
            }
        }
        std::stable_sort(candidates.begin(), candidates.end(),
                         [](const Candidate& a, const Candidate& b) { return a.log_prob > b.log_prob; });

        // The best `beam - finished` candidates survive. Each survivor starts
        // from its parent's history: the parent's last surviving child takes
        // it by move and only its siblings copy it. (Copying it for every
        // child made decoding quadratic in the output length, since a
        // history holds one attention row per token: seconds for a long
        // input with a wide beam.)
        const size_t survivors = std::min(candidates.size(), static_cast<size_t>(beam) - finished.size());
        children_left.assign(live.size(), 0);
        for (size_t i = 0; i < survivors; ++i) ++children_left[candidates[i].parent];
        if (record_tree) record_beam_step(candidates, survivors, live_nodes, step.attention, sentence_trace->beam_tree);
        next.clear();
        parents.clear();
        next_nodes.clear();
        for (size_t i = 0; i < survivors; ++i) {
            const Candidate& c = candidates[i];
            Hypothesis h;
            if (--children_left[c.parent] == 0) {
                h = std::move(live[c.parent]);
            } else {
                h = live[c.parent];
            }
            if (options.trace) {
                // Into the pool, linked to the parent's last record: siblings share their history.
                trace_pool.push_back(make_trace_step(config, encoded, states, step, c.parent, trace_top(step.log_probs, c.parent)));
                trace_parents.push_back(h.trace_tail);
                h.trace_tail = static_cast<int>(trace_pool.size()) - 1;
            }
            append_step(h, c.token, step.log_probs(c.token, c.parent), step.attention, c.parent, step.log_probs,
                        options.alternatives);
            if (beam == 1 && options.on_step) {  // greedy: this token is the translation's
                const bool attends = step.attention.rows() != 0;
                options.on_step(c.token, step.log_probs(c.token, c.parent), attends ? step.attention.col(c.parent).data() : nullptr,
                                attends ? static_cast<int>(step.attention.rows()) : 0);
            }
            if (h.finished) {
                finished.push_back(std::move(h));
            } else {
                next.push_back(std::move(h));
                parents.push_back(c.parent);
                if (record_tree) next_nodes.push_back(static_cast<int>(i));
            }
        }
        if (record_tree) live_nodes.swap(next_nodes);
        // Enough finished hypotheses: the live ones can only get longer and,
        // by raw log probability, worse.
        if (static_cast<int>(finished.size()) >= beam) break;
        next_states.resize(states.rows(), static_cast<Eigen::Index>(parents.size()));
        for (size_t k = 0; k < parents.size(); ++k) next_states.col(k) = step.states.col(parents[k]);
        states.swap(next_states);
        live.swap(next);
    }
    // Hypotheses cut at max_length still count, after every finished one.
    for (auto& h : live) {
        if (static_cast<int>(finished.size()) >= beam) break;
        finished.push_back(std::move(h));
    }
    for (auto& h : finished) {
        h.normalized_score = hypothesis_score(h, encoded.length, options);
        for (int r = h.trace_tail; r >= 0; r = trace_parents[static_cast<size_t>(r)]) h.trace.push_back(trace_pool[static_cast<size_t>(r)]);
        std::reverse(h.trace.begin(), h.trace.end());
    }
    std::stable_sort(finished.begin(), finished.end(), [](const Hypothesis& a, const Hypothesis& b) {
        if (a.finished != b.finished) return a.finished;
        return a.normalized_score > b.normalized_score;
    });
    return finished;
}

}  // namespace s2s
