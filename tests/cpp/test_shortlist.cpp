// The lexical shortlist (src/decode/shortlist.h): the block kernel, decoding
// with a shortlist of every target (bit-identical to none), the candidates,
// the builder, and the model header field (round trip, damage refused).
#include "common/error.h"
#include "decode/search.h"
#include "decode/shortlist.h"
#include "train/shortlist_builder.h"
#include "kernels/int8_kernels.h"
#include "model/model.h"
#include "test_helpers.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace s2s;
using namespace s2s::testing;

namespace {

Model reloaded_int8(const Model& model) {
    const auto bytes = serialize_model(model, TensorDtype::kInt8);
    return model_from_bytes(bytes.data(), bytes.size());
}

// The header field as format versions 1 to 3 stored it, with "triggers":
// base64 of the little-endian uint16 ids (0xFFFF = none), written here
// independently of the reader.
nlohmann::json field_of_version_3(const TargetShortlist& shortlist) {
    static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::vector<uint8_t> bytes;
    for (int id : shortlist.triggers) {
        const auto v = static_cast<uint16_t>(id < 0 ? 0xFFFF : id);
        bytes.push_back(uint8_t(v & 0xFF));
        bytes.push_back(uint8_t(v >> 8));
    }
    std::string text;
    for (size_t i = 0; i < bytes.size(); i += 3) {
        const size_t left = bytes.size() - i;
        const uint32_t n = uint32_t(bytes[i]) << 16 | (left > 1 ? uint32_t(bytes[i + 1]) << 8 : 0) | (left > 2 ? bytes[i + 2] : 0);
        text += kAlphabet[n >> 18 & 63];
        text += kAlphabet[n >> 12 & 63];
        text += left > 1 ? kAlphabet[n >> 6 & 63] : '=';
        text += left > 2 ? kAlphabet[n & 63] : '=';
    }
    nlohmann::json field = target_shortlist_to_json(shortlist);
    field["triggers"] = text;
    return field;
}

std::string refusal(const nlohmann::json& field, int source_vocab, int target_vocab) {
    try {
        target_shortlist_from_json(field, source_vocab, target_vocab);
    } catch (const ModelFileError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("shortlist: the block kernel gives exactly the full kernel's rows, on both paths") {
    std::mt19937 random(7);
    std::uniform_int_distribution<int> value(-127, 127);
    for (int rows : {8, 37, 64}) {
        const int cols = 10;
        std::vector<int8_t> w(static_cast<size_t>(rows) * cols);
        for (auto& v : w) v = static_cast<int8_t>(value(random));
        std::vector<float> scales(rows);
        for (int r = 0; r < rows; ++r) scales[r] = 0.01f + 0.001f * r;
        const Int8Matrix packed = pack_int8_rows(rows, cols, w.data(), scales.data());
        Matrix bias = Matrix::Random(rows, 1);
        const int blocks = (rows + 7) / 8;
        for (int K : {1, 2, 3, 4, 5}) {
            const Matrix x = Matrix::Random(cols, K);
            for (KernelPath path : {KernelPath::kBest, KernelPath::kScalar}) {
                Matrix full;
                affine_columns_int8(packed, x, &bias, full, path);
                for (int trial = 0; trial < 8; ++trial) {
                    std::vector<int> list;
                    for (int b = 0; b < blocks; ++b) {
                        if (trial == 0 || (random() % 2) == 0) list.push_back(b);
                    }
                    if (list.empty()) list.push_back(blocks - 1);
                    Matrix some;
                    affine_columns_int8_blocks(packed, x, &bias, list, some, path);
                    int expected_rows = 0;
                    for (int b : list) expected_rows += std::min(8, rows - 8 * b);
                    REQUIRE(some.rows() == expected_rows);
                    REQUIRE(some.cols() == K);
                    for (size_t i = 0; i < list.size(); ++i) {
                        for (int r = 8 * list[i]; r < std::min(rows, 8 * list[i] + 8); ++r) {
                            for (int k = 0; k < K; ++k) CHECK(some(8 * static_cast<int>(i) + r - 8 * list[i], k) == full(r, k));
                        }
                    }
                    Matrix other;  // the other path: the same bits
                    affine_columns_int8_blocks(packed, x, &bias, list, other,
                                               path == KernelPath::kBest ? KernelPath::kScalar : KernelPath::kBest);
                    CHECK(other == some);
                }
            }
        }
        Matrix y;
        CHECK_THROWS_AS(affine_columns_int8_blocks(packed, Matrix::Random(cols, 1), &bias, {blocks}, y), std::invalid_argument);
        CHECK_THROWS_AS(affine_columns_int8_blocks(packed, Matrix::Random(cols, 1), &bias, {0, 0}, y), std::invalid_argument);
    }
}

TEST_CASE("shortlist: one that holds every target translates bit for bit as none, beam 1 and 4; a short one only "
          "writes candidates") {
    const Model model = reloaded_int8(scaled_model(45, 11));  // 6 blocks, the last of 5 rows
    TargetShortlist all;
    all.always = 45;
    all.per_target = 1;
    TargetShortlist triggered;  // M = 4, every target triggered by any source piece 4..10: all blocks again
    triggered.always = 4;
    triggered.per_target = 2;
    for (int t = 4; t < 45; ++t) {
        triggered.triggers.push_back(4 + t % 7);
        triggered.triggers.push_back(-1);
    }
    const std::vector<int> source = {4, 5, 6, 7, 8, 9, 10, 3};
    for (const TargetShortlist* shortlist : {&all, &triggered}) {
        REQUIRE(shortlist_blocks(*shortlist, source, 45).size() == 6);
        for (int beam : {1, 4}) {
            DecodeOptions options;
            options.beam_size = beam;
            options.alternatives = 3;
            const auto a = decode(model.params, model.config, source, options, &model.int8_step);
            const auto b = decode(model.params, model.config, source, options, &model.int8_step, nullptr, shortlist);
            REQUIRE(a.size() == b.size());
            for (size_t i = 0; i < a.size(); ++i) {
                CHECK(a[i].tokens == b[i].tokens);
                CHECK(a[i].token_log_probs == b[i].token_log_probs);
                CHECK(a[i].normalized_score == b[i].normalized_score);
                REQUIRE(a[i].alternatives.size() == b[i].alternatives.size());
                for (size_t t = 0; t < a[i].alternatives.size(); ++t) {
                    for (size_t j = 0; j < a[i].alternatives[t].size(); ++j) {
                        CHECK(a[i].alternatives[t][j].token == b[i].alternatives[t][j].token);
                        CHECK(a[i].alternatives[t][j].log_prob == b[i].alternatives[t][j].log_prob);
                    }
                }
            }
        }
        const Hypothesis g = greedy_decode(model.params, model.config, source, DecodeOptions{}, &model.int8_step);
        const Hypothesis h = greedy_decode(model.params, model.config, source, DecodeOptions{}, &model.int8_step, shortlist);
        CHECK(g.tokens == h.tokens);
        CHECK(g.token_log_probs == h.token_log_probs);
    }

    // A short one: M = 8 (block 0) and target 30 triggered by source 5 (block 3).
    TargetShortlist short_list;
    short_list.always = 8;
    short_list.per_target = 1;
    short_list.triggers.assign(45 - 8, -1);
    short_list.triggers[30 - 8] = 5;
    CHECK(shortlist_blocks(short_list, source, 45) == std::vector<int>{0, 3});
    for (int beam : {1, 4}) {
        DecodeOptions options;
        options.beam_size = beam;
        options.max_length = 12;
        for (const Hypothesis& h : decode(model.params, model.config, source, options, &model.int8_step, nullptr, &short_list)) {
            for (int t : h.tokens) CHECK((t < 8 || (t >= 24 && t < 32)));
        }
        options.shortlist = false;  // off: as without one
        const auto a = decode(model.params, model.config, source, options, &model.int8_step);
        const auto b = decode(model.params, model.config, source, options, &model.int8_step, nullptr, &short_list);
        CHECK(a.front().tokens == b.front().tokens);
        CHECK(a.front().token_log_probs == b.front().token_log_probs);
    }
    // Only possible tokens are chosen or offered: the short list leaves 14
    // (8 + 8 rows, less <pad> and <bos>), 13 at the first step (no <eos>
    // there), so beam 16 and 16 alternatives get fewer, never one at
    // probability 0 (-infinity) or a forbidden special.
    {
        DecodeOptions wide;
        wide.beam_size = 16;
        wide.alternatives = 16;
        wide.max_length = 6;
        wide.beam_tree = true;
        DecodeTrace tree;
        const auto hypotheses = decode(model.params, model.config, source, wide, &model.int8_step, &tree, &short_list);
        for (const Hypothesis& h : hypotheses) {
            for (float lp : h.token_log_probs) CHECK(lp > -1e29f);
            for (const auto& position : h.alternatives) {
                CHECK(position.size() <= 14);
                CHECK_FALSE(position.empty());
                for (const TokenChoice& c : position) {
                    CHECK(std::isfinite(c.log_prob));
                    CHECK(c.token != Vocabulary::kPad);
                    CHECK(c.token != Vocabulary::kBos);
                }
            }
        }
        CHECK(hypotheses.front().alternatives.front().size() == 13);
        CHECK(hypotheses.front().alternatives.at(1).size() == 14);
        REQUIRE_FALSE(tree.beam_tree.empty());
        CHECK(tree.beam_tree.front().size() == 13);  // the first step's candidates: every possible token but <eos>
        for (const auto& step : tree.beam_tree) {
            for (const BeamNode& node : step) CHECK(node.score > -1e29);
        }
    }
    // A forced prefix's tokens are candidates too.
    DecodeOptions forced;
    forced.forced_prefix = {40};
    const auto f = decode(model.params, model.config, source, forced, &model.int8_step, nullptr, &short_list);
    CHECK(f.front().tokens.front() == 40);
    CHECK(std::isfinite(f.front().token_log_probs.front()));
}

TEST_CASE("shortlist: the candidates always include the specials and every id below M") {
    TargetShortlist s;
    s.always = 21;
    s.per_target = 2;
    s.triggers.assign(static_cast<size_t>(100 - 21) * 2, -1);
    s.triggers[(77 - 21) * 2 + 1] = 9;  // target 77 (block 9), second trigger: source 9
    for (const std::vector<int>& source : {std::vector<int>{3}, std::vector<int>{5, 6, 3}}) {
        CHECK(shortlist_blocks(s, source, 100) == std::vector<int>{0, 1, 2});  // ids 0..23 hold 0..20
    }
    CHECK(shortlist_blocks(s, {9, 3}, 100) == std::vector<int>{0, 1, 2, 9});
    CHECK(shortlist_blocks(s, {3}, 100, {99}) == std::vector<int>{0, 1, 2, 12});
    TargetShortlist minimal;
    minimal.always = 4;
    minimal.per_target = 1;
    minimal.triggers.assign(96, -1);
    CHECK(shortlist_blocks(minimal, {5, 3}, 100) == std::vector<int>{0});  // <pad> <unk> <bos> <eos> are in block 0
}

TEST_CASE("shortlist: the builder picks the source piece that predicts a target, not the one everywhere") {
    // Source 4 is in every sentence; source 5 comes with target 20 and only with it; 6 is noise.
    std::vector<std::vector<int>> sources, targets;
    for (int n = 0; n < 20; ++n) {
        std::vector<int> s = {4}, t = {8};
        if (n % 2 == 0) {
            s.push_back(5);
            t.push_back(20);
        }
        if (n % 3 == 0) s.push_back(6);
        if (n % 5 == 0) t.push_back(21);
        sources.push_back(s);
        targets.push_back(t);
    }
    const TargetShortlist s = build_target_shortlist(sources, targets, 10, 24, 16, 2);
    CHECK(s.always == 16);
    CHECK(s.per_target == 2);
    REQUIRE(s.triggers.size() == static_cast<size_t>(24 - 16) * 2);
    CHECK(s.triggers[(20 - 16) * 2] == 5);
    CHECK(s.triggers[(20 - 16) * 2 + 1] == 6);  // 4 scores 0: log(N / N)
    CHECK(s.triggers[(22 - 16) * 2] == -1);     // never seen
    ShortlistScore floor;
    floor.min_count = 5;  // 6 meets target 20 in 4 sentences (0, 6, 12, 18): below the floor
    CHECK(build_target_shortlist(sources, targets, 10, 24, 16, 2, floor).triggers[(20 - 16) * 2 + 1] == -1);
    ShortlistScore common;
    common.max_source_share = 0.4;  // 5 is in half of the sentences: left out
    CHECK(build_target_shortlist(sources, targets, 10, 24, 16, 2, common).triggers[(20 - 16) * 2] == 6);
    CHECK_THROWS_AS(build_target_shortlist(sources, targets, 10, 24, 3, 2), UsageError);
    CHECK_THROWS_AS(build_target_shortlist(sources, targets, 10, 24, 16, 0), UsageError);
}

TEST_CASE("shortlist: the model file keeps it, a model without one has none, and damage is refused naming it") {
    Model model = scaled_model(45, 3);
    {
        const Model plain = reloaded_int8(model);
        CHECK_FALSE(plain.target_shortlist.has_value());
        CHECK_FALSE(model_header(plain).contains("target_shortlist"));
    }
    TargetShortlist s;
    s.always = 9;
    s.per_target = 3;
    for (int i = 0; i < (45 - 9) * 3; ++i) s.triggers.push_back(i % 4 == 0 ? -1 : 4 + i % 7);
    s.built_from = {{"data", "train.tsv"}};
    model.target_shortlist = s;
    for (TensorDtype dtype : {TensorDtype::kFloat32, TensorDtype::kInt8}) {
        const auto bytes = serialize_model(model, dtype);
        // The header keeps the sizes, a record the triggers.
        const ModelFileLayout layout = read_model_layout(bytes.data(), bytes.size());
        CHECK(layout.header.at("target_shortlist") == nlohmann::json({{"always", 9}, {"per_target", 3}, {"built_from", s.built_from}}));
        const auto record = std::find_if(layout.records.begin(), layout.records.end(),
                                         [](const RecordLayout& r) { return r.name == "target_shortlist.triggers"; });
        REQUIRE(record != layout.records.end());
        CHECK(record->dtype == RecordDtype::kUint16);
        CHECK(record->rows == 45 - 9);
        CHECK(record->cols == 3);
        CHECK(uint16_record_value(bytes.data(), *record, 0) == 0xFFFF);
        CHECK(uint16_record_value(bytes.data(), *record, 1) == 5);
        const Model loaded = model_from_bytes(bytes.data(), bytes.size());
        REQUIRE(loaded.target_shortlist.has_value());
        CHECK(loaded.target_shortlist->always == 9);
        CHECK(loaded.target_shortlist->per_target == 3);
        CHECK(loaded.target_shortlist->triggers == s.triggers);
        CHECK(loaded.target_shortlist->built_from == s.built_from);
    }
    {
        // The record read in place: its shape must be the one M and K give,
        // and the field must not hold triggers too.
        const std::vector<uint16_t> ids = target_shortlist_trigger_ids(s);
        std::vector<uint8_t> little_endian;
        for (uint16_t id : ids) little_endian.insert(little_endian.end(), {uint8_t(id & 0xFF), uint8_t(id >> 8)});
        const nlohmann::json field = target_shortlist_to_json(s);
        CHECK(target_shortlist_from_record(field, 11, 45, little_endian.data(), 36, 3).triggers == s.triggers);
        const auto refused = [&](const nlohmann::json& j, uint32_t rows, uint32_t cols) {
            try {
                target_shortlist_from_record(j, 11, 45, little_endian.data(), rows, cols);
            } catch (const ModelFileError& e) {
                return std::string(e.what());
            }
            return std::string();
        };
        CHECK(refused(field, 36 * 3, 1).find("has triggers of 108 x 1 where (target vocabulary 45 - always 9) x per_target 3 = 36 x 3 were expected") != std::string::npos);
        CHECK(refused(field, 35, 3).find("were expected") != std::string::npos);
        CHECK(refused(field_of_version_3(s), 36, 3).find("holds 'triggers'") != std::string::npos);
    }

    // The field of format versions 1 to 3, triggers in base64.
    const nlohmann::json good = field_of_version_3(s);
    CHECK(target_shortlist_from_json(good, 11, 45).triggers == s.triggers);
    CHECK(refusal(good, 11, 45).empty());
    auto damaged = [&](auto change) {
        nlohmann::json j = good;
        change(j);
        return refusal(j, 11, 45);
    };
    CHECK(damaged([](nlohmann::json& j) { j["always"] = 2; }).find("always 2, outside 4..45") != std::string::npos);
    CHECK(damaged([](nlohmann::json& j) { j["per_target"] = 99; }).find("per_target 99") != std::string::npos);
    CHECK(damaged([](nlohmann::json& j) { j.erase("triggers"); }).find("needs 'triggers'") != std::string::npos);
    CHECK(damaged([](nlohmann::json& j) { j["triggers"] = "AAA"; }).find("not a multiple of 4") != std::string::npos);
    CHECK(damaged([](nlohmann::json& j) { j["triggers"] = std::string(j["triggers"]).replace(4, 1, "!"); })
              .find("not base64 at offset 4 of") != std::string::npos);
    CHECK(damaged([](nlohmann::json& j) { j["triggers"] = std::string(j["triggers"]).replace(6, 1, "="); })
              .find("not base64 at offset 6 of") != std::string::npos);
    CHECK(damaged([](nlohmann::json& j) {
              std::string t = j["triggers"];
              j["triggers"] = t.replace(t.size() - 2, 2, "=A");
          }).find("padding before the end") != std::string::npos);
    {
        // Triggers whose bytes are no multiple of 3 end in padding: 35 ids, 70 bytes, "==".
        TargetShortlist odd;
        odd.always = 10;
        odd.per_target = 1;
        for (int i = 0; i < 45 - 10; ++i) odd.triggers.push_back(i % 5 == 0 ? -1 : i % 11);
        const nlohmann::json j = field_of_version_3(odd);
        REQUIRE(j["triggers"].get<std::string>().substr(j["triggers"].get<std::string>().size() - 2) == "==");
        CHECK(target_shortlist_from_json(j, 11, 45).triggers == odd.triggers);
    }
    CHECK(damaged([](nlohmann::json& j) { j["per_target"] = 2; }).find("were expected") != std::string::npos);
    CHECK(damaged([](nlohmann::json& j) { j = 3; }).find("must be an object") != std::string::npos);
    // A source id beyond the vocabulary, through the whole file.
    model.target_shortlist->triggers[5] = 11;
    const auto bytes = serialize_model(model, TensorDtype::kInt8);
    try {
        model_from_bytes(bytes.data(), bytes.size());
        FAIL("a trigger outside the source vocabulary was accepted");
    } catch (const ModelFileError& e) {
        const std::string message = e.what();
        CHECK(message.find("'target_shortlist' has trigger 5 = source id 11, outside the source vocabulary (11)") !=
              std::string::npos);
        CHECK(message.find("seq2seq shortlist") != std::string::npos);
    }
}

TEST_CASE("only <pad>, <bos> and pieces outside a shortlist are impossible: a damaged model's very low log probabilities still decode") {
    // <pad>'s bias far above the rest: every other log probability is about
    // -1e35, finite; <pad> itself is forbidden. Beam search must still find
    // hypotheses (the fuzzer's model file that found an empty result).
    Model model = scaled_model(21, 5);
    model.params.output_bias.setZero();
    model.params.output_bias(Vocabulary::kPad) = 1e35f;
    for (int beam : {1, 3}) {
        DecodeOptions options;
        options.beam_size = beam;
        options.max_length = 5;
        options.alternatives = 2;
        const auto hypotheses = decode(model.params, model.config, {4, 5, 3}, options);
        REQUIRE_FALSE(hypotheses.empty());
        for (const Hypothesis& h : hypotheses) {
            for (int t : h.tokens) CHECK((t != Vocabulary::kPad && t != Vocabulary::kBos));
            for (const auto& position : h.alternatives) CHECK(position.size() == 2);
        }
    }
}
