#include "llm/chat_api.hpp"

namespace kforge::llm {
namespace {

bool anthropic(const ModelConfig& m) { return m.api == "anthropic"; }

void openai_event(const SseEvent& e, StreamState& s) {
  if (e.data == "[DONE]") {
    s.done = true;
    return;
  }
  const auto j = nlohmann::json::parse(e.data);
  if (j.contains("error")) {
    s.error = j["error"].is_object() ? j["error"].value("message", j["error"].dump()) : j["error"].dump();
    return;
  }
  if (j.contains("choices") && j["choices"].is_array())
    for (const auto& choice : j["choices"]) {
      if (choice.contains("delta") && choice["delta"].contains("content") && choice["delta"]["content"].is_string())
        s.text += choice["delta"]["content"].get<std::string>();
      if (choice.contains("finish_reason") && choice["finish_reason"].is_string())
        s.stop_reason = choice["finish_reason"].get<std::string>();
    }
  if (j.contains("usage") && j["usage"].is_object()) {
    s.input_tokens = j["usage"].value("prompt_tokens", s.input_tokens);
    s.output_tokens = j["usage"].value("completion_tokens", s.output_tokens);
  }
}

void anthropic_event(const SseEvent& e, StreamState& s) {
  const auto j = nlohmann::json::parse(e.data);
  const std::string type = j.value("type", e.event);
  if (type == "message_start") {
    const auto& usage = j["message"]["usage"];
    if (usage.is_object()) {
      s.input_tokens = usage.value("input_tokens", int64_t{0});
      s.output_tokens = usage.value("output_tokens", int64_t{0});
    }
  } else if (type == "content_block_delta") {
    const auto& delta = j["delta"];
    if (delta.value("type", "") == "text_delta") s.text += delta.value("text", "");
  } else if (type == "message_delta") {
    if (j.contains("delta") && j["delta"].contains("stop_reason") && j["delta"]["stop_reason"].is_string())
      s.stop_reason = j["delta"]["stop_reason"].get<std::string>();
    if (j.contains("usage") && j["usage"].is_object()) s.output_tokens = j["usage"].value("output_tokens", s.output_tokens);
  } else if (type == "message_stop") {
    s.done = true;
  } else if (type == "error") {
    s.error = j["error"].is_object() ? j["error"].value("message", j["error"].dump()) : j.dump();
  }
}

}  // namespace

std::string request_path(const ModelConfig& model) { return anthropic(model) ? "/messages" : "/chat/completions"; }

std::vector<std::pair<std::string, std::string>> request_headers(const ModelConfig& model, const std::string& key) {
  std::vector<std::pair<std::string, std::string>> h{{"Accept", "text/event-stream"}};
  if (anthropic(model)) {
    h.emplace_back("anthropic-version", "2023-06-01");
    if (!key.empty()) h.emplace_back("x-api-key", key);
  } else if (!key.empty()) {
    h.emplace_back("Authorization", "Bearer " + key);
  }
  return h;
}

nlohmann::json request_body(const ModelConfig& model, const ChatRequest& request) {
  nlohmann::json body = {{"model", model.model}, {"stream", true}};
  if (anthropic(model)) {
    body["max_tokens"] = model.max_tokens;
    if (!request.system.empty()) body["system"] = request.system;
    body["messages"] = nlohmann::json::array({{{"role", "user"}, {"content", request.user}}});
    if (!model.reasoning_effort.empty()) {
      // Extended thinking: a budget of tokens by effort, inside max_tokens.
      const int budget = model.reasoning_effort == "high" ? model.max_tokens * 3 / 4
                         : model.reasoning_effort == "medium" ? model.max_tokens / 2
                                                                : model.max_tokens / 4;
      body["thinking"] = {{"type", "enabled"}, {"budget_tokens", std::max(1024, budget)}};
    } else if (model.temperature) {
      body["temperature"] = *model.temperature;  // not allowed together with thinking
    }
  } else {
    nlohmann::json messages = nlohmann::json::array();
    if (!request.system.empty()) messages.push_back({{"role", "system"}, {"content", request.system}});
    messages.push_back({{"role", "user"}, {"content", request.user}});
    body["messages"] = messages;
    body["max_completion_tokens"] = model.max_tokens;
    body["stream_options"] = {{"include_usage", true}};
    if (model.temperature) body["temperature"] = *model.temperature;
    if (!model.reasoning_effort.empty()) body["reasoning_effort"] = model.reasoning_effort;
  }
  return body;
}

void apply_event(const ModelConfig& model, const SseEvent& event, StreamState& state) {
  if (event.data.empty()) return;
  try {
    anthropic(model) ? anthropic_event(event, state) : openai_event(event, state);
  } catch (const nlohmann::json::exception& e) {
    state.error = "the stream held malformed JSON (" + std::string(e.what()) + "): " + event.data.substr(0, 120);
  }
}

std::string error_message(const std::string& body) {
  try {
    const auto j = nlohmann::json::parse(body);
    if (j.contains("error")) {
      const auto& e = j["error"];
      if (e.is_object() && e.contains("message") && e["message"].is_string()) return e["message"].get<std::string>();
      if (e.is_string()) return e.get<std::string>();
    }
  } catch (const nlohmann::json::exception&) {
  }
  return body.substr(0, 300);
}

}  // namespace kforge::llm
