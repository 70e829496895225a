#include "build/kernel_macros.hpp"

#include <cctype>
#include <map>
#include <optional>
#include <regex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "build/source_text.hpp"

namespace kforge::build {
namespace {

// Comments and the insides of literals blanked, offsets kept.
std::string code_of(const std::string& text) { return mask_source(text, true).text; }

// The macro on [begin, end) of `source`, if it is function-like and its body defines a kernel.
std::optional<FunctionLikeMacro> kernel_macro(const std::string& source, size_t begin, size_t end) {
  auto macro = function_like_macro(source.substr(begin, end - begin));
  if (!macro || !std::regex_search(code_of(macro->body), std::regex(R"(\b__global__\b)"))) return std::nullopt;
  for (const auto& p : macro->parameters)
    if (p.find("...") != std::string::npos) throw std::invalid_argument("a variadic macro that defines kernels");
  return macro;
}

// A string literal holding `text`, as `#x` makes one.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The macro's body with `arguments` put in for its parameters: `#p` quoted, `a ## b` pasted.
std::string expansion(const FunctionLikeMacro& macro, const std::vector<std::string>& arguments) {
  const std::string& body = macro.body;
  const std::string code = code_of(body);
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

// The arguments of a call whose '(' is at `open` in `code` (the source's mask): the text between
// top-level commas, trimmed; `close` set to the ')'. Brackets nest, angle brackets do not (as the
// preprocessor reads `k<1, 2>`).
std::vector<std::string> call_arguments(const std::string& source, const std::string& code, size_t open, size_t* close) {
  std::vector<std::string> out;
  int depth = 0;
  size_t start = open + 1;
  for (size_t i = open; i < code.size(); ++i) {
    const char c = code[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if ((c == ',' && depth == 1) || depth == 0) {
      out.push_back(trimmed(source.substr(start, i - start)));
      start = i + 1;
    }
    if (depth == 0) {
      *close = i;
      if (out.size() == 1 && out[0].empty()) out.clear();
      return out;
    }
  }
  throw std::invalid_argument("a call of a macro that defines kernels without its ')'");
}

}  // namespace

std::string expand_kernel_macros(const std::string& source) {
  if (source.find("__global__") == std::string::npos || source.find("#") == std::string::npos) return source;
  const std::string code = code_of(source);
  std::map<std::string, FunctionLikeMacro> macros;
  std::vector<std::pair<size_t, size_t>> directives;  // [begin, end) of each preprocessor line
  for (size_t i = 0; i < source.size();) {
    const size_t end = logical_line_end(source, i);
    const size_t first = code.find_first_not_of(" \t", i);
    if (first < end && code[first] == '#') {
      directives.emplace_back(i, end);
      if (auto macro = kernel_macro(source, i, end)) macros[macro->name] = std::move(*macro);
    }
    i = end + 1;
  }
  if (macros.empty()) return source;
  std::string out;
  size_t copied = 0, directive = 0;
  for (size_t at = 0; at < code.size(); ++at) {
    while (directive < directives.size() && directives[directive].second <= at) ++directive;
    if (directive < directives.size() && directives[directive].first <= at) {
      at = directives[directive].second;  // not inside a #define (its own or another's)
      continue;
    }
    if (!ident_char(code[at]) || (at > 0 && ident_char(code[at - 1]))) continue;
    size_t end = at;
    while (end < code.size() && ident_char(code[end])) ++end;
    const auto macro = macros.find(source.substr(at, end - at));
    size_t open = end;
    while (open < code.size() && std::isspace(static_cast<unsigned char>(code[open]))) ++open;
    if (macro == macros.end() || open >= code.size() || code[open] != '(') {
      at = end - 1;
      continue;
    }
    size_t close = open;
    const std::vector<std::string> arguments = call_arguments(source, code, open, &close);
    if (arguments.size() != macro->second.parameters.size())
      throw std::invalid_argument(macro->first + " called with " + std::to_string(arguments.size()) + " arguments for " +
                                  std::to_string(macro->second.parameters.size()));
    out += source.substr(copied, at - copied);
    out += expansion(macro->second, arguments);
    for (size_t i = at; i <= close; ++i)
      if (source[i] == '\n') out += '\n';
    copied = close + 1;
    at = close;
  }
  return out + source.substr(copied);
}

}  // namespace kforge::build
