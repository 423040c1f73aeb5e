#include "model/model.h"

#include "common/error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>

namespace s2s {
namespace {

constexpr const char* kFormatName = "seq2seq-attention";

// Matrices are column-major in memory and row-major in the file.
using RowMajorMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

const nlohmann::json& require(const nlohmann::json& header, const char* field) {
    auto it = header.find(field);
    if (it == header.end()) {
        throw ModelFileError(std::string("model header has no '") + field +
                             "' field; the file was not written by this project's `seq2seq train`");
    }
    return *it;
}

}  // namespace

nlohmann::json model_header(const Model& model) {
    return {
        {"format", kFormatName},
        {"config", to_json(model.config)},
        {"source_tokenizer", to_json(model.source_tokenizer)},
        {"target_tokenizer", to_json(model.target_tokenizer)},
        {"source_vocabulary", model.source_vocabulary.to_json()},
        {"target_vocabulary", model.target_vocabulary.to_json()},
        {"provenance", model.provenance},
    };
}

namespace {

// The tensors of `model` as the file stores them; `storage` keeps the
// row-major copies alive while the returned views are used.
std::vector<TensorToWrite> tensors_to_write(const Model& model, TensorDtype dtype, std::vector<RowMajorMatrix>& storage) {
    std::vector<std::string> names;
    model.params.for_each_tensor([&](const std::string& name, const Matrix& m) {
        if (m.size() == 0) return;
        names.push_back(name);
        storage.emplace_back(m);
    });
    std::vector<TensorToWrite> tensors;
    for (size_t i = 0; i < names.size(); ++i) {
        tensors.push_back({names[i], static_cast<int>(storage[i].rows()), static_cast<int>(storage[i].cols()),
                           storage[i].data(), dtype});
    }
    return tensors;
}

}  // namespace

std::vector<uint8_t> serialize_model(const Model& model, TensorDtype dtype) {
    std::vector<RowMajorMatrix> storage;
    return encode_model_file(model_header(model), tensors_to_write(model, dtype, storage));
}

void save_model(const Model& model, const std::string& path, TensorDtype dtype) {
    std::vector<RowMajorMatrix> storage;
    write_model_file(path, model_header(model), tensors_to_write(model, dtype, storage));
}

Model model_from_bytes(const uint8_t* bytes, size_t size) {
    ModelFileContents contents = decode_model_file(bytes, size);
    const nlohmann::json& header = contents.header;
    const auto& format = require(header, "format");
    if (!format.is_string() || format.get<std::string>() != kFormatName) {
        throw ModelFileError("model header 'format' is not \"seq2seq-attention\"; this is not a model of this project");
    }
    Model model;
    model.config = model_config_from_json(require(header, "config"));
    model.source_tokenizer = tokenizer_settings_from_json(require(header, "source_tokenizer"));
    model.target_tokenizer = tokenizer_settings_from_json(require(header, "target_tokenizer"));
    model.source_vocabulary = Vocabulary::from_json(require(header, "source_vocabulary"));
    model.target_vocabulary = Vocabulary::from_json(require(header, "target_vocabulary"));
    if (model.source_vocabulary.size() != model.config.source_vocab_size ||
        model.target_vocabulary.size() != model.config.target_vocab_size) {
        throw ModelFileError("model header: the vocabularies have " + std::to_string(model.source_vocabulary.size()) +
                             " and " + std::to_string(model.target_vocabulary.size()) +
                             " entries but the config says " + std::to_string(model.config.source_vocab_size) +
                             " and " + std::to_string(model.config.target_vocab_size) + "; the file is corrupted");
    }
    if (auto it = header.find("provenance"); it != header.end()) model.provenance = *it;

    std::map<std::string, LoadedTensor*> by_name;
    for (auto& t : contents.tensors) by_name[t.name] = &t;
    model.params = zero_parameters(model.config);
    size_t used = 0;
    model.params.for_each_tensor([&](const std::string& name, Matrix& m) {
        if (m.size() == 0) return;
        auto it = by_name.find(name);
        if (it == by_name.end()) {
            throw ModelFileError("model file has no tensor '" + name + "', which a " +
                                 attention_kind_name(model.config.attention) + " model needs; the file is incomplete");
        }
        const LoadedTensor& t = *it->second;
        if (t.rows != m.rows() || t.cols != m.cols()) {
            throw ModelFileError("model tensor '" + name + "' has shape " + std::to_string(t.rows) + "x" +
                                 std::to_string(t.cols) + " but the config needs " + std::to_string(m.rows()) + "x" +
                                 std::to_string(m.cols()));
        }
        m = Eigen::Map<const RowMajorMatrix>(t.data.data(), t.rows, t.cols);
        ++used;
    });
    if (used != contents.tensors.size()) {
        for (const auto& t : contents.tensors) {
            bool known = false;
            model.params.for_each_tensor([&](const std::string& name, const Matrix& m) {
                if (name == t.name && m.size() != 0) known = true;
            });
            if (!known) throw ModelFileError("model file has an unexpected tensor '" + t.name + "'");
        }
    }
    return model;
}

Model load_model(const std::string& path) {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) {
        throw IoError("cannot open model file " + path + ": " + std::strerror(errno) +
                      "; check the path (shipped models are in models/)");
    }
    std::vector<uint8_t> bytes;
    uint8_t buffer[1 << 16];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) bytes.insert(bytes.end(), buffer, buffer + n);
    const bool failed = std::ferror(file) != 0;
    std::fclose(file);
    if (failed) throw IoError("cannot read model file " + path);
    try {
        return model_from_bytes(bytes.data(), bytes.size());
    } catch (const ModelFileError& e) {
        throw ModelFileError(path + ": " + e.what());
    }
}

}  // namespace s2s
