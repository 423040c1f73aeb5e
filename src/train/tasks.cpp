// The toy tasks of tasks.h (reversal, dates, the user's pairs): data,
// vocabularies and held-out examples.
#include "train/tasks.h"

#include "common/error.h"
#include "text/tokenizer.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string_view>

namespace s2s {
namespace {

// Both sides share the tokenizer kind; the language only steers
// detokenization, and "x" detokenizes like English.
void set_tokenizers(Model& model, TokenizerKind kind) {
    model.source_tokenizer = {kind, "x"};
    model.target_tokenizer = {kind, "x"};
}

void set_vocabularies(Model& model, Vocabulary source, Vocabulary target) {
    model.config.source_vocab_size = source.size();
    model.config.target_vocab_size = target.size();
    model.source_vocabulary = std::move(source);
    model.target_vocabulary = std::move(target);
}

int uniform(Random& random, int low, int high) {  // [low, high]
    return low + static_cast<int>(random.next() % static_cast<uint64_t>(high - low + 1));
}

constexpr std::array<std::string_view, 12> kMonths = {"january", "february", "march",     "april",   "may",      "june",
                                                      "july",    "august",   "september", "october", "november", "december"};
constexpr std::array<std::string_view, 7> kWeekdays = {"sunday",   "monday", "tuesday", "wednesday",
                                                       "thursday", "friday", "saturday"};
constexpr int kDateFormats = 6;

bool leap_year(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int days_in_month(int year, int month) {
    constexpr std::array<int, 12> days = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && leap_year(year) ? 29 : days[static_cast<size_t>(month - 1)];
}

// 0 = Sunday (Sakamoto's method for the Gregorian calendar).
int weekday(int year, int month, int day) {
    constexpr std::array<int, 12> offsets = {0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4};
    if (month < 3) year -= 1;
    return (year + year / 4 - year / 100 + year / 400 + offsets[static_cast<size_t>(month - 1)] + day) % 7;
}

std::string ordinal(int day) {
    const char* suffix = "th";
    if (day % 100 < 11 || day % 100 > 13) {
        if (day % 10 == 1) suffix = "st";
        if (day % 10 == 2) suffix = "nd";
        if (day % 10 == 3) suffix = "rd";
    }
    return std::to_string(day) + suffix;
}

std::string two_digits(int value) { return (value < 10 ? "0" : "") + std::to_string(value); }

// Vocabulary of every token in the examples' texts, in byte order after the
// specials, so that it does not depend on the order of the data.
Vocabulary vocabulary_of(const std::vector<std::vector<std::string>>& sentences) {
    return Vocabulary::build(sentences, /*min_frequency=*/1);
}

}  // namespace

ToyTask make_reversal_task(int symbols, int min_length, int max_length, int train_size, int test_size, uint64_t seed) {
    if (symbols < 2 || symbols > 26) throw UsageError("the reversal task needs 2 to 26 symbols");
    if (min_length < 1 || max_length < min_length || max_length > 100) {
        throw UsageError("the reversal task needs 1 <= min length <= max length <= 100");
    }
    if (train_size < 1 || test_size < 0) throw UsageError("the reversal task needs at least one training example");
    ToyTask task;
    std::vector<std::string> tokens = {"<pad>", "<unk>", "<bos>", "<eos>"};
    for (int s = 0; s < symbols; ++s) tokens.push_back(std::string(1, static_cast<char>('a' + s)));
    set_vocabularies(task.model, Vocabulary::from_tokens(tokens), Vocabulary::from_tokens(tokens));
    set_tokenizers(task.model, TokenizerKind::kWords);
    Random random(seed);
    auto make = [&](int count, std::vector<Example>& out) {
        for (int i = 0; i < count; ++i) {
            const int length = uniform(random, min_length, max_length);
            Example e;
            for (int t = 0; t < length; ++t) e.source.push_back(Vocabulary::kNumSpecial + static_cast<int>(random.next() % symbols));
            e.target.assign(e.source.rbegin(), e.source.rend());
            e.source.push_back(Vocabulary::kEos);
            e.target.push_back(Vocabulary::kEos);
            out.push_back(std::move(e));
        }
    };
    make(train_size, task.train);
    make(test_size, task.test);
    for (const Example& e : task.test) task.test_sources.push_back(example_text(task.model, e.source, false));
    return task;
}

DateExample format_date(int year, int month, int day, int format) {
    const std::string month_name(kMonths.at(static_cast<size_t>(month - 1)));
    const std::string year_text = std::to_string(year);
    DateExample out;
    out.iso = year_text + "-" + two_digits(month) + "-" + two_digits(day);
    switch (((format % kDateFormats) + kDateFormats) % kDateFormats) {
        case 0: out.text = month_name + " " + ordinal(day) + ", " + year_text; break;
        case 1: out.text = std::to_string(day) + " " + month_name + " " + year_text; break;
        case 2: out.text = month_name.substr(0, 3) + " " + std::to_string(day) + ", " + year_text; break;
        case 3: out.text = two_digits(month) + "/" + two_digits(day) + "/" + year_text; break;
        case 4:
            out.text = std::string(kWeekdays.at(static_cast<size_t>(weekday(year, month, day)))) + ", " + month_name + " " +
                       std::to_string(day) + ", " + year_text;
            break;
        default: out.text = "the " + ordinal(day) + " of " + month_name + " " + year_text; break;
    }
    return out;
}

ToyTask make_date_task(int train_size, int test_size, uint64_t seed) {
    if (train_size < 1 || test_size < 0) throw UsageError("the date task needs at least one training example");
    Random random(seed);
    std::vector<DateExample> train, test;
    std::set<std::string> seen;  // a held-out date is never a training date
    auto draw = [&](int count, std::vector<DateExample>& out) {
        for (int attempts = 0; static_cast<int>(out.size()) < count && attempts < count * 20; ++attempts) {
            const int year = uniform(random, 1950, 2049), month = uniform(random, 1, 12);
            const int day = uniform(random, 1, days_in_month(year, month));
            DateExample example = format_date(year, month, day, uniform(random, 0, kDateFormats - 1));
            if (!seen.insert(example.text).second) continue;
            out.push_back(std::move(example));
        }
    };
    draw(test_size, test);
    draw(train_size, train);

    ToyTask task;
    set_tokenizers(task.model, TokenizerKind::kCharacters);
    // Every character any date can use, so that typed probes rarely meet <unk>.
    std::vector<std::vector<std::string>> source_sentences, target_sentences;
    std::string alphabet = "abcdefghijklmnopqrstuvwxyz0123456789,/-";
    source_sentences.push_back(tokenize(alphabet, task.model.source_tokenizer));
    target_sentences.push_back(tokenize("0123456789-", task.model.target_tokenizer));
    set_vocabularies(task.model, vocabulary_of(source_sentences), vocabulary_of(target_sentences));
    auto encode = [&](const std::vector<DateExample>& in, std::vector<Example>& out) {
        for (const DateExample& d : in) {
            out.push_back({task.model.source_vocabulary.encode_with_eos(tokenize(d.text, task.model.source_tokenizer)),
                           task.model.target_vocabulary.encode_with_eos(tokenize(d.iso, task.model.target_tokenizer))});
        }
    };
    encode(train, task.train);
    encode(test, task.test);
    for (const DateExample& d : test) task.test_sources.push_back(d.text);
    return task;
}

ToyTask make_pairs_task(const std::string& tsv, bool characters, int test_every) {
    if (test_every < 2) throw UsageError("test_every must be at least 2");
    ToyTask task;
    set_tokenizers(task.model, characters ? TokenizerKind::kCharacters : TokenizerKind::kWords);
    std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> pairs;
    std::vector<std::string> source_texts;
    size_t line_start = 0;
    int line_number = 0;
    while (line_start <= tsv.size()) {
        size_t line_end = tsv.find('\n', line_start);
        if (line_end == std::string::npos) line_end = tsv.size();
        ++line_number;
        std::string line = tsv.substr(line_start, line_end - line_start);
        line_start = line_end + 1;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        const size_t tab = line.find('\t');
        if (tab == std::string::npos) {
            throw DataError("line " + std::to_string(line_number) +
                            " has no tab: write each pair as the source, a tab, then the target");
        }
        std::vector<std::string> source = tokenize(line.substr(0, tab), task.model.source_tokenizer);
        std::vector<std::string> target = tokenize(line.substr(tab + 1), task.model.target_tokenizer);
        if (source.empty() || target.empty()) {
            throw DataError("line " + std::to_string(line_number) + " has an empty " + (source.empty() ? "source" : "target") +
                            ": write text on both sides of the tab");
        }
        if (source.size() > 60 || target.size() > 60) {
            throw DataError("line " + std::to_string(line_number) +
                            " is longer than 60 tokens on one side: use shorter pairs, the toy model is small");
        }
        pairs.emplace_back(std::move(source), std::move(target));
        source_texts.push_back(line.substr(0, tab));
        if (pairs.size() > 20000) throw DataError("more than 20,000 pairs: paste fewer, the browser trains a small model");
    }
    if (pairs.size() < 4) {
        throw DataError("only " + std::to_string(pairs.size()) +
                        " usable pairs: paste at least 4 lines of source TAB target (a few hundred learn well)");
    }
    std::vector<std::vector<std::string>> sources, targets;
    for (const auto& [source, target] : pairs) {
        sources.push_back(source);
        targets.push_back(target);
    }
    set_vocabularies(task.model, vocabulary_of(sources), vocabulary_of(targets));
    for (size_t i = 0; i < pairs.size(); ++i) {
        const bool held_out = i % static_cast<size_t>(test_every) == static_cast<size_t>(test_every) - 1;
        if (held_out) task.test_sources.push_back(source_texts[i]);
        Example e{task.model.source_vocabulary.encode_with_eos(pairs[i].first),
                  task.model.target_vocabulary.encode_with_eos(pairs[i].second)};
        (held_out ? task.test : task.train).push_back(std::move(e));
    }
    return task;
}

std::string example_text(const Model& model, const std::vector<int>& ids, bool target) {
    const Vocabulary& vocabulary = target ? model.target_vocabulary : model.source_vocabulary;
    const TokenizerSettings& settings = target ? model.target_tokenizer : model.source_tokenizer;
    std::string out;
    for (int id : ids) {
        if (id == Vocabulary::kEos) break;
        if (!out.empty() && settings.kind == TokenizerKind::kWords) out += ' ';
        out += vocabulary.token(id);
    }
    return out;
}

}  // namespace s2s
