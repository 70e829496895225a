#include "report/formatting.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>

#include <fmt/format.h>

namespace kforge::report {

std::string format_ms(std::optional<double> ms) {
  if (!ms) return "-";
  if (*ms >= 100) return fmt::format("{:.1f}", *ms);
  if (*ms >= 1) return fmt::format("{:.3f}", *ms);
  return fmt::format("{:.4f}", *ms);
}

std::string format_speedup(std::optional<double> speedup, std::optional<stats::Interval> ci) {
  if (!speedup) return "-";
  if (!ci) return fmt::format("{:.3f}x", *speedup);
  return fmt::format("{:.3f}x [{:.3f}, {:.3f}]", *speedup, ci->low, ci->high);
}

std::string format_error(std::optional<double> e) {
  if (!e) return "-";
  return fmt::format("{:.2g}", *e);
}

std::string escaped(const std::string& name) {
  std::string out;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (u < 0x20 || u == 0x7f) out += fmt::format("\\x{:02x}", u);
    else out += c;
  }
  return out;
}

std::string one_line(const std::string& text, size_t width) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n' || c == '\r' || c == '\t') out += ' ';
    else if (u < 0x20 || u == 0x7f) out += '?';  // an escape code would act on the terminal
    else out += c;
  }
  if (out.size() <= width) return out;
  // Cut on a UTF-8 boundary.
  size_t cut = width >= 3 ? width - 3 : 0;
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xc0) == 0x80) --cut;
  return out.substr(0, cut) + "...";
}

size_t output_columns() {
  winsize size{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  if (const char* columns = std::getenv("COLUMNS")) {
    char* end = nullptr;
    const long n = std::strtol(columns, &end, 10);
    if (end != columns && *end == '\0' && n > 0) return static_cast<size_t>(n);
  }
  return 0;
}

}  // namespace kforge::report
