// The command-line parser of args.h: flags, switches and typed, range-checked
// values, with a UsageError naming anything wrong.
#include "cli/args.h"

#include "common/error.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace s2s::cli {

Args::Args(const std::string& command, const std::vector<std::string>& argv, const std::set<std::string>& value_flags,
           const std::set<std::string>& switches)
    : command_(command) {
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& arg = argv[i];
        if (arg.rfind("--", 0) != 0 || arg == "--") {
            positional_.push_back(arg);
            continue;
        }
        std::string name = arg.substr(2), value;
        const size_t equals = name.find('=');
        const bool inline_value = equals != std::string::npos;
        if (inline_value) {
            value = name.substr(equals + 1);
            name = name.substr(0, equals);
        }
        if (switches.count(name)) {
            if (inline_value) throw UsageError("--" + name + " takes no value");
            switches_.insert(name);
        } else if (value_flags.count(name)) {
            if (!inline_value) {
                if (i + 1 >= argv.size()) throw UsageError("--" + name + " needs a value; run `seq2seq " + command_ + " --help`");
                value = argv[++i];
            }
            values_[name] = value;
        } else {
            throw UsageError("unknown flag --" + name + " for `seq2seq " + command_ + "`; run `seq2seq " + command_ +
                             " --help` for the flags it takes");
        }
    }
}

std::string Args::string(const std::string& flag, const std::string& fallback) const {
    auto it = values_.find(flag);
    return it == values_.end() ? fallback : it->second;
}

std::string Args::required(const std::string& flag) const {
    auto it = values_.find(flag);
    if (it == values_.end() || it->second.empty()) {
        throw UsageError("`seq2seq " + command_ + "` needs --" + flag + "; run `seq2seq " + command_ + " --help`");
    }
    return it->second;
}

long Args::integer(const std::string& flag, long fallback, long min_value, long max_value) const {
    auto it = values_.find(flag);
    if (it == values_.end()) return fallback;
    errno = 0;
    char* end = nullptr;
    const long value = std::strtol(it->second.c_str(), &end, 10);
    if (it->second.empty() || *end != '\0' || errno != 0 || value < min_value || value > max_value) {
        throw UsageError("--" + flag + " must be a whole number from " + std::to_string(min_value) + " to " +
                         std::to_string(max_value) + ", not '" + it->second + "'");
    }
    return value;
}

int Args::int8_levels(bool int8, int fallback) const {
    if (!has("int8-bits")) return fallback;
    if (!int8) throw UsageError("--int8-bits goes with --dtype i8");
    return (1 << (integer("int8-bits", 8, 2, 8) - 1)) - 1;
}

double Args::real(const std::string& flag, double fallback, double min_value, double max_value) const {
    auto it = values_.find(flag);
    if (it == values_.end()) return fallback;
    errno = 0;
    char* end = nullptr;
    const double value = std::strtod(it->second.c_str(), &end);
    if (it->second.empty() || *end != '\0' || errno != 0 || !std::isfinite(value) || value < min_value || value > max_value) {
        char range[96];
        std::snprintf(range, sizeof range, "%g to %g", min_value, max_value);
        throw UsageError("--" + flag + " must be a number from " + range + ", not '" + it->second + "'");
    }
    return value;
}

}  // namespace s2s::cli
