#include "suite/static_checks.hpp"
#include "core/rules.hpp"

#include <array>

namespace kforge {
namespace {

struct Pattern {
  std::string_view text;
  std::string_view why;
};

// Each is a way into kforge or into the process around the candidate, not a way to compute.
constexpr std::array kPatterns{
    Pattern{"_kforge_worker", "imports kforge's worker module"},
    Pattern{"kforge_worker", "imports kforge's worker entry point"},
    Pattern{"/proc/self/mem", "reads the process's memory"},
    Pattern{"process_vm_readv", "reads another process's memory"},
    Pattern{"process_vm_writev", "writes another process's memory"},
    Pattern{"PTRACE_", "traces a process"},
    Pattern{"gc.get_objects", "walks every live Python object (the reference's outputs, the harness's state)"},
    Pattern{"gc.get_referrers", "walks the objects that refer to its arguments"},
    Pattern{"sys._getframe", "reaches into its caller's stack frames"},
    Pattern{".f_back", "reaches into its caller's stack frames"},
};

// The source with comments blanked (newlines kept, so line numbers stay), strings left alone.
std::string without_comments(std::string_view src, bool python) {
  std::string out(src);
  char quote = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    char c = out[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote || c == '\n') quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
    } else if ((python && c == '#') || (!python && c == '/' && i + 1 < out.size() && out[i + 1] == '/')) {
      for (; i < out.size() && out[i] != '\n'; ++i) out[i] = ' ';
    } else if (!python && c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
      for (; i < out.size() && !(out[i] == '*' && i + 1 < out.size() && out[i + 1] == '/'); ++i)
        if (out[i] != '\n') out[i] = ' ';
      if (i + 1 < out.size()) out[i] = out[i + 1] = ' ';
      ++i;
    }
  }
  return out;
}

}  // namespace

std::optional<StaticFinding> check_candidate_source(std::string_view source, bool python) {
  const std::string code = without_comments(source, python);
  for (const auto& p : kPatterns) {
    auto at = code.find(p.text);
    if (at == std::string::npos) continue;
    size_t line = 1;
    for (size_t i = 0; i < at; ++i) line += code[i] == '\n';
    return StaticFinding{std::string(rules::kHarnessAccess), "line " + std::to_string(line) + ": `" + std::string(p.text) + "` " +
                                               std::string(p.why) + "; no kernel needs that"};
  }
  return std::nullopt;
}

}  // namespace kforge
