// The decoder trace (trace.h): a step's record copied out of the decoder's
// own matrices.
#include "decode/trace.h"

#include "model/decoder.h"

#include <utility>

namespace s2s {
namespace {

std::vector<float> column_of(const Matrix& m, int column) {
    const auto c = m.col(column);
    return std::vector<float>(c.data(), c.data() + c.size());
}

}  // namespace

TraceStep make_trace_step(const ModelConfig& config, const EncodedSource& source, const Matrix& previous_states,
                          const DecoderStep& step, int column, std::vector<TracePiece> top) {
    TraceStep out;
    out.previous_state = column_of(previous_states, column);
    if (config.attention == AttentionKind::kNone) {
        out.context = column_of(source.final_state, 0);  // the constant context of every step
    } else {
        // Additive scores against W_q s_{t-1}; the others dot s_{t-1} itself with their keys.
        out.query = column_of(config.attention == AttentionKind::kAdditive ? step.projected_query : previous_states, column);
        out.scores = column_of(step.scores, column);
        out.weights = column_of(step.attention, column);
        out.context = column_of(step.contexts, column);
    }
    out.top = std::move(top);
    return out;
}

std::string trace_scoring_name(AttentionKind kind) {
    switch (kind) {
        case AttentionKind::kAdditive: return "additive";
        case AttentionKind::kDot: return "dot";
        case AttentionKind::kScaledDot: return "scaled-dot";
        case AttentionKind::kGeneral: return "general";
        case AttentionKind::kNone: return "none";
    }
    return "none";
}

}  // namespace s2s
