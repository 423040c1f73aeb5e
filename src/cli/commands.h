// The native CLI's commands. Each returns the process exit code; typed
// errors (src/common/error.h) propagate to main, which prints them and
// exits with 2.
#pragma once

#include <string>
#include <vector>

namespace s2s::cli {

int run_translate(const std::vector<std::string>& args);
int run_eval(const std::vector<std::string>& args);
int run_train(const std::vector<std::string>& args);
int run_bench(const std::vector<std::string>& args);
int run_split(const std::vector<std::string>& args);
int run_info(const std::vector<std::string>& args);
int run_convert(const std::vector<std::string>& args);
int run_pieces(const std::vector<std::string>& args);
int run_shortlist(const std::vector<std::string>& args);

}  // namespace s2s::cli
