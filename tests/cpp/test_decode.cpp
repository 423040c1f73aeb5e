// Decoding: greedy and beam search on a small random model (the search
// does not need a trained model to be checked for its invariants).
#include "common/error.h"
#include "decode/search.h"
#include "test_helpers.h"
#include "text/vocabulary.h"

#include <doctest/doctest.h>

#include <cmath>
#include <numeric>

using namespace s2s;
using namespace s2s::testing;

namespace {

void check_attention_rows(const Hypothesis& h, size_t source_length) {
    REQUIRE(h.attention.size() == h.tokens.size());
    for (const auto& row : h.attention) {
        REQUIRE(row.size() == source_length);
        const double total = std::accumulate(row.begin(), row.end(), 0.0);
        CHECK(total == doctest::Approx(1.0).epsilon(1e-5));
        for (float w : row) CHECK(w >= 0.0f);
    }
}

}  // namespace

TEST_CASE("beam size 1 equals greedy decoding, for every attention variant") {
    for (AttentionKind attention : {AttentionKind::kAdditive, AttentionKind::kDot, AttentionKind::kScaledDot,
                                    AttentionKind::kGeneral, AttentionKind::kNone}) {
        const ModelConfig config = tiny_config(attention);
        for (uint64_t seed = 1; seed <= 5; ++seed) {
            const Parameters params = sharp_random_parameters(config, seed);
            const std::vector<int> source = {4, 5, 6, 7, 8, 3};
            DecodeOptions options;
            options.max_length = 12;
            const Hypothesis greedy = greedy_decode(params, config, source, options);
            options.beam_size = 1;
            const auto beam = decode(params, config, source, options);
            REQUIRE(beam.size() == 1);
            CHECK(beam[0].tokens == greedy.tokens);
            CHECK(beam[0].log_prob == doctest::Approx(greedy.log_prob));
            // The beam path (beam_size 2 with the same code) must also hold invariants.
            options.beam_size = 2;
            for (const auto& h : decode(params, config, source, options)) {
                if (attention == AttentionKind::kNone) {
                    CHECK(h.attention.empty());  // the baseline has no attention to show
                } else {
                    check_attention_rows(h, source.size());
                }
            }
        }
    }
}

TEST_CASE("beam search returns sorted hypotheses whose attention rows sum to 1") {
    const ModelConfig config = tiny_config(AttentionKind::kAdditive);
    const Parameters params = sharp_random_parameters(config, 3);
    const std::vector<int> source = {4, 9, 6, 3};
    DecodeOptions options;
    options.beam_size = 4;
    options.max_length = 10;
    const auto hypotheses = decode(params, config, source, options);
    REQUIRE(!hypotheses.empty());
    CHECK(hypotheses.size() <= 4);
    for (size_t k = 0; k < hypotheses.size(); ++k) {
        check_attention_rows(hypotheses[k], source.size());
        CHECK(hypotheses[k].tokens.size() <= 10);
        const double sum = std::accumulate(hypotheses[k].token_log_probs.begin(), hypotheses[k].token_log_probs.end(), 0.0);
        CHECK(hypotheses[k].log_prob == doctest::Approx(sum).epsilon(1e-4));
        // GNMT's score (Wu et al., 2016, eq. 14), written out here.
        const double length = static_cast<double>(hypotheses[k].tokens.size());
        double coverage = 0.0;
        for (size_t i = 0; i + 1 < source.size(); ++i) {
            double received = 0.0;
            for (const auto& row : hypotheses[k].attention) received += row[i];
            coverage += std::log(std::min(std::max(received, 1e-6), 1.0));
        }
        const double expected = sum / std::pow((5.0 + length) / 6.0, options.length_penalty) +
                                options.coverage_penalty * coverage;
        CHECK(hypotheses[k].normalized_score == doctest::Approx(expected).epsilon(1e-4));
        CHECK(hypotheses[k].normalized_score == doctest::Approx(hypothesis_score(hypotheses[k], 4, options)));
        if (k > 0 && hypotheses[k].finished == hypotheses[k - 1].finished) {
            CHECK(hypotheses[k].normalized_score <= hypotheses[k - 1].normalized_score + 1e-9);
        }
    }
}

TEST_CASE("the GNMT penalties: alpha 0 ranks by log probability, beta penalizes uncovered source words") {
    Hypothesis h;
    h.tokens = {5, 6, 3};
    h.log_prob = -3.0;
    h.attention = std::vector<std::vector<float>>{{0.9f, 0.05f, 0.05f}, {0.8f, 0.1f, 0.1f}, {0.1f, 0.1f, 0.8f}};  // source word 1 gets 0.25 in all
    DecodeOptions options;
    options.length_penalty = 0.0f;
    options.coverage_penalty = 0.0f;
    CHECK(hypothesis_score(h, 3, options) == doctest::Approx(-3.0));
    options.length_penalty = 1.0f;
    CHECK(hypothesis_score(h, 3, options) == doctest::Approx(-3.0 / (8.0 / 6.0)));
    options.length_penalty = 0.0f;
    options.coverage_penalty = 1.0f;
    // Word 0 received 1.8 (capped at 1: log 1 = 0), word 1 received 0.25; the <eos> column is no word.
    CHECK(hypothesis_score(h, 3, options) == doctest::Approx(-3.0 + std::log(0.25)));
    // Out of range is a UsageError naming the option.
    options.coverage_penalty = -1.0f;
    const ModelConfig config = tiny_config(AttentionKind::kAdditive);
    const Parameters params = sharp_random_parameters(config, 3);
    CHECK_THROWS_WITH_AS(decode(params, config, {4, 3}, options), doctest::Contains("coverage penalty"), s2s::UsageError);
}

TEST_CASE("decoding stops at the maximum length and never emits <pad> or <bos>") {
    const ModelConfig config = tiny_config(AttentionKind::kAdditive);
    const Parameters params = sharp_random_parameters(config, 2);
    DecodeOptions options;
    options.max_length = 3;
    for (int beam : {1, 3}) {
        options.beam_size = beam;
        for (const auto& h : decode(params, config, {4, 5, 3}, options)) {
            CHECK(h.tokens.size() <= 3);
            for (int t : h.tokens) {
                CHECK(t != Vocabulary::kPad);
                CHECK(t != Vocabulary::kBos);
            }
        }
    }
}

TEST_CASE("no translation is empty: <eos> is never the first token, in greedy or beam search, nor offered there") {
    const ModelConfig config = tiny_config(AttentionKind::kAdditive);
    Parameters params = sharp_random_parameters(config, 5);
    params.output_bias(Vocabulary::kEos, 0) = 50.0f;  // a model that would end at once
    DecodeOptions options;
    options.alternatives = 3;
    const Hypothesis greedy = greedy_decode(params, config, {4, 5, 3}, options);
    REQUIRE(!greedy.tokens.empty());
    CHECK(greedy.tokens[0] != Vocabulary::kEos);
    CHECK(greedy.tokens.size() == 2);  // then <eos> at once: it is only the first token that cannot end
    CHECK(greedy.tokens[1] == Vocabulary::kEos);
    for (const TokenChoice& c : greedy.alternatives[0]) CHECK(c.token != Vocabulary::kEos);
    for (int beam : {1, 4}) {
        options.beam_size = beam;
        for (const auto& h : decode(params, config, {4, 5, 3}, options)) {
            REQUIRE(!h.tokens.empty());
            CHECK(h.tokens[0] != Vocabulary::kEos);
        }
    }
    // Forced by the caller, <eos> first is kept, with a finite score (fuzz_translate found it -infinity).
    options.forced_prefix = {Vocabulary::kEos};
    for (int beam : {1, 4}) {
        options.beam_size = beam;
        const Hypothesis forced = beam == 1 ? greedy_decode(params, config, {4, 5, 3}, options)
                                            : decode(params, config, {4, 5, 3}, options).front();
        REQUIRE(forced.tokens.size() == 1);
        CHECK(forced.tokens[0] == Vocabulary::kEos);
        CHECK(std::isfinite(forced.log_prob));
        CHECK(std::isfinite(forced.normalized_score));
    }
}

TEST_CASE("a forced prefix is kept and the rest decoded from there; alternatives are listed") {
    const ModelConfig config = tiny_config(AttentionKind::kAdditive);
    const Parameters params = sharp_random_parameters(config, 4);
    DecodeOptions options;
    options.forced_prefix = {9, 10};
    options.alternatives = 3;
    options.max_length = 8;
    for (int beam : {1, 3}) {
        options.beam_size = beam;
        const auto h = decode(params, config, {4, 5, 6, 3}, options).front();
        REQUIRE(h.tokens.size() >= 2);
        CHECK(h.tokens[0] == 9);
        CHECK(h.tokens[1] == 10);
        REQUIRE(h.alternatives.size() == h.tokens.size());
        CHECK(h.alternatives[0].size() == 3);
        CHECK(h.alternatives[0][0].log_prob >= h.alternatives[0][1].log_prob);
    }
}

TEST_CASE("bad decoding options are usage errors") {
    const ModelConfig config = tiny_config(AttentionKind::kAdditive);
    const Parameters params = random_parameters(config, 1);
    DecodeOptions options;
    options.beam_size = 0;
    CHECK_THROWS_WITH(decode(params, config, {4, 3}, options), doctest::Contains("beam size 0"));
    options.beam_size = 1;
    options.forced_prefix = {1000};
    CHECK_THROWS_WITH(decode(params, config, {4, 3}, options), doctest::Contains("forced token"));
    options.forced_prefix = {};
    CHECK_THROWS(decode(params, config, {}, options));
    CHECK_THROWS(decode(params, config, {4, 99, 3}, options));
}
