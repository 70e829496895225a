#pragma once
// One model call, start to end: the request in the model's dialect, the streamed answer, retries
// on what is worth retrying, and an outcome that says plainly what happened. The key never
// appears in what it returns.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
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
  std::optional<double> temperature;  // this call's, instead of the model's (kforge agent's debugger)
};

// One call over HTTP in the model's dialect (openai, anthropic): what the http provider does.
Completion complete(const ModelConfig& model, const std::string& key, const ChatRequest& request,
                    const CallOptions& options = {});

// What a call is for, so a recording can be looked up by it: the problem, the format, and which
// call of it this is (kforge generate's sample, or kforge agent's attempt: the k-th for the problem).
struct CallSubject {
  std::string problem_hash, format;
  int index = 0;
  bool agent_attempt = false;
  std::string problem_name;  // "level1/19_ReLU" (a scripted model's answers may be kept per problem)
};

// A model provider: every model of kforge.toml is one, chosen by its `api`. One file each under
// llm/providers/, and one line in providers/registry.cpp (and its name in kProviderApis).
class Provider {
 public:
  virtual ~Provider() = default;
  // Thread-safe: calls come from many threads at once.
  virtual Completion complete(const ChatRequest& request, const CallSubject& subject, const CallOptions& options) = 0;
};

// The provider of `model` (its key, for the http ones). Throws kforge::Error when it cannot serve
// (a replay's store or a scripted model's folder missing).
std::unique_ptr<Provider> make_provider(const ModelConfig& model, const std::string& key);

}  // namespace kforge::llm
