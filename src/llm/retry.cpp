#include "llm/retry.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>

namespace kforge::llm {

bool retryable(int http_status, bool no_answer) {
  if (no_answer) return true;
  return http_status == 408 || http_status == 409 || http_status == 429 || (http_status >= 500 && http_status <= 599);
}

std::optional<double> parse_retry_after(const std::string& value) {
  if (value.empty()) return std::nullopt;
  try {
    size_t used = 0;
    const double seconds = std::stod(value, &used);
    if (used == value.size() && seconds >= 0) return seconds;
  } catch (const std::exception&) {
  }
  std::tm tm{};
  if (::strptime(value.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm)) {
    const std::time_t at = ::timegm(&tm);
    return std::max(0.0, std::difftime(at, std::time(nullptr)));
  }
  return std::nullopt;
}

double backoff_seconds(int attempt, std::optional<double> retry_after_s, double unit, double base_s, double cap_s) {
  if (retry_after_s) return std::min(*retry_after_s, cap_s);
  const double exponential = std::min(cap_s, base_s * std::pow(2.0, attempt));
  return exponential * (0.5 + 0.5 * std::clamp(unit, 0.0, 1.0));
}

}  // namespace kforge::llm
