// A small command-line parser: `--flag value` and `--switch`, typed getters
// with ranges, and a UsageError (exit code 2) naming any unknown flag,
// missing value or bad number.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace s2s::cli {

class Args {
public:
    // value_flags take one value; switches take none. Both without "--".
    Args(const std::string& command, const std::vector<std::string>& argv, const std::set<std::string>& value_flags,
         const std::set<std::string>& switches);

    bool has(const std::string& flag) const { return values_.count(flag) != 0 || switches_.count(flag) != 0; }
    std::string string(const std::string& flag, const std::string& fallback) const;
    std::string required(const std::string& flag) const;
    long integer(const std::string& flag, long fallback, long min_value, long max_value) const;
    double real(const std::string& flag, double fallback, double min_value, double max_value) const;
    const std::vector<std::string>& positional() const { return positional_; }
    // --int8-bits B (2 to 8; only with --dtype i8) as quantization levels,
    // 2^(B-1) - 1, or `fallback` when it is not given.
    int int8_levels(bool int8, int fallback) const;

private:
    std::string command_;
    std::map<std::string, std::string> values_;
    std::set<std::string> switches_;
    std::vector<std::string> positional_;
};

}  // namespace s2s::cli
