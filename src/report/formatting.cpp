#include "report/formatting.hpp"

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

std::string one_line(const std::string& text, size_t width) {
  std::string out;
  for (char c : text) out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  if (out.size() <= width) return out;
  // Cut on a UTF-8 boundary.
  size_t cut = width >= 3 ? width - 3 : 0;
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xc0) == 0x80) --cut;
  return out.substr(0, cut) + "...";
}

}  // namespace kforge::report
