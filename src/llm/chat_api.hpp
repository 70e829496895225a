#pragma once
// The two chat dialects kforge speaks, as pure functions of requests and streamed events (the
// HTTP is http_stream.hpp's): OpenAI's chat completions (`POST {endpoint}/chat/completions`,
// also served by vLLM, SGLang, llama.cpp, Ollama, Together, DeepSeek, Fireworks) and Anthropic's
// Messages (`POST {endpoint}/messages`).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "llm/model_config.hpp"
#include "llm/sse.hpp"

namespace kforge::llm {

struct ChatRequest {
  std::string system;  // instructions; may be empty
  std::string user;    // the prompt
};

// What a streamed answer has said so far.
struct StreamState {
  std::string text;
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  std::string stop_reason;           // "stop", "length", "end_turn", "max_tokens", ...
  std::optional<std::string> error;  // an error the server sent inside the stream
  bool done = false;                 // the stream's own end marker was seen
};

std::string request_path(const ModelConfig& model);  // "/chat/completions" or "/messages"
std::vector<std::pair<std::string, std::string>> request_headers(const ModelConfig& model, const std::string& key);
nlohmann::json request_body(const ModelConfig& model, const ChatRequest& request);
// Folds one streamed event into `state`. Unparseable data is an error in the state, not a throw.
void apply_event(const ModelConfig& model, const SseEvent& event, StreamState& state);

// The message of an error response body ({"error": {"message": ...}} in both dialects), else
// its first 300 characters.
std::string error_message(const std::string& body);

}  // namespace kforge::llm
