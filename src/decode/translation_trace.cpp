// A translation's trace and beam tree (translation_trace.h): named from the
// search's records, and written as JSON numbers or packed into one array.
#include "decode/translation_trace.h"

#include "decode/option_ranges.h"
#include "text/vocabulary.h"

#include <cstring>
#include <utility>

namespace s2s {

TranslationTrace name_trace(AttentionKind scoring, float temperature, DecodeTrace& sentence, std::vector<TraceStep>&& steps,
                            const Vocabulary& target) {
    TranslationTrace trace;
    trace.scoring = scoring;
    trace.temperature = temperature;
    trace.keys = std::move(sentence.keys);
    trace.states = std::move(sentence.states);
    trace.steps.reserve(steps.size());
    for (TraceStep& record : steps) {
        TranslationTrace::Step& step = trace.steps.emplace_back();
        static_cast<TraceVectors&>(step) = std::move(static_cast<TraceVectors&>(record));
        for (const TracePiece& p : record.top) step.top.push_back({target.token(p.token), p.probability});
    }
    return trace;
}

BeamTree name_beam_tree(std::vector<std::vector<BeamNode>>&& tree, const Vocabulary& target) {
    BeamTree out;
    out.reserve(tree.size());
    for (std::vector<BeamNode>& step : tree) {
        std::vector<BeamTreeNode>& nodes = out.emplace_back();
        nodes.reserve(step.size());
        for (BeamNode& n : step) nodes.push_back({target.token(n.token), n.parent, n.score, n.kept, std::move(n.attention)});
    }
    return out;
}

nlohmann::json NumberWriter::floats(const float* data, size_t size) {
    if (packed_ == nullptr) return nlohmann::json(std::vector<float>(data, data + size));
    const size_t offset = packed_->size();
    packed_->insert(packed_->end(), data, data + size);
    return nlohmann::json::array({offset, size});
}

nlohmann::json NumberWriter::float32(float value) {
    if (packed_ == nullptr) return value;
    packed_->push_back(value);
    return packed_->size() - 1;
}

nlohmann::json NumberWriter::float64(double value) {
    if (packed_ == nullptr) return value;
    static_assert(sizeof(double) == 2 * sizeof(float), "a double takes two float slots");
    const size_t offset = packed_->size();
    packed_->resize(offset + 2);
    std::memcpy(packed_->data() + offset, &value, sizeof value);  // bytes, not a float conversion
    return offset;
}

namespace {

// The columns of a (rows, S) matrix, one per source position.
nlohmann::json columns_json(const Matrix& m, NumberWriter& numbers) {
    nlohmann::json out = nlohmann::json::array();
    for (Eigen::Index i = 0; i < m.cols(); ++i) out.push_back(numbers.floats(m.col(i).data(), static_cast<size_t>(m.rows())));
    return out;
}

nlohmann::json floats_or_null(const std::vector<float>& values, NumberWriter& numbers) {
    return values.empty() ? nlohmann::json(nullptr) : numbers.floats(values);
}

}  // namespace

nlohmann::json trace_json(const TranslationTrace& trace, NumberWriter& numbers) {
    nlohmann::json out;
    out["scoring"] = trace_scoring_name(trace.scoring);
    out["temperature"] = numbers.float64(as_written(trace.temperature));
    out["keys"] = trace.scoring == AttentionKind::kNone ? nlohmann::json(nullptr) : columns_json(trace.keys, numbers);
    out["states"] = columns_json(trace.states, numbers);
    nlohmann::json steps = nlohmann::json::array();
    for (const TranslationTrace::Step& s : trace.steps) {
        nlohmann::json top = nlohmann::json::array();
        for (const TranslationTrace::Piece& p : s.top) top.push_back({{"token", p.token}, {"probability", numbers.float32(p.probability)}});
        steps.push_back({{"previousState", numbers.floats(s.previous_state)},
                         {"query", floats_or_null(s.query, numbers)},
                         {"scores", floats_or_null(s.scores, numbers)},
                         {"weights", floats_or_null(s.weights, numbers)},
                         {"context", numbers.floats(s.context)},
                         {"top", std::move(top)}});
    }
    out["steps"] = std::move(steps);
    return out;
}

nlohmann::json beam_tree_json(const BeamTree& tree, NumberWriter& numbers) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& step : tree) {
        nlohmann::json nodes = nlohmann::json::array();
        for (const BeamTreeNode& n : step) {
            nlohmann::json node = {{"token", n.token}, {"parent", n.parent}, {"score", numbers.float64(n.score)}, {"kept", n.kept}};
            if (!n.attention.empty()) node["attention"] = numbers.floats(n.attention);
            nodes.push_back(std::move(node));
        }
        out.push_back(std::move(nodes));
    }
    return out;
}

}  // namespace s2s
