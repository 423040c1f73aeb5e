// Term accuracy (src/eval/term_accuracy.h): which glossary terms a sentence
// expects, and whether the translation has them.
#include "common/error.h"
#include "eval/term_accuracy.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>

using namespace s2s;

TEST_CASE("term accuracy: whole words, plurals, longest English term first, Chinese as substrings") {
    const std::vector<GlossaryTerm> fr = {{"attention", "attention"},
                                          {"attention weight", "poids d'attention"},
                                          {"neural network", "réseau de neurones"},
                                          {"decoder", "décodeur"}};
    const std::vector<SourceWithReferences> data = {
        {"The attention weights sum to one.", {"Les poids d'attention ont pour somme un."}},
        {"Neural networks and the decoder.", {"Les réseaux de neurones et le décodeur."}},
        {"The decoder pays attention.", {"Le modèle fait attention."}},  // the reference says no décodeur
    };
    const std::vector<std::string> output = {"Les poids d’attention font un.",  // curly apostrophe: still a match
                                             "Le réseau de neurones et le codeur.", "Le décodeur fait attention."};
    const TermAccuracy a = term_accuracy(fr, data, output, "fr");
    // 1: "attention weight" (not also "attention"); 2: neural network + decoder; 3: attention only.
    CHECK(a.expected == 4);
    CHECK(a.found == 3);  // "codeur" is not "décodeur"
    REQUIRE(a.missed.size() == 1);
    CHECK(a.missed[0].first == "decoder");

    const std::vector<GlossaryTerm> zh = {{"deep learning", "深度学习"}, {"encoder", "编码器"}};
    const std::vector<SourceWithReferences> zh_data = {{"The encoder of deep learning.", {"深度学习的编码器。"}}};
    const TermAccuracy b = term_accuracy(zh, zh_data, {"深度 学习的解码器。"}, "zh");
    CHECK(b.expected == 2);
    CHECK(b.found == 1);
    CHECK(b.accuracy() == doctest::Approx(50.0));
}

TEST_CASE("a glossary file: nouns and phrases of the chosen column; a damaged file is named") {
    const std::string path = "/tmp/s2s-glossary-test.tsv";
    std::ofstream(path) << "english\tfrench\tgender\tchinese\tkind\ttopic\n"
                        << "encoder\tencodeur\tm\t编码器\tnoun\tnmt\n"
                        << "to train\tentraîner\t-\t训练\tverb\tml\n"
                        << "beam search\trecherche en faisceau\tf\t束搜索\tnoun\tnmt\n";
    const auto terms = read_glossary_terms(path, "zh");
    REQUIRE(terms.size() == 2);
    CHECK(terms[1].english == "beam search");
    CHECK(terms[1].target == "束搜索");
    std::ofstream(path) << "english\tfrench\n" << "encoder\tencodeur\n";
    CHECK_THROWS_WITH_AS(read_glossary_terms(path, "fr"), doctest::Contains("no column 'kind'"), DataError);
    std::remove(path.c_str());
    CHECK_THROWS_AS(read_glossary_terms(path, "fr"), DataError);
}
