#include "planner/build_order.hpp"

#include <algorithm>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>

#include "build/precompiled_header.hpp"

namespace kforge {

std::string guessed_header_flags(const std::string& source) {
  static const std::regex list(R"(extra_cflags\s*=\s*(\[[^\]]*\]|[^,\)\n]+))");
  static const std::regex quoted(R"re("([^"]*)"|'([^']*)')re");
  std::smatch m;
  if (!std::regex_search(source, m, list)) return "";
  const std::string value = m[1];
  if (value.front() != '[') return "expression " + value;
  std::vector<std::string> flags;
  for (auto it = std::sregex_iterator(value.begin(), value.end(), quoted); it != std::sregex_iterator(); ++it) {
    std::istringstream words((*it)[1].matched ? (*it)[1].str() : (*it)[2].str());  // torch's shell splits them
    for (std::string w; words >> w;) flags.push_back(w);
  }
  std::string key;
  for (const auto& f : build::precompiled_header_flags(flags)) key += f + " ";
  return key;
}

size_t load_inline_calls(const std::string& source) {
  static const std::regex call(R"(\bload_inline\s*\()");
  return static_cast<size_t>(std::distance(std::sregex_iterator(source.begin(), source.end(), call), std::sregex_iterator()));
}

std::vector<size_t> header_makers_first(const std::vector<std::string>& sources) {
  std::vector<size_t> by_calls(sources.size());
  std::vector<size_t> calls(sources.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    by_calls[i] = i;
    calls[i] = load_inline_calls(sources[i]);
  }
  std::stable_sort(by_calls.begin(), by_calls.end(), [&](size_t a, size_t b) { return calls[a] > calls[b]; });
  std::vector<size_t> makers, rest;
  std::set<std::string> seen;
  for (size_t i : by_calls) (seen.insert(guessed_header_flags(sources[i])).second ? makers : rest).push_back(i);
  makers.insert(makers.end(), rest.begin(), rest.end());
  return makers;
}

}  // namespace kforge
