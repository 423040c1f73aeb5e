// A training run's second stage and its checkpoint averaging (how en-zh is
// trained: scripts/train.sh): --init-model starts every weight from a
// finished run's checkpoint, --average-last writes the mean of the last
// checkpoints, and both refuse what would make a different model than asked.
#include "common/error.h"
#include "model/model.h"
#include "test_helpers.h"
#include "train/training_run.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace s2s;

namespace {

struct Folder {
    std::filesystem::path path;
    Folder() {
        path = std::filesystem::temp_directory_path() / ("s2s-run-" + std::to_string(::getpid()));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
        std::ofstream tsv(path / "pairs.tsv");
        const char* pairs[][2] = {{"I see the cat.", "Je vois le chat."},   {"I see the dog.", "Je vois le chien."},
                                  {"We see the cat.", "Nous voyons le chat."}, {"We drink water.", "Nous buvons de l'eau."},
                                  {"I drink water.", "Je bois de l'eau."},    {"The cat sleeps.", "Le chat dort."},
                                  {"The dog sleeps.", "Le chien dort."},      {"I sleep.", "Je dors."},
                                  {"We sleep.", "Nous dormons."},             {"The dog drinks.", "Le chien boit."}};
        for (int repeat = 0; repeat < 3; ++repeat) {
            for (const auto& p : pairs) tsv << p[0] << '\t' << p[1] << '\n';
        }
    }
    ~Folder() { std::filesystem::remove_all(path); }
    std::string operator/(const std::string& name) const { return (path / name).string(); }
};

TrainingRunOptions tiny_run(const Folder& folder, const std::string& name, long steps) {
    TrainingRunOptions o;
    o.data.path = folder / "pairs.tsv";
    o.data.dev_fraction = 0.1;
    o.data.min_frequency = 1;
    testing::set_architecture(o.config, 8, 8, 12, 6, 8, AttentionKind::kAdditive);
    o.trainer.total_steps = steps;
    o.trainer.batch_size = 4;
    o.trainer.warmup_steps = 2;
    o.trainer.learning_rate = 0.01f;
    o.trainer.threads = 1;
    o.eval_every = 0;
    o.checkpoint_every = 5;
    o.checkpoint_dir = folder / name;
    o.output_path = folder / (name + ".s2s");
    o.name = name;
    return o;
}

TrainingRunHooks no_scoring() {
    TrainingRunHooks hooks;
    hooks.evaluate = [](const Model&, const std::vector<SourceWithReferences>&) { return DevScore{}; };
    return hooks;
}

std::vector<Matrix> tensors_of(const Parameters& p) {
    std::vector<Matrix> out;
    p.for_each_tensor([&](const std::string&, const Matrix& m) { out.push_back(m); });
    return out;
}

void quiet(const std::string&) {}

// A whole run: trained to its last step and written. Returns what train() does
// (false when stopped by the time limit).
bool run_to_end(const TrainingRunOptions& options) {
    TrainingRun run(options, quiet);
    const bool finished = run.train(no_scoring());
    run.finish(no_scoring());
    return finished;
}

}  // namespace

TEST_CASE("--init-model starts every weight from a finished run; --average-last writes the mean of the last checkpoints") {
    const Folder folder;
    CHECK(run_to_end(tiny_run(folder, "first", 12)));
    const Model donor = load_model(folder / "first/checkpoint.s2s");

    TrainingRunOptions options = tiny_run(folder, "second", 17);
    options.init_model_path = folder / "first/checkpoint.s2s";
    options.average_last = 3;
    options.trainer.seed = 2;
    TrainingRun second(options, quiet);
    const std::vector<Matrix> start = tensors_of(second.model().params), from = tensors_of(donor.params);
    REQUIRE(start.size() == from.size());
    for (size_t i = 0; i < start.size(); ++i) CHECK(start[i] == from[i]);
    CHECK(second.model().provenance.is_object());

    CHECK(second.train(no_scoring()));
    // Snapshots at the final step and every checkpoint_every before it.
    for (long step : {10, 15, 17}) CHECK(std::filesystem::exists(folder / ("second/snapshot-" + std::to_string(step) + ".s2s")));
    CHECK_FALSE(std::filesystem::exists(folder / "second/snapshot-5.s2s"));
    second.finish(no_scoring());

    const Model written = load_model(folder / "second.s2s");
    std::vector<std::vector<Matrix>> snapshots;
    for (long step : {10, 15, 17}) {
        snapshots.push_back(tensors_of(load_model(folder / ("second/snapshot-" + std::to_string(step) + ".s2s")).params));
    }
    const std::vector<Matrix> mean = tensors_of(written.params);
    for (size_t i = 0; i < mean.size(); ++i) {
        const Matrix expected = (snapshots[0][i] + snapshots[1][i] + snapshots[2][i]) * (1.0f / 3.0f);
        CHECK((mean[i] - expected).cwiseAbs().maxCoeff() <= 1e-6f);
    }
    CHECK_FALSE(mean[0] == snapshots[2][0]);  // not just the last weights
    const nlohmann::json& training = written.provenance.at("training");
    CHECK(training.at("averaged_checkpoints").at("steps") == nlohmann::json({10, 15, 17}));
    CHECK(training.at("init_model").at("name") == "first");
    CHECK(training.at("init_model").at("steps") == 12);
}

TEST_CASE("--init-model and --average-last refuse what would give another model than asked") {
    const Folder folder;
    run_to_end(tiny_run(folder, "first", 6));
    SUBCASE("other sizes") {
        TrainingRunOptions options = tiny_run(folder, "wide", 4);
        options.config.decoder_hidden_size = 16;
        options.init_model_path = folder / "first/checkpoint.s2s";
        CHECK_THROWS_WITH_AS(TrainingRun(options, quiet), doctest::Contains("other sizes"), UsageError);
    }
    SUBCASE("another target language") {
        TrainingRunOptions options = tiny_run(folder, "zh", 4);
        options.data.target_language = "zh";
        options.init_model_path = folder / "first/checkpoint.s2s";
        CHECK_THROWS_WITH_AS(TrainingRun(options, quiet), doctest::Contains("{target-language}"), UsageError);
    }
    SUBCASE("both initializations") {
        TrainingRunOptions options = tiny_run(folder, "both", 4);
        options.init_model_path = folder / "first/checkpoint.s2s";
        options.init_encoder_path = folder / "first.s2s";
        CHECK_THROWS_AS(TrainingRun(options, quiet), UsageError);
    }
    SUBCASE("a missing snapshot names the fix") {
        TrainingRunOptions options = tiny_run(folder, "resumed", 12);
        TrainingRun run(options, quiet);
        run.train(no_scoring());  // trained without --average-last: no snapshots
        TrainingRunOptions averaged = options;
        averaged.average_last = 2;
        averaged.resume = true;
        TrainingRun finishing(averaged, quiet);
        CHECK_THROWS_WITH_AS(finishing.finish(no_scoring()), doctest::Contains("snapshot"), IoError);
    }
}

TEST_CASE("--init-model from rounded weights starts from them as decoded, and records their storage") {
    const Folder folder;
    TrainingRunOptions first = tiny_run(folder, "int8", 6);
    first.output_dtype = TensorDtype::kInt8;
    run_to_end(first);
    const Model donor = load_model(folder / "int8.s2s");
    TrainingRunOptions next = tiny_run(folder, "from-int8", 4);
    next.init_model_path = folder / "int8.s2s";
    TrainingRun run(next, quiet);
    const std::vector<Matrix> start = tensors_of(run.model().params), from = tensors_of(donor.params);
    for (size_t i = 0; i < start.size(); ++i) CHECK(start[i] == from[i]);
    run.train(no_scoring());
    run.finish(no_scoring());
    const nlohmann::json init = load_model(folder / "from-int8.s2s").provenance.at("training").at("init_model");
    CHECK(init.at("stored_dtype") == "i8");
    CHECK(init.at("target_tokens_added") == 0);
}

TEST_CASE("--extra-data: training-only pairs, repeated, never a development source; --init-model grows a word target") {
    const Folder folder;
    CHECK(run_to_end(tiny_run(folder, "first", 8)));
    const Model donor = load_model(folder / "first/checkpoint.s2s");
    TrainingRun plain(tiny_run(folder, "plain", 4), quiet);
    REQUIRE(plain.dev_sentences() > 0);
    // Extra pairs: two new ones with new French words, and one whose English
    // is a development source of pairs.tsv (it must be dropped).
    {
        TrainingRunOptions o = tiny_run(folder, "dev", 4);
        o.data.export_dev_path = folder / "dev.tsv";
        TrainingRun run(o, quiet);
    }
    std::ifstream dev(folder / "dev.tsv");
    std::string dev_line;
    REQUIRE(std::getline(dev, dev_line));
    const std::string dev_source = dev_line.substr(0, dev_line.find('\t'));
    std::ofstream(folder / "extra.tsv") << "The encoder sleeps.\tLe codeur dort.\nThe reader sleeps.\tLe lecteur dort.\n"
                                        << dev_source << "\tune fuite\n";

    TrainingRunOptions options = tiny_run(folder, "second", 6);
    options.init_model_path = folder / "first/checkpoint.s2s";
    options.data.extra = {{folder / "extra.tsv", 3}};
    TrainingRun second(options, quiet);
    // Both new French words join the target, at its end; every old token keeps its id.
    const Vocabulary& target = second.model().target_vocabulary;
    CHECK(target.size() == donor.target_vocabulary.size() + 2);
    for (int id = 0; id < donor.target_vocabulary.size(); ++id) CHECK(target.token(id) == donor.target_vocabulary.token(id));
    CHECK(target.id("codeur") >= donor.target_vocabulary.size());
    CHECK(target.id("lecteur") >= donor.target_vocabulary.size());
    CHECK(target.id("fuite") == Vocabulary::kUnk);  // the leaked pair was dropped before the vocabulary was grown
    // The old rows keep the donor's weights; the new ones start elsewhere.
    const Matrix& out = second.model().params.output_weights;
    CHECK(out.topRows(donor.config.target_vocab_size) == donor.params.output_weights);
    CHECK(second.train(no_scoring()));
    second.finish(no_scoring());
    const nlohmann::json extra = load_model(folder / "second.s2s").provenance.at("extra_data");
    REQUIRE(extra.size() == 1);
    CHECK(extra[0].at("file") == "extra.tsv");
    CHECK(extra[0].at("pairs") == 3);
    CHECK(extra[0].at("pairs_used") == 2);
    CHECK(extra[0].at("repeat") == 3);
}

TEST_CASE("--teacher: word-level distillation from a model of other sizes, recorded, and resumed only with it") {
    const Folder folder;
    TrainingRunOptions teacher_run = tiny_run(folder, "teacher", 8);
    teacher_run.config.decoder_hidden_size = 16;  // a teacher of its own sizes
    run_to_end(teacher_run);
    TrainingRunOptions options = tiny_run(folder, "student", 10);
    options.teacher_path = folder / "teacher.s2s";
    options.trainer.teacher_weight = 0.7f;
    CHECK(run_to_end(options));
    const Model student = load_model(folder / "student.s2s");
    const nlohmann::json& teacher = student.provenance.at("training").at("teacher");
    CHECK(teacher.at("file") == "teacher.s2s");
    CHECK(teacher.at("name") == "teacher");
    CHECK(teacher.at("weight") == doctest::Approx(0.7));

    // The teacher changes the run: the same run without it ends elsewhere.
    run_to_end(tiny_run(folder, "plain", 10));
    CHECK_FALSE(tensors_of(load_model(folder / "plain.s2s").params)[0] ==
                tensors_of(load_model(folder / "student.s2s").params)[0]);
    CHECK(load_model(folder / "plain.s2s").provenance.at("training").at("teacher").is_null());

    SUBCASE("resuming without the teacher, or with another weight, is refused") {
        TrainingRunOptions stopped = tiny_run(folder, "stopped", 10);
        stopped.teacher_path = folder / "teacher.s2s";
        {
            TrainingRun run(stopped, quiet);
            run.train(no_scoring());  // its checkpoint, at the final step
        }
        TrainingRunOptions without = stopped;
        without.teacher_path.clear();
        without.resume = true;
        CHECK_THROWS_WITH_AS(TrainingRun(without, quiet), doctest::Contains("{teacher}"), ModelFileError);
        TrainingRunOptions reweighted = stopped;
        reweighted.trainer.teacher_weight = 0.3f;
        reweighted.resume = true;
        CHECK_THROWS_WITH_AS(TrainingRun(reweighted, quiet), doctest::Contains("teacher weight"), ModelFileError);
    }
    SUBCASE("a teacher with other tokens is refused, naming them") {
        std::ofstream(folder / "other.tsv") << "Hello.\tBonjour.\nGood night.\tBonne nuit.\nHello again.\tRebonjour.\n";
        TrainingRunOptions other = tiny_run(folder, "other", 4);
        other.data.path = folder / "other.tsv";
        other.data.dev_fraction = 0.01;
        run_to_end(other);
        TrainingRunOptions mismatched = tiny_run(folder, "mismatched", 4);
        mismatched.teacher_path = folder / "other.s2s";
        CHECK_THROWS_WITH_AS(TrainingRun(mismatched, quiet), doctest::Contains("other tokens"), UsageError);
    }
}
