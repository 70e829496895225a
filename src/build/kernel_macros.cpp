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
    out += macro_expansion(macro->second, arguments);
    for (size_t i = at; i <= close; ++i)
      if (source[i] == '\n') out += '\n';
    copied = close + 1;
    at = close;
  }
  return out + source.substr(copied);
}

}  // namespace kforge::build
