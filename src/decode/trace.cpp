// The decoder trace (trace.h): a step's record copied out of the decoder's
// own matrices, and the trace and the beam tree as JSON.
#include "decode/trace.h"

#include "decode/option_ranges.h"

#include "model/decoder.h"
#include "text/vocabulary.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

namespace s2s {
namespace {

std::vector<float> column_of(const Matrix& m, int column) {
    const auto c = m.col(column);
    return std::vector<float>(c.data(), c.data() + c.size());
}

// A vector as JSON numbers, or (with a sink) appended to the sink and
// written as [offset, length] into it.
nlohmann::json numbers_json(const float* data, size_t size, std::vector<float>* sink) {
    if (sink == nullptr) return nlohmann::json(std::vector<float>(data, data + size));
    const size_t offset = sink->size();
    sink->insert(sink->end(), data, data + size);
    return nlohmann::json::array({offset, size});
}

nlohmann::json numbers_json(const std::vector<float>& v, std::vector<float>* sink) {
    return numbers_json(v.data(), v.size(), sink);
}

// The columns of a (rows, S) matrix, one per source position.
nlohmann::json columns_json(const Matrix& m, std::vector<float>* sink) {
    nlohmann::json out = nlohmann::json::array();
    for (Eigen::Index i = 0; i < m.cols(); ++i) out.push_back(numbers_json(m.col(i).data(), static_cast<size_t>(m.rows()), sink));
    return out;
}

nlohmann::json vector_or_null(const std::vector<float>& v, std::vector<float>* sink) {
    return v.empty() ? nlohmann::json(nullptr) : numbers_json(v, sink);
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

nlohmann::json trace_json(const ModelConfig& config, float temperature, const DecodeTrace& sentence,
                          const std::vector<TraceStep>& steps, const Vocabulary& target, std::vector<float>* numbers) {
    nlohmann::json out;
    out["scoring"] = trace_scoring_name(config.attention);
    if (numbers != nullptr) out["packed"] = true;  // vectors are [offset, length] into `numbers`
    out["temperature"] = as_written(temperature);
    out["keys"] = config.attention == AttentionKind::kNone ? nlohmann::json(nullptr) : columns_json(sentence.keys, numbers);
    out["states"] = columns_json(sentence.states, numbers);
    nlohmann::json list = nlohmann::json::array();
    for (const TraceStep& s : steps) {
        nlohmann::json top = nlohmann::json::array();
        for (const TracePiece& p : s.top) top.push_back({{"token", target.token(p.token)}, {"probability", p.probability}});
        list.push_back({{"previousState", numbers_json(s.previous_state, numbers)},
                        {"query", vector_or_null(s.query, numbers)},
                        {"scores", vector_or_null(s.scores, numbers)},
                        {"weights", vector_or_null(s.weights, numbers)},
                        {"context", numbers_json(s.context, numbers)},
                        {"top", top}});
    }
    out["steps"] = list;
    return out;
}

nlohmann::json beam_tree_json(const DecodeTrace& sentence, const Vocabulary& target) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& step : sentence.beam_tree) {
        nlohmann::json nodes = nlohmann::json::array();
        for (const BeamNode& n : step) {
            nlohmann::json node = {{"token", target.token(n.token)}, {"parent", n.parent}, {"score", n.score}, {"kept", n.kept}};
            if (n.kept && !n.attention.empty()) node["attention"] = n.attention;
            nodes.push_back(node);
        }
        out.push_back(nodes);
    }
    return out;
}

}  // namespace s2s
