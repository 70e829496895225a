#include "build/source_text.hpp"

#include <cctype>
#include <regex>

namespace kforge::build {
namespace {

// A string literal holding `text`, as `#x` makes one.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

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

size_t logical_line_end(const std::string& source, size_t i) {
  while (i < source.size() && !(source[i] == '\n' && (i == 0 || source[i - 1] != '\\'))) ++i;
  return i;
}

std::optional<FunctionLikeMacro> function_like_macro(const std::string& define_line) {
  const std::string line = mask_source(std::regex_replace(define_line, std::regex(R"(\\\n)"), " "), false).text;
  static const std::regex define(R"(^\s*#\s*define\s+([A-Za-z_]\w*)\(([^()]*)\)([\s\S]*)$)");
  std::smatch m;
  if (!std::regex_match(line, m, define)) return std::nullopt;
  FunctionLikeMacro macro{m[1], {}, trimmed(m[3])};
  const std::string parameters = m[2];
  for (size_t from = 0; from <= parameters.size();) {
    size_t comma = parameters.find(',', from);
    if (comma == std::string::npos) comma = parameters.size();
    if (std::string p = trimmed(parameters.substr(from, comma - from)); !p.empty()) macro.parameters.push_back(p);
    from = comma + 1;
  }
  return macro;
}

std::string macro_expansion(const FunctionLikeMacro& macro, const std::vector<std::string>& arguments) {
  const std::string& body = macro.body;
  const std::string code = mask_source(body, true).text;
  std::string out;
  for (size_t i = 0; i < body.size();) {
    if (ident_char(code[i]) && (i == 0 || !ident_char(code[i - 1]))) {
      size_t end = i;
      while (end < body.size() && ident_char(code[end])) ++end;
      const std::string word = body.substr(i, end - i);
      size_t k = 0;
      while (k < macro.parameters.size() && macro.parameters[k] != word) ++k;
      if (k == macro.parameters.size()) {
        out += word;
      } else {
        // `#p` (not `##p`): the '#' and any spaces after it already copied; take them back.
        size_t back = out.size();
        while (back > 0 && (out[back - 1] == ' ' || out[back - 1] == '\t')) --back;
        const bool quote = back > 0 && out[back - 1] == '#' && (back < 2 || out[back - 2] != '#');
        if (quote) out.erase(back - 1);
        out += quote ? quoted(arguments[k]) : arguments[k];
      }
      i = end;
      continue;
    }
    out += body[i++];
  }
  // Pasting: the tokens on both sides of `##` joined.
  return std::regex_replace(out, std::regex(R"(\s*##\s*)"), "");
}

}  // namespace kforge::build
