#pragma once
// One model call, start to end: the request in the model's dialect, the streamed answer, retries
// on what is worth retrying, and an outcome that says plainly what happened. The key never
// appears in what it returns.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "llm/chat_api.hpp"
#include "llm/model_config.hpp"

namespace kforge::llm {

// "" when the call answered; else one of: auth (401/403: a refused or expired key), rate_limit
// (429 after every retry), server (5xx after every retry), connection (no answer after every
// retry), timeout, context_length (the prompt is longer than the model takes), bad_request
// (another 4xx), truncated (the stream ended before its end marker), stream_error (the server
// reported an error, or sent malformed JSON, inside the stream), cancelled; for a replay model,
// not_recorded (the recording holds no answer for that sample).
struct Completion {
  std::string text;  // what the model wrote (also what came before a failure)
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  double cost_usd = 0;
  double latency_s = 0;  // the whole call, retries and waits included
  int attempts = 0;
  int http_status = 0;  // the last answer's
  std::string stop_reason;
  std::string error_kind;
  std::string error;  // the message, with the key scrubbed out
  bool ok() const { return error_kind.empty(); }
};

struct CallOptions {
  const std::atomic<bool>* cancel = nullptr;
  // Waits between retries (tests make it instant); default: sleeps, waking early on cancel.
  std::function<void(double seconds)> wait;
  double backoff_base_s = 1.0;
};

Completion complete(const ModelConfig& model, const std::string& key, const ChatRequest& request,
                    const CallOptions& options = {});

}  // namespace kforge::llm
