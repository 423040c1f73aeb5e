// The decoder trace, the attention temperature, coverage and the beam tree
// (src/decode/trace.h): the trace against a hand computation from the
// model's weights, the trace of a beam against a re-run of the chosen path,
// tau = 1 bit for bit the same as no temperature, and tau's extremes on a
// shipped model (properties only: a retrained model changes the words).
#include "common/error.h"
#include "decode/option_ranges.h"
#include "decode/search.h"
#include "decode/translator.h"
#include "model/decoder.h"
#include "test_helpers.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <cmath>
#include <numeric>

using namespace s2s;
using namespace s2s::testing;

namespace {

Vector as_vector(const std::vector<float>& v) { return Eigen::Map<const Vector>(v.data(), static_cast<Eigen::Index>(v.size())); }

std::vector<double> softmax(const std::vector<float>& scores, double temperature) {
    const double top = *std::max_element(scores.begin(), scores.end()) / temperature;
    std::vector<double> out;
    for (float e : scores) out.push_back(std::exp(e / temperature - top));
    const double total = std::accumulate(out.begin(), out.end(), 0.0);
    for (double& w : out) w /= total;
    return out;
}

// Every step of `steps` against the formulas, from the weights in `params`
// and the encoder states of the trace: the query, the scores, softmax(e/tau)
// = a, sum a = 1, c = sum a_i H_i.
void check_against_hand_computation(const ModelConfig& config, const Parameters& params, const DecodeTrace& sentence,
                                    const std::vector<TraceStep>& steps, float temperature) {
    const Eigen::Index S = sentence.states.cols();
    // Keys once per sentence: W_k H for additive and general, H for dot.
    if (config.attention == AttentionKind::kAdditive || config.attention == AttentionKind::kGeneral) {
        CHECK((sentence.keys - params.attention_key * sentence.states).cwiseAbs().maxCoeff() < 1e-5f);
    } else {
        CHECK(sentence.keys == sentence.states);
    }
    for (const TraceStep& step : steps) {
        const Vector s = as_vector(step.previous_state);
        REQUIRE(step.scores.size() == static_cast<size_t>(S));
        std::vector<float> expected(static_cast<size_t>(S));
        if (config.attention == AttentionKind::kAdditive) {
            const Vector q = params.attention_query * s;
            CHECK((as_vector(step.query) - q).cwiseAbs().maxCoeff() < 1e-5f);
            for (Eigen::Index i = 0; i < S; ++i) {
                const Vector hidden = (q + sentence.keys.col(i)).array().tanh().matrix();
                expected[static_cast<size_t>(i)] = params.attention_vector.col(0).dot(hidden);
            }
        } else {
            CHECK(as_vector(step.query) == s);
            const float scale = config.attention == AttentionKind::kScaledDot
                                    ? 1.0f / std::sqrt(static_cast<float>(config.context_size())) : 1.0f;
            for (Eigen::Index i = 0; i < S; ++i) expected[static_cast<size_t>(i)] = s.dot(sentence.keys.col(i)) * scale;
        }
        for (Eigen::Index i = 0; i < S; ++i) CHECK(step.scores[i] == doctest::Approx(expected[i]).epsilon(1e-5));
        const std::vector<double> weights = softmax(step.scores, temperature);
        double total = 0.0;
        for (Eigen::Index i = 0; i < S; ++i) {
            CHECK(std::fabs(step.weights[i] - weights[i]) < 1e-6);
            total += step.weights[i];
        }
        CHECK(std::fabs(total - 1.0) < 1e-6);
        Vector context = Vector::Zero(sentence.states.rows());
        for (Eigen::Index i = 0; i < S; ++i) context += step.weights[i] * sentence.states.col(i);
        CHECK((as_vector(step.context) - context).cwiseAbs().maxCoeff() < 1e-5f);
        REQUIRE(step.top.size() == static_cast<size_t>(kTraceTopK));
        for (size_t k = 1; k < step.top.size(); ++k) CHECK(step.top[k - 1].probability >= step.top[k].probability);
    }
}

}  // namespace

TEST_CASE("the trace equals a hand computation from the weights, for each scoring function and temperature") {
    const std::vector<int> source = {4, 5, 6, 7, 8, 9, 3};
    for (AttentionKind kind : {AttentionKind::kAdditive, AttentionKind::kDot, AttentionKind::kScaledDot, AttentionKind::kGeneral}) {
        const ModelConfig config = tiny_config(kind);
        const Parameters params = sharp_random_parameters(config, 3);
        for (float temperature : {1.0f, 0.5f, 3.0f}) {
            CAPTURE(attention_kind_name(kind));
            CAPTURE(temperature);
            DecodeOptions options;
            options.beam_size = 1;  // greedy: the chosen token is the top one
            options.max_length = 10;
            options.trace = true;
            options.temperature = temperature;
            DecodeTrace sentence;
            const auto hypotheses = decode(params, config, source, options, nullptr, &sentence);
            const Hypothesis& best = hypotheses.front();
            REQUIRE(best.trace.size() == best.tokens.size());
            CHECK(sentence.states.cols() == static_cast<Eigen::Index>(source.size()));
            check_against_hand_computation(config, params, sentence, best.trace, temperature);
            // The first query is s_0; each weights vector is the attention row of its token.
            for (size_t t = 0; t < best.trace.size(); ++t) CHECK(best.trace[t].weights == best.attention[t]);
            // The chosen token is the most likely one (greedy, no prefix).
            for (size_t t = 0; t < best.trace.size(); ++t) CHECK(best.trace[t].top[0].token == best.tokens[t]);
        }
    }
}

TEST_CASE("a beam's trace follows the chosen hypothesis: it equals the chosen path decoded again alone") {
    const std::vector<int> source = {4, 5, 6, 7, 8, 3};
    for (AttentionKind kind : {AttentionKind::kAdditive, AttentionKind::kDot, AttentionKind::kNone}) {
        const ModelConfig config = tiny_config(kind);
        for (uint64_t seed = 1; seed <= 4; ++seed) {
            const Parameters params = random_parameters(config, seed);  // not sharp: beams disagree with greedy more often
            DecodeOptions options;
            options.max_length = 10;
            options.beam_size = 4;
            options.trace = true;
            options.beam_tree = true;
            DecodeTrace sentence;
            const auto beam = decode(params, config, source, options, nullptr, &sentence);
            const Hypothesis& chosen = beam.front();
            REQUIRE(chosen.trace.size() == chosen.tokens.size());
            // The same tokens forced through greedy decoding, one hypothesis wide.
            DecodeOptions alone;
            alone.max_length = static_cast<int>(chosen.tokens.size());
            alone.forced_prefix = chosen.tokens;
            alone.trace = true;
            const Hypothesis replay = greedy_decode(params, config, source, alone);
            REQUIRE(replay.trace.size() == chosen.trace.size());
            for (size_t t = 0; t < chosen.trace.size(); ++t) {
                const TraceStep& a = chosen.trace[t];
                const TraceStep& b = replay.trace[t];
                CHECK((as_vector(a.previous_state) - as_vector(b.previous_state)).cwiseAbs().maxCoeff() < 1e-5f);
                CHECK((as_vector(a.context) - as_vector(b.context)).cwiseAbs().maxCoeff() < 1e-5f);
                if (kind != AttentionKind::kNone) {
                    CHECK((as_vector(a.scores) - as_vector(b.scores)).cwiseAbs().maxCoeff() < 1e-5f);
                    CHECK((as_vector(a.weights) - as_vector(b.weights)).cwiseAbs().maxCoeff() < 1e-6f);
                    CHECK(a.weights == chosen.attention[t]);
                }
            }
            // The tree: kept nodes per step at most the beam; every kept
            // node's parent was kept the step before; the chosen path is in it.
            REQUIRE(!sentence.beam_tree.empty());
            for (size_t t = 0; t < sentence.beam_tree.size(); ++t) {
                int kept = 0;
                for (const BeamNode& n : sentence.beam_tree[t]) {
                    kept += n.kept;
                    if (t == 0) {
                        CHECK(n.parent == -1);
                    } else {
                        REQUIRE(n.parent >= 0);
                        REQUIRE(n.parent < static_cast<int>(sentence.beam_tree[t - 1].size()));
                        CHECK(sentence.beam_tree[t - 1][static_cast<size_t>(n.parent)].kept);
                    }
                    CHECK(n.attention.empty() == (!n.kept || kind == AttentionKind::kNone));
                }
                CHECK(kept >= 1);
                CHECK(kept <= options.beam_size);
            }
            // Walk the chosen hypothesis's tokens down the tree.
            int parent = -1;
            for (size_t t = 0; t < chosen.tokens.size() && t < sentence.beam_tree.size(); ++t) {
                const auto& nodes = sentence.beam_tree[t];
                auto it = std::find_if(nodes.begin(), nodes.end(), [&](const BeamNode& n) {
                    return n.kept && n.parent == parent && n.token == chosen.tokens[t] &&
                           std::fabs(n.score - std::accumulate(chosen.token_log_probs.begin(),
                                                               chosen.token_log_probs.begin() + static_cast<long>(t) + 1, 0.0)) < 1e-4;
                });
                REQUIRE(it != nodes.end());
                if (kind != AttentionKind::kNone) CHECK(it->attention == chosen.attention[t]);
                parent = static_cast<int>(it - nodes.begin());
            }
        }
    }
}

TEST_CASE("the fixed-context model's trace carries one constant context and no scores") {
    const ModelConfig config = tiny_config(AttentionKind::kNone);
    const Parameters params = sharp_random_parameters(config, 2);
    DecodeOptions options;
    options.max_length = 8;
    options.trace = true;
    DecodeTrace sentence;
    const auto hypotheses = decode(params, config, {4, 5, 6, 3}, options, nullptr, &sentence);
    const auto& steps = hypotheses.front().trace;
    REQUIRE(steps.size() >= 2);
    CHECK(sentence.keys.size() == 0);
    CHECK(sentence.states.cols() == 4);
    for (const TraceStep& step : steps) {
        CHECK(step.query.empty());
        CHECK(step.scores.empty());
        CHECK(step.weights.empty());
        CHECK(step.context == steps.front().context);
        CHECK(step.context.size() == static_cast<size_t>(config.context_size()));
    }
    // Consecutive steps have different states (the decoder moves on) but the same context.
    CHECK(steps[0].previous_state != steps[1].previous_state);
}

TEST_CASE("temperature 1 is bit for bit the decoding without it; off-range temperatures are refused") {
    const std::vector<int> source = {4, 5, 6, 7, 3};
    for (AttentionKind kind : {AttentionKind::kAdditive, AttentionKind::kGeneral}) {
        const ModelConfig config = tiny_config(kind);
        const Parameters params = sharp_random_parameters(config, 5);
        DecodeOptions plain;
        plain.beam_size = 3;
        DecodeOptions traced = plain;
        traced.temperature = 1.0f;
        traced.trace = true;
        traced.beam_tree = true;
        DecodeTrace sentence;
        const auto a = decode(params, config, source, plain);
        const auto b = decode(params, config, source, traced, nullptr, &sentence);
        REQUIRE(a.size() == b.size());
        for (size_t k = 0; k < a.size(); ++k) {
            CHECK(a[k].tokens == b[k].tokens);
            CHECK(a[k].attention == b[k].attention);  // exact, float for float
            CHECK(a[k].log_prob == b[k].log_prob);
        }
        // And another temperature changes the attention.
        DecodeOptions hot = plain;
        hot.temperature = 5.0f;
        CHECK(decode(params, config, source, hot)[0].attention[0] != a[0].attention[0]);
    }
    DecodeOptions options;
    for (float bad : {0.0f, 0.04f, 20.5f, -1.0f, std::nanf("")}) {
        options.temperature = bad;
        CHECK_THROWS_WITH_AS(check_option_ranges(options), doctest::Contains("temperature"), UsageError);
    }
    options.temperature = kMinTemperature;
    CHECK_NOTHROW(check_option_ranges(options));
    options.temperature = kMaxTemperature;
    CHECK_NOTHROW(check_option_ranges(options));
    CHECK(option_ranges_json().at("temperature").at("default") == 1.0);
}

TEST_CASE("on a shipped model: tau 0.05 nearly hard, tau 20 nearly uniform, the trace consistent, coverage") {
    const Model model = load_model(std::string(S2S_SOURCE_DIR) + "/models/en-fr.s2s");
    const std::string sentence = "i think that he will come to the party tomorrow with his sister .";
    DecodeOptions options;
    options.trace = true;
    for (float temperature : {0.05f, 1.0f, 20.0f}) {
        CAPTURE(temperature);
        options.temperature = temperature;
        const Translation t = translate(model, sentence, options);
        REQUIRE(t.best() != nullptr);
        const size_t S = t.source_tokens.size();
        REQUIRE(S >= 9);
        REQUIRE(t.trace.has_value());
        const auto& steps = t.trace->steps;
        REQUIRE(steps.size() == t.best()->attention.size());
        CHECK(t.trace->scoring == AttentionKind::kAdditive);
        size_t single_token_rows = 0;
        for (size_t r = 0; r < steps.size(); ++r) {
            const std::vector<float>& scores = steps[r].scores;
            const std::vector<float>& weights = steps[r].weights;
            CHECK(weights == t.best()->attention[r]);
            const std::vector<double> expected = softmax(scores, temperature);
            for (size_t i = 0; i < S; ++i) CHECK(std::fabs(weights[i] - expected[i]) < 1e-6);
            // tau 0.05 multiplies the score gaps by 20: nearly hard, all the
            // weight on one source token, or on two whose scores nearly tie.
            std::vector<float> sorted = weights;
            std::sort(sorted.begin(), sorted.end(), std::greater<float>());
            if (temperature == 0.05f) {
                CHECK(sorted[0] + sorted[1] >= 0.95f);
                if (sorted[0] >= 0.9f) ++single_token_rows;
            }
            if (temperature == 20.0f) {
                for (float w : weights) CHECK(std::fabs(w - 1.0f / static_cast<float>(S)) < 0.05f);
            }
        }
        if (temperature == 0.05f) CHECK(single_token_rows * 5 >= steps.size() * 4);  // 80% or more on one token
        // Coverage: the column sums of the attention, summing to the output length.
        const auto& coverage = t.best()->coverage;
        REQUIRE(coverage.size() == S);
        CHECK(std::accumulate(coverage.begin(), coverage.end(), 0.0) ==
              doctest::Approx(static_cast<double>(steps.size())).epsilon(1e-4));
        for (int i : t.best()->possibly_dropped) {  // the sentence has no number (dropped.h): low coverage only
            CHECK(coverage[static_cast<size_t>(i)] < kPossiblyDroppedCoverage);
            CHECK(static_cast<size_t>(i) + 1 < S);
        }
    }
    // The fixed-context model: no coverage, and its trace has a constant context.
    const Model fixed = load_model(std::string(S2S_SOURCE_DIR) + "/models/en-fr-fixed.s2s");
    options.temperature = 1.0f;
    const Translation f = translate(fixed, sentence, options);
    CHECK(f.best()->coverage.empty());
    REQUIRE(f.trace.has_value());
    CHECK(f.trace->scoring == AttentionKind::kNone);
    CHECK(f.trace->keys.size() == 0);
    for (const auto& step : f.trace->steps) {
        CHECK(step.weights.empty());
        CHECK(step.context == f.trace->steps[0].context);
    }
}
