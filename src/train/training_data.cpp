// The training data of a run (training_data.h).
#include "train/training_data.h"

#include "text/bpe.h"
#include "text/bpe_learn.h"
#include "text/tokenizer.h"

#include <unordered_map>
#include <unordered_set>

namespace s2s {
namespace {

// The English word tokenizer (tokenizer.h) defines "words" here: the length
// limit and the leak guards, whatever pieces the model reads.
const TokenizerSettings& kEnglishWords = english_words_tokenizer();


// One side's vocabulary (and, for subwords, its merges) from the training
// sentences of that side only.
Vocabulary learn_vocabulary(const std::vector<std::string>& sentences, TokenizerSettings& tokenizer, int size,
                            int min_frequency) {
    if (tokenizer.kind == TokenizerKind::kSubwords) {
        std::vector<std::string> pieces;
        tokenizer.bpe = std::make_shared<const BpeModel>(
            learn_bpe(count_pre_tokens(sentences, tokenizer.language), size - Vocabulary::kNumSpecial, &pieces));
        std::vector<std::string> tokens = Vocabulary().tokens();
        tokens.insert(tokens.end(), pieces.begin(), pieces.end());
        return Vocabulary::from_tokens(std::move(tokens));
    }
    std::vector<std::vector<std::string>> tokenized;
    tokenized.reserve(sentences.size());
    for (const std::string& sentence : sentences) tokenized.push_back(tokenize(sentence, tokenizer));
    return Vocabulary::build(tokenized, min_frequency, size);
}

// Pieces of many sentences, each distinct sentence encoded once (the data
// repeats English sentences, one per translation).
std::vector<int> encode_cached(const std::string& text, const TokenizerSettings& tokenizer, const Vocabulary& vocabulary,
                               std::unordered_map<std::string, std::vector<int>>& cache) {
    auto found = cache.find(text);
    if (found == cache.end()) found = cache.emplace(text, vocabulary.encode_with_eos(tokenize(text, tokenizer))).first;
    return found->second;
}

// A words or characters vocabulary that keeps every token of `base`, with
// its id, and appends the tokens of `sentences` it lacks (seen
// `min_frequency` times, most frequent first): --init-model on more data.
Vocabulary grow_vocabulary(const Vocabulary& base, const std::vector<std::string>& sentences,
                           const TokenizerSettings& tokenizer, int min_frequency) {
    std::vector<std::vector<std::string>> tokenized;
    tokenized.reserve(sentences.size());
    for (const std::string& sentence : sentences) tokenized.push_back(tokenize(sentence, tokenizer));
    std::vector<std::string> tokens = base.tokens();
    const Vocabulary seen = Vocabulary::build(tokenized, min_frequency);
    for (int id = Vocabulary::kNumSpecial; id < seen.size(); ++id) {
        if (base.id(seen.token(id)) == Vocabulary::kUnk) tokens.push_back(seen.token(id));
    }
    return Vocabulary::from_tokens(std::move(tokens));
}

}  // namespace

PreparedData prepare_data(const std::vector<SentencePair>& pairs, const TrainingDataOptions& options, Model& model,
                          bool learn_source, const Vocabulary* target_base, const std::vector<SentencePair>& excluded,
                          const std::vector<std::vector<SentencePair>>& extra) {
    const CorpusSplit split = split_by_source(pairs, options.dev_fraction, options.split_seed);
    // The split groups English sentences by their normalized text; two
    // spellings that tokenize alike ("Go." and "Go .") could still land on
    // both sides. Drop such training pairs so that no development source is
    // ever seen in training; the same guard keeps the extra files' pairs
    // off the development sources.
    std::unordered_set<std::string> dev_sources;
    for (const auto& entry : split.dev) dev_sources.insert(token_key(entry.source, kEnglishWords));
    std::unordered_set<std::string> excluded_sources;
    for (const auto& pair : excluded) excluded_sources.insert(token_key(pair.source, kEnglishWords));
    std::vector<std::string> sources, targets;
    PreparedData out;
    const auto usable = [&](const SentencePair& pair) {
        const auto words = tokenize(pair.source, kEnglishWords);
        if (words.empty() || normalize_text(pair.target).empty() || count_words(words) > options.max_source_words) {
            ++out.skipped_pairs;
            return false;
        }
        const std::string key = join_tokens(words);
        if (dev_sources.count(key) != 0) {
            ++out.leaked_pairs;
            return false;
        }
        if (excluded_sources.count(key) != 0) {
            ++out.excluded_pairs;
            return false;
        }
        return true;
    };
    for (const SentencePair& pair : split.train) {
        if (!usable(pair)) continue;
        sources.push_back(pair.source);
        targets.push_back(pair.target);
    }
    out.extra_used.assign(extra.size(), 0);
    for (size_t file = 0; file < extra.size(); ++file) {
        for (const SentencePair& pair : extra[file]) {
            if (!usable(pair)) continue;
            ++out.extra_used[file];
            for (int r = 0; r < options.extra[file].repeat; ++r) {
                sources.push_back(pair.source);
                targets.push_back(pair.target);
            }
        }
    }
    const auto size_of = [](const TokenizerSettings& t, int pieces, int max_words) {
        return t.kind == TokenizerKind::kSubwords ? pieces : max_words;
    };
    if (learn_source) {
        model.source_vocabulary =
            learn_vocabulary(sources, model.source_tokenizer,
                             size_of(model.source_tokenizer, options.source_pieces, options.max_source_vocab), options.min_frequency);
    }
    if (target_base == nullptr) {
        model.target_vocabulary =
            learn_vocabulary(targets, model.target_tokenizer,
                             size_of(model.target_tokenizer, options.target_pieces, options.max_target_vocab), options.min_frequency);
    } else if (model.target_tokenizer.kind == TokenizerKind::kSubwords) {
        model.target_vocabulary = *target_base;
    } else {
        model.target_vocabulary = grow_vocabulary(*target_base, targets, model.target_tokenizer, options.min_frequency);
    }
    std::unordered_map<std::string, std::vector<int>> source_cache, target_cache;
    for (size_t k = 0; k < sources.size(); ++k) {
        out.train.push_back({encode_cached(sources[k], model.source_tokenizer, model.source_vocabulary, source_cache),
                             encode_cached(targets[k], model.target_tokenizer, model.target_vocabulary, target_cache)});
    }
    out.train_sources = std::move(sources);
    out.dev = split.dev;
    out.train_pairs = static_cast<long>(out.train.size());
    return out;
}

}  // namespace s2s
