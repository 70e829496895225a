#include "llm/sse.hpp"

namespace kforge::llm {

void SseParser::feed(std::string_view bytes, const std::function<void(const SseEvent&)>& on_event) {
  for (char c : bytes) {
    if (c == '\n') {
      std::string_view text(line_);
      if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
      line(text, on_event);
      line_.clear();
    } else {
      line_ += c;
    }
  }
}

void SseParser::line(std::string_view text, const std::function<void(const SseEvent&)>& on_event) {
  if (text.empty()) {  // the event is complete
    if (has_data_ || !current_.event.empty()) on_event(current_);
    current_ = {};
    has_data_ = false;
    return;
  }
  if (text.front() == ':') return;
  const auto colon = text.find(':');
  std::string_view field = text.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (field == "data") {
    if (has_data_) current_.data += '\n';
    current_.data += value;
    has_data_ = true;
  } else if (field == "event") {
    current_.event = value;
  }
}

}  // namespace kforge::llm
