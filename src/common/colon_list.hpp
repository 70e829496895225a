#pragma once
// A colon-separated list (PATH's form) split into its parts, empty parts left out. Split by hand,
// with no iostreams: the worker's module on the H200 machine carries a libstdc++ of its own beside
// the one torch loaded, and std::locale objects crossing the two crashed it (an istream in
// IntegrityWatch, a stringstream in the sandbox's list of folders).
#include <string>
#include <vector>

namespace kforge {

inline std::vector<std::string> colon_list(const std::string& list) {
  std::vector<std::string> out;
  for (size_t start = 0, end; start <= list.size(); start = end + 1) {
    end = list.find(':', start);
    if (end == std::string::npos) end = list.size();
    if (end > start) out.push_back(list.substr(start, end - start));
  }
  return out;
}

}  // namespace kforge
