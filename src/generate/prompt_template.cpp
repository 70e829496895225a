#include "generate/prompt_template.hpp"

#include <algorithm>

#include "common/errors.hpp"

namespace kforge::generate {

std::string render(const std::string& text, const std::string& origin, const std::map<std::string, std::string>& values) {
  std::string out;
  size_t at = 0;
  auto line_of = [&](size_t pos) { return 1 + std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'); };
  while (true) {
    const size_t open = text.find("{{", at);
    if (open == std::string::npos) break;
    const size_t close = text.find("}}", open + 2);
    if (close == std::string::npos)
      throw Error(origin + ":" + std::to_string(line_of(open)) + ": '{{' without its '}}'");
    std::string name = text.substr(open + 2, close - open - 2);
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    auto it = values.find(name);
    if (it == values.end()) {
      std::string known;
      for (const auto& [k, v] : values) known += (known.empty() ? "" : ", ") + k;
      throw Error(origin + ":" + std::to_string(line_of(open)) + ": unknown variable {{" + name + "}} (known: " + known +
                  ")");
    }
    out.append(text, at, open - at);
    out += it->second;
    at = close + 2;
  }
  out.append(text, at, std::string::npos);
  return out;
}

}  // namespace kforge::generate
