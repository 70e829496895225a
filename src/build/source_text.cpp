#include "build/source_text.hpp"

#include <cctype>

namespace kforge::build {

MaskedSource mask_source(const std::string& s, bool blank_literals) {
  MaskedSource out{s, false};
  std::string& m = out.text;
  for (size_t i = 0; i < s.size();) {
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') m[i++] = ' ';
    } else if (s.compare(i, 2, "/*") == 0) {
      size_t end = s.find("*/", i + 2);
      end = end == std::string::npos ? s.size() : end + 2;
      for (; i < end; ++i)
        if (s[i] != '\n') m[i] = ' ';
    } else if (s[i] == '"' || s[i] == '\'') {
      if (s[i] == '"' && i > 0 && s[i - 1] == 'R') out.has_raw_string = true;
      char quote = s[i++];
      while (i < s.size() && s[i] != quote && s[i] != '\n') {
        bool escape = s[i] == '\\' && i + 1 < s.size();
        if (blank_literals) m[i] = ' ';
        ++i;
        if (escape) {
          if (blank_literals) m[i] = ' ';
          ++i;
        }
      }
      ++i;  // the closing quote
    } else {
      ++i;
    }
  }
  return out;
}

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string trimmed(const std::string& text) {
  const size_t a = text.find_first_not_of(" \t\n");
  const size_t b = text.find_last_not_of(" \t\n");
  return a == std::string::npos ? "" : text.substr(a, b - a + 1);
}

}  // namespace kforge::build
