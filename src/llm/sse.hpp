#pragma once
// Server-sent events (the streaming format of both chat APIs), parsed from arbitrary chunks as
// they arrive: `event:` names the event, `data:` lines join with newlines, a blank line ends it,
// `:` lines are comments. CRLF and LF both end lines.
#include <functional>
#include <string>
#include <string_view>

namespace kforge::llm {

struct SseEvent {
  std::string event;  // "" when the stream names none (OpenAI's)
  std::string data;
};

class SseParser {
 public:
  // Feeds bytes; calls `on_event` for each event they complete.
  void feed(std::string_view bytes, const std::function<void(const SseEvent&)>& on_event);
  // Bytes of an event not yet ended by a blank line (a stream cut mid-event leaves some).
  bool pending() const { return !line_.empty() || !current_.data.empty() || !current_.event.empty(); }

 private:
  void line(std::string_view text, const std::function<void(const SseEvent&)>& on_event);

  std::string line_;
  SseEvent current_;
  bool has_data_ = false;
};

}  // namespace kforge::llm
