// Typed errors for everything a user can get wrong: a bad model file, bad
// input text, a bad flag or option. Each message names the problem and, where
// there is one, the fix. The CLI maps them to exit code 2; the WASM bindings
// catch them at the boundary and hand the message to JavaScript, which throws
// an ordinary Error (see src/wasm/).
#pragma once

#include <stdexcept>
#include <string>

namespace s2s {

enum class ErrorKind {
    kUsage,      // a bad flag, option or argument value
    kModelFile,  // a model file that cannot be read or fails validation
    kData,       // a training or evaluation data file that cannot be used
    kInput,      // text given to translate that cannot be handled
    kIo,         // a file that cannot be opened or written
};

class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    ErrorKind kind() const { return kind_; }

private:
    ErrorKind kind_;
};

struct UsageError : Error {
    explicit UsageError(const std::string& m) : Error(ErrorKind::kUsage, m) {}
};
struct ModelFileError : Error {
    explicit ModelFileError(const std::string& m) : Error(ErrorKind::kModelFile, m) {}
};
struct DataError : Error {
    explicit DataError(const std::string& m) : Error(ErrorKind::kData, m) {}
};
struct InputError : Error {
    explicit InputError(const std::string& m) : Error(ErrorKind::kInput, m) {}
};
struct IoError : Error {
    explicit IoError(const std::string& m) : Error(ErrorKind::kIo, m) {}
};

}  // namespace s2s
