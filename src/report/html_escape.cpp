#include "report/html_escape.hpp"

#include "report/formatting.hpp"

namespace kforge::report {

std::string html_escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      // NUL is a parse error in HTML and dropped by some parsers: show it instead.
      case '\0': out += "\\x00"; break;
      default: out += c;
    }
  }
  return out;
}

std::string html_name(std::string_view name) { return html_escaped(escaped(std::string(name))); }

std::string html_breakable_name(std::string_view name) {
  std::string out;
  for (char c : html_name(name)) {
    out += c;
    if (c == '/' || c == '_') out += "<wbr>";
  }
  return out;
}

}  // namespace kforge::report
