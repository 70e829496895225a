#include "generate/code_extraction.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

namespace kforge::generate {
namespace {

struct Block {
  std::string tag;
  std::string code;
};

// Complete fenced blocks: a line starting with ``` (and a tag), up to a line that is ``` alone.
std::vector<Block> fenced_blocks(const std::string& text) {
  std::vector<Block> blocks;
  size_t at = 0;
  std::optional<Block> open;
  while (at <= text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string trimmed = line;
    trimmed.erase(0, trimmed.find_first_not_of(" \t"));
    if (trimmed.rfind("```", 0) == 0) {
      if (open && trimmed.find_first_not_of('`') == std::string::npos) {
        blocks.push_back(*open);
        open.reset();
      } else if (!open) {
        Block b;
        b.tag = trimmed.substr(3);
        b.tag.erase(0, b.tag.find_first_not_of(" \t"));
        b.tag = b.tag.substr(0, b.tag.find_first_of(" \t{"));
        std::transform(b.tag.begin(), b.tag.end(), b.tag.begin(), [](unsigned char c) { return std::tolower(c); });
        open = b;
      } else {
        open->code += line + "\n";
      }
    } else if (open) {
      open->code += line + "\n";
    }
    if (end == text.size()) break;
    at = end + 1;
  }
  return blocks;  // a block still open at the end (a cut answer) is not complete
}

std::set<std::string> tags_for(const std::string& format) {
  if (format == "cuda") return {"cuda", "cu", "c++", "cpp"};
  if (format == "cpp") return {"cpp", "c++", "cc"};
  return {"python", "py", "python3"};  // kernelbench, triton
}

}  // namespace

Extraction extract_code(const std::string& answer, const std::string& format) {
  const auto blocks = fenced_blocks(answer);
  if (blocks.empty())
    return {std::nullopt, "no_code", "the answer has no complete fenced code block"};
  const auto wanted = tags_for(format);
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it)
    if (wanted.count(it->tag)) return {it->code, "ok", ""};
  std::string seen;
  for (const auto& b : blocks) seen += (seen.empty() ? "" : ", ") + (b.tag.empty() ? std::string("untagged") : b.tag);
  std::string want;
  for (const auto& t : wanted) want += (want.empty() ? "" : "/") + t;
  return {std::nullopt, "wrong_format", "asked for a " + format + " file (a " + want + " block); the answer's blocks are " + seen};
}

}  // namespace kforge::generate
