#pragma once
// When a failed model call is tried again, and after how long: exponential backoff with jitter,
// or the server's own Retry-After when it sends one.
#include <optional>
#include <string>

namespace kforge::llm {

// 408, 409, 429 and 5xx, and answers that never came (connection refused or reset, timeouts).
bool retryable(int http_status, bool no_answer);

// Retry-After as seconds: a number of seconds, or an HTTP date (then seconds from now); nothing
// when absent or unreadable.
std::optional<double> parse_retry_after(const std::string& value);

// The wait before retry number `attempt` (0 for the first retry): Retry-After when given (at
// most `cap_s`), else base_s * 2^attempt capped at cap_s, scaled by a jitter in [0.5, 1) taken
// from `unit` (a uniform draw in [0, 1)), so clients that failed together do not retry together.
double backoff_seconds(int attempt, std::optional<double> retry_after_s, double unit, double base_s = 1.0,
                       double cap_s = 60.0);

}  // namespace kforge::llm
