#include "worker/crash_output.hpp"
#include "worker/crash_report.hpp"

#include <string_view>

namespace kforge::worker {
namespace {

// A path of Python's own library, an installed package, or one of kforge's modules (the zygote
// that called forward): not where a candidate's code went wrong.
bool library_path(std::string_view path) {
  const size_t slash = path.rfind('/');
  const std::string_view file = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return path.find("/site-packages/") != std::string_view::npos || path.find("/dist-packages/") != std::string_view::npos ||
         path.find("/lib/python3") != std::string_view::npos || file.starts_with("kforge_") || path.starts_with("<");
}

// `  File "/x/segfault.py", line 21 in forward` -> "segfault.py, line 21, in forward"; empty for
// any other line or a library's frame.
std::string candidate_frame(std::string_view line) {
  constexpr std::string_view kFile = "  File \"";
  if (!line.starts_with(kFile)) return "";
  line.remove_prefix(kFile.size());
  const size_t quote = line.find("\", line ");
  if (quote == std::string_view::npos) return "";
  const std::string_view path = line.substr(0, quote);
  if (library_path(path)) return "";
  std::string_view rest = line.substr(quote + 8);  // "21 in forward"
  const size_t in = rest.find(" in ");
  if (in == std::string_view::npos) return "";
  const size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1)) + ", line " +
         std::string(rest.substr(0, in)) + ", in " + std::string(rest.substr(in + 4));
}

}  // namespace

CrashOutput read_crash_output(const std::string& output, size_t max_bytes) {
  constexpr int kNativeFrames = 6;
  CrashOutput out;
  std::string kept;
  std::string native_head;
  int native_left = 0;  // frames of the native stack still to keep in native_head
  bool in_frames = false;
  for (size_t begin = 0; begin < output.size();) {
    size_t end = output.find('\n', begin);
    if (end == std::string::npos) end = output.size();
    const std::string_view line(output.data() + begin, end - begin);
    begin = end + 1;
    if (line.starts_with("Extension modules: ")) continue;
    kept.append(line).push_back('\n');
    if (line == kNativeStackHeader) {
      native_left = kNativeFrames;
      native_head.clear();
    } else if (native_left > 0 && line.find("[0x") != std::string_view::npos) {
      native_head.append(line).push_back('\n');
      --native_left;
    } else {
      native_left = 0;  // the stack ended
    }
    // The dump lists the crashing thread first ("Current thread ..."; where the crash was in a
    // thread Python did not start, an OpenMP worker's, only the others, as "Thread ..."), each
    // frame innermost first: the first of the candidate's frames in the first block that has one.
    if (line.ends_with("(most recent call first):")) {
      in_frames = out.where.empty();
      continue;
    }
    if (!line.starts_with("  File ")) in_frames = false;
    if (in_frames && out.where.empty()) out.where = candidate_frame(line);
  }
  while (!kept.empty() && (kept.back() == '\n' || kept.back() == ' ')) kept.pop_back();
  out.tail = kept.size() > max_bytes ? kept.substr(kept.size() - max_bytes) : kept;
  if (out.tail.find(kNativeStackHeader) == std::string::npos) {
    while (!native_head.empty() && native_head.back() == '\n') native_head.pop_back();
    out.native_head = std::move(native_head);
  }
  return out;
}

}  // namespace kforge::worker
