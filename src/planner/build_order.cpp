#include "planner/build_order.hpp"

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

std::vector<size_t> header_makers_first(const std::vector<std::string>& sources) {
  std::vector<size_t> makers, rest;
  std::set<std::string> seen;
  for (size_t i = 0; i < sources.size(); ++i) (seen.insert(guessed_header_flags(sources[i])).second ? makers : rest).push_back(i);
  makers.insert(makers.end(), rest.begin(), rest.end());
  return makers;
}

}  // namespace kforge
