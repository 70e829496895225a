#pragma once
// A model provider on loopback for tests: answers each POST with the next scripted reply (a
// status, headers, and a body sent in chunks, with pauses between them, cut off or not), and
// records every request it got. It speaks whatever the script says, so one server stands in for
// OpenAI-compatible and Anthropic endpoints alike.
#include <atomic>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace kforge::testing {

struct ScriptedReply {
  int status = 200;
  std::map<std::string, std::string> headers;
  std::vector<std::string> chunks;  // the body, written one chunk at a time
  int pause_ms = 0;                 // before each chunk
  bool cut_off = false;             // break the connection after the chunks instead of ending cleanly
};

struct RecordedRequest {
  std::string path;
  std::map<std::string, std::string> headers;
  nlohmann::json body;
};

class FakeModelServer {
 public:
  FakeModelServer();
  ~FakeModelServer();
  FakeModelServer(const FakeModelServer&) = delete;
  FakeModelServer& operator=(const FakeModelServer&) = delete;

  std::string endpoint(const std::string& base = "/v1") const;  // http://127.0.0.1:PORT/v1
  void script(ScriptedReply reply);  // appended; with none left the server answers 500
  std::vector<RecordedRequest> requests() const;

  // Streams in each dialect, `text` split in `pieces` chunks.
  static ScriptedReply openai_stream(const std::string& text, int pieces = 3, int input_tokens = 100,
                                     int output_tokens = 50);
  static ScriptedReply anthropic_stream(const std::string& text, int pieces = 3, int input_tokens = 100,
                                        int output_tokens = 50);
  static ScriptedReply error(int status, const std::string& message, std::map<std::string, std::string> headers = {});

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace kforge::testing
