#include "llm/provider.hpp"

#include <chrono>
#include <random>
#include <thread>

#include "llm/http_stream.hpp"
#include "llm/retry.hpp"
#include "llm/sse.hpp"

namespace kforge::llm {
namespace {

std::string scrub(std::string text, const std::string& key) {
  if (key.empty()) return text;
  for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at)) text.replace(at, key.size(), "[key]");
  return text;
}

bool mentions_context_length(const std::string& message) {
  for (const char* phrase : {"context length", "context_length", "maximum context", "prompt is too long", "too many tokens",
                             "context window"})
    if (message.find(phrase) != std::string::npos) return true;
  return false;
}

std::string kind_of_status(int status, const std::string& message) {
  if (status == 401 || status == 403) return "auth";
  if (status == 429) return "rate_limit";
  if (status >= 500) return "server";
  if (status == 408) return "timeout";
  if (mentions_context_length(message)) return "context_length";
  return "bad_request";
}

void default_wait(double seconds, const std::atomic<bool>* cancel) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until && !(cancel && *cancel))
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

}  // namespace

Completion complete(const ModelConfig& model, const std::string& key, const ChatRequest& request,
                    const CallOptions& options) {
  Completion c;
  const auto t0 = std::chrono::steady_clock::now();
  ModelConfig asked = model;
  if (options.temperature) asked.temperature = options.temperature;
  const std::string body = request_body(asked, request).dump();
  const auto headers = request_headers(model, key);
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto finish = [&] {
    c.latency_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    c.cost_usd = cost_usd(model, c.input_tokens, c.output_tokens);
    c.error = scrub(c.error, key);
    return c;
  };

  for (int attempt = 0;; ++attempt) {
    c.attempts = attempt + 1;
    StreamState state;
    SseParser parser;
    auto result = post_stream(
        model.endpoint, request_path(model), headers, body, model.timeout_s,
        [&](std::string_view bytes) {
          parser.feed(bytes, [&](const SseEvent& e) { apply_event(model, e, state); });
          return !state.error;  // a reported error ends the stream
        },
        options.cancel);
    c.http_status = result.status;
    c.text = state.text;
    c.input_tokens = state.input_tokens;
    c.output_tokens = state.output_tokens;
    c.stop_reason = state.stop_reason;
    c.error_kind.clear();
    c.error.clear();

    if (options.cancel && *options.cancel) {
      c.error_kind = "cancelled";
      c.error = "cancelled";
      return finish();
    }
    if (state.error) {
      c.error_kind = mentions_context_length(*state.error) ? "context_length" : "stream_error";
      c.error = *state.error;
      return finish();  // the server answered and said why: not retried
    }
    const bool answered_ok = result.status >= 200 && result.status < 300;
    if (answered_ok && state.done) return finish();
    if (answered_ok && !result.timed_out && result.transport_error.empty()) {
      c.error_kind = "truncated";
      c.error = "the stream ended before its end marker (" + std::to_string(c.text.size()) + " characters received)";
      return finish();
    }
    if (result.timed_out) {
      c.error_kind = "timeout";
      c.error = "no complete answer within " + std::to_string(static_cast<int>(model.timeout_s)) + " s";
    } else if (result.status == 0) {
      c.error_kind = "connection";
      c.error = "no answer from " + model.endpoint + " (" + result.transport_error + ")";
    } else if (answered_ok) {  // answered, then the connection broke mid-stream
      c.error_kind = "truncated";
      c.error = "the stream broke off (" + result.transport_error + ") after " + std::to_string(c.text.size()) +
                " characters";
      return finish();
    } else {
      const std::string message = error_message(result.body);
      c.error_kind = kind_of_status(result.status, message);
      c.error = "HTTP " + std::to_string(result.status) + ": " + message;
    }
    const bool again = retryable(result.status, result.status == 0) && c.error_kind != "context_length";
    if (!again || attempt >= model.retries) return finish();
    auto retry_after = parse_retry_after(result.headers.count("retry-after") ? result.headers["retry-after"] : "");
    const double wait = backoff_seconds(attempt, retry_after, unit(rng), options.backoff_base_s);
    if (options.wait) options.wait(wait);
    else default_wait(wait, options.cancel);
  }
}

}  // namespace kforge::llm
