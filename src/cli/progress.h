// A one-line progress display for training: a bar, the loss, tokens per
// second and the time left. On a terminal it redraws in place; otherwise
// (CI logs, files) it prints a line every `interval` updates.
#pragma once

#include <chrono>
#include <string>

namespace s2s::cli {

class ProgressBar {
public:
    ProgressBar(long total, long start, int interval);
    // done: steps finished; tokens: source and target tokens of this step.
    void update(long done, double loss, long tokens);
    void message(const std::string& line);  // printed on its own line
    void finish();

private:
    long total_, start_;
    int interval_;
    bool terminal_;
    double smoothed_loss_ = -1.0;
    long tokens_ = 0;
    std::chrono::steady_clock::time_point started_;
};

std::string format_duration(double seconds);

}  // namespace s2s::cli
