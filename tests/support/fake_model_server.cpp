#include "support/fake_model_server.hpp"

#include <chrono>

#include <httplib.h>

namespace kforge::testing {

struct FakeModelServer::Impl {
  httplib::Server server;
  int port = 0;
  std::thread thread;
  mutable std::mutex mutex;
  std::deque<ScriptedReply> replies;
  std::vector<RecordedRequest> requests;
};

FakeModelServer::FakeModelServer() : impl_(new Impl) {
  impl_->server.Post(".*", [this](const httplib::Request& req, httplib::Response& res) {
    ScriptedReply reply;
    {
      std::lock_guard lock(impl_->mutex);
      RecordedRequest r;
      r.path = req.path;
      for (const auto& [k, v] : req.headers) r.headers[k] = v;
      r.body = nlohmann::json::parse(req.body, nullptr, false);
      impl_->requests.push_back(std::move(r));
      if (impl_->replies.empty()) {
        reply = error(500, "the test server has no scripted reply left");
      } else {
        reply = impl_->replies.front();
        impl_->replies.pop_front();
      }
    }
    res.status = reply.status;
    for (const auto& [k, v] : reply.headers) res.set_header(k, v);
    if (reply.chunks.size() == 1 && reply.pause_ms == 0 && !reply.cut_off) {
      res.set_content(reply.chunks.front(), "application/json");
      return;
    }
    res.set_chunked_content_provider("text/event-stream", [reply](size_t, httplib::DataSink& sink) {
      for (const auto& chunk : reply.chunks) {
        if (reply.pause_ms) std::this_thread::sleep_for(std::chrono::milliseconds(reply.pause_ms));
        if (!sink.write(chunk.data(), chunk.size())) return false;
      }
      if (reply.cut_off) return false;  // the connection breaks without the final chunk
      sink.done();
      return true;
    });
  });
  impl_->port = impl_->server.bind_to_any_port("127.0.0.1");
  impl_->thread = std::thread([this] { impl_->server.listen_after_bind(); });
  while (!impl_->server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

FakeModelServer::~FakeModelServer() {
  impl_->server.stop();
  impl_->thread.join();
  delete impl_;
}

std::string FakeModelServer::endpoint(const std::string& base) const {
  return "http://127.0.0.1:" + std::to_string(impl_->port) + base;
}

void FakeModelServer::script(ScriptedReply reply) {
  std::lock_guard lock(impl_->mutex);
  impl_->replies.push_back(std::move(reply));
}

std::vector<RecordedRequest> FakeModelServer::requests() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->requests;
}

namespace {
std::vector<std::string> pieces_of(const std::string& text, int pieces) {
  std::vector<std::string> out;
  const size_t step = std::max<size_t>(1, (text.size() + pieces - 1) / std::max(1, pieces));
  for (size_t at = 0; at < text.size(); at += step) out.push_back(text.substr(at, step));
  return out;
}
}  // namespace

ScriptedReply FakeModelServer::openai_stream(const std::string& text, int pieces, int input_tokens, int output_tokens) {
  ScriptedReply r;
  for (const auto& piece : pieces_of(text, pieces))
    r.chunks.push_back("data: " + nlohmann::json{{"choices", {{{"index", 0}, {"delta", {{"content", piece}}}}}}}.dump() +
                       "\n\n");
  r.chunks.push_back("data: " + nlohmann::json{{"choices", {{{"index", 0}, {"delta", nlohmann::json::object()},
                                                              {"finish_reason", "stop"}}}}}.dump() + "\n\n");
  r.chunks.push_back("data: " + nlohmann::json{{"choices", nlohmann::json::array()},
                                               {"usage", {{"prompt_tokens", input_tokens},
                                                          {"completion_tokens", output_tokens}}}}.dump() + "\n\n");
  r.chunks.push_back("data: [DONE]\n\n");
  return r;
}

ScriptedReply FakeModelServer::anthropic_stream(const std::string& text, int pieces, int input_tokens,
                                                int output_tokens) {
  ScriptedReply r;
  auto event = [](const std::string& type, const nlohmann::json& data) {
    return "event: " + type + "\r\ndata: " + data.dump() + "\r\n\r\n";
  };
  r.chunks.push_back(event("message_start", {{"type", "message_start"},
                                             {"message", {{"usage", {{"input_tokens", input_tokens},
                                                                     {"output_tokens", 1}}}}}}));
  r.chunks.push_back(": ping\r\n\r\n");
  for (const auto& piece : pieces_of(text, pieces))
    r.chunks.push_back(event("content_block_delta", {{"type", "content_block_delta"},
                                                     {"delta", {{"type", "text_delta"}, {"text", piece}}}}));
  r.chunks.push_back(event("message_delta", {{"type", "message_delta"},
                                             {"delta", {{"stop_reason", "end_turn"}}},
                                             {"usage", {{"output_tokens", output_tokens}}}}));
  r.chunks.push_back(event("message_stop", {{"type", "message_stop"}}));
  return r;
}

ScriptedReply FakeModelServer::error(int status, const std::string& message, std::map<std::string, std::string> headers) {
  ScriptedReply r;
  r.status = status;
  r.headers = std::move(headers);
  r.chunks = {nlohmann::json{{"error", {{"message", message}, {"type", "test"}}}}.dump()};
  return r;
}

}  // namespace kforge::testing
