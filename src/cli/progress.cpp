#include "cli/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>

namespace kforge::cli {

Progress::Progress() : enabled_(::isatty(STDERR_FILENO) != 0) {}

Progress::~Progress() { clear(); }

void Progress::show(const std::string& text) {
  if (!enabled_) return;
  winsize ws{};
  size_t width = (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10) ? ws.ws_col - 1 : 100;
  std::string line = text.size() > width ? text.substr(0, width) : text;
  std::fprintf(stderr, "\r\033[2K%s", line.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void Progress::clear() {
  if (!enabled_ || !shown_) return;
  std::fprintf(stderr, "\r\033[2K");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace kforge::cli
