// The training progress bar of progress.h: drawn in place on a terminal,
// a line every few updates elsewhere.
#include "cli/progress.h"

#include <cstdio>
#include <unistd.h>

namespace s2s::cli {

std::string format_duration(double seconds) {
    const long s = static_cast<long>(seconds + 0.5);
    char buffer[32];
    if (s >= 3600) {
        std::snprintf(buffer, sizeof buffer, "%ldh%02ldm", s / 3600, (s / 60) % 60);
    } else {
        std::snprintf(buffer, sizeof buffer, "%ldm%02lds", s / 60, s % 60);
    }
    return buffer;
}

ProgressBar::ProgressBar(long total, long start, int interval)
    : total_(total), start_(start), interval_(interval), terminal_(isatty(STDERR_FILENO) != 0),
      started_(std::chrono::steady_clock::now()) {}

void ProgressBar::update(long done, double loss, long tokens) {
    // An exponential moving average: one batch's loss is noisy.
    smoothed_loss_ = smoothed_loss_ < 0 ? loss : 0.98 * smoothed_loss_ + 0.02 * loss;
    tokens_ += tokens;
    if (!terminal_ && done % interval_ != 0 && done != total_) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    const double rate = elapsed > 0 ? static_cast<double>(tokens_) / elapsed : 0.0;
    const double steps_per_second = elapsed > 0 ? static_cast<double>(done - start_) / elapsed : 0.0;
    const double eta = steps_per_second > 0 ? static_cast<double>(total_ - done) / steps_per_second : 0.0;
    constexpr int kWidth = 24;
    const int filled = static_cast<int>(kWidth * static_cast<double>(done) / static_cast<double>(total_));
    std::string bar(static_cast<size_t>(filled), '=');
    bar.resize(kWidth, ' ');
    std::fprintf(stderr, "%sstep %ld/%ld [%s] loss %.3f | %.0f tok/s | ETA %s%s", terminal_ ? "\r" : "", done, total_,
                 bar.c_str(), smoothed_loss_, rate, format_duration(eta).c_str(), terminal_ ? "   " : "\n");
    std::fflush(stderr);
}

void ProgressBar::message(const std::string& line) {
    std::fprintf(stderr, "%s%s\n", terminal_ ? "\r\033[K" : "", line.c_str());
    std::fflush(stderr);
}

void ProgressBar::finish() {
    if (terminal_) std::fputc('\n', stderr);
}

}  // namespace s2s::cli
