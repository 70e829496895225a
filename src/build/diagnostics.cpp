#include "build/diagnostics.hpp"

#include <regex>
#include <set>
#include <sstream>

namespace kforge::build {

std::string condense_diagnostics(const std::string& log, const std::string& source_path,
                                 const std::string& display_name, size_t max_errors, size_t max_chars) {
  // gcc/nvcc:  path:line:col: error: message      nvcc device:  path(line): error: message
  static const std::regex error_line(R"(^(.*?)(?::(\d+)(?::(\d+))?|\((\d+)\)):\s*(fatal error|error)\s*:?\s*(.*)$)");
  std::istringstream in(log);
  std::vector<std::string> kept;
  std::set<std::string> seen;
  size_t total = 0;
  std::string line;
  bool in_kept_error = false;
  int context_lines = 0;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, error_line)) {
      std::string file = m[1].str();
      std::string lineno = m[2].matched ? m[2].str() : m[4].str();
      std::string message = m[6].str();
      if (file == source_path || file.ends_with("/" + display_name) || file == display_name) file = display_name;
      std::string key = file + ":" + lineno + ":" + message;
      ++total;
      in_kept_error = false;
      if (seen.insert(key).second && kept.size() < max_errors) {
        kept.push_back(file + ":" + lineno + ": " + m[5].str() + ": " + message);
        in_kept_error = true;
        context_lines = 0;
      }
      continue;
    }
    // The source line and caret gcc prints under an error: keep two lines of it.
    if (in_kept_error && context_lines < 2 && !line.empty() && line.find("error") == std::string::npos) {
      kept.back() += "\n" + line;  // as gcc indents it, so the caret stays under its column
      ++context_lines;
    } else {
      in_kept_error = false;
    }
  }
  std::string out;
  for (const auto& k : kept) out += k + "\n";
  if (seen.size() > kept.size()) out += "(" + std::to_string(seen.size() - kept.size()) + " more distinct errors)\n";
  if (total > seen.size()) out += "(" + std::to_string(total - seen.size()) + " repeated errors folded)\n";
  if (kept.empty()) {
    // No line in a known shape (a linker error, a crash): the end of the log says most.
    out = log.size() > max_chars ? "..." + log.substr(log.size() - max_chars) : log;
  }
  if (out.size() > max_chars) out = out.substr(0, max_chars) + "\n(cut at " + std::to_string(max_chars) + " characters)";
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::vector<KernelResources> parse_ptxas_resources(const std::string& log) {
  // ptxas info    : Compiling entry function '_Z6kernelPfi' for 'sm_90a'
  // ptxas info    : Function properties for _Z6kernelPfi
  //     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  // ptxas info    : Used 12 registers, 376 bytes cmem[0], 1024 bytes smem
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers(?:.*?(\d+) bytes smem)?)");
  std::vector<KernelResources> kernels;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, entry)) {
      kernels.push_back({m[1].str()});
    } else if (!kernels.empty() && std::regex_search(line, m, frame)) {
      kernels.back().stack_bytes = std::stoi(m[1]);
      kernels.back().spill_store_bytes = std::stoi(m[2]);
      kernels.back().spill_load_bytes = std::stoi(m[3]);
    } else if (!kernels.empty() && std::regex_search(line, m, used)) {
      kernels.back().registers = std::stoi(m[1]);
      if (m[2].matched) kernels.back().shared_bytes = std::stoi(m[2]);
    }
  }
  return kernels;
}

nlohmann::json to_json(const std::vector<KernelResources>& kernels) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& k : kernels)
    out.push_back({{"kernel", k.kernel},
                   {"registers", k.registers},
                   {"shared_bytes", k.shared_bytes},
                   {"spill_store_bytes", k.spill_store_bytes},
                   {"spill_load_bytes", k.spill_load_bytes},
                   {"stack_bytes", k.stack_bytes}});
  return out;
}

}  // namespace kforge::build
