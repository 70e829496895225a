#include "pool/tree_memory.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common/proc_text.hpp"
#include "pool/process_tree.hpp"

namespace kforge {
namespace {

// The value of a "Name:   123 kB" line of a /proc status or meminfo text, in bytes; nothing where absent.
std::optional<int64_t> kilobytes_field(const char* text, const char* name) {
  const char* at = std::strstr(text, name);
  if (!at) return std::nullopt;
  return std::strtoll(at + std::strlen(name), nullptr, 10) * 1024;
}

}  // namespace

std::optional<TreeMemory> tree_resident_memory(pid_t root) {
  TreeMemory memory;
  char status[4096];
  const bool root_read = walk_process_tree(root, [&](pid_t pid, int64_t) {
    if (!read_proc_text("/proc/" + std::to_string(pid) + "/status", status, sizeof status)) return true;  // gone
    memory.bytes += pid == root ? kilobytes_field(status, "\nVmRSS:").value_or(0)
                                : kilobytes_field(status, "\nRssAnon:").value_or(0) +
                                      kilobytes_field(status, "\nRssShmem:").value_or(0);
    memory.processes += 1;
    return true;
  });
  if (!root_read) return std::nullopt;
  return memory;
}

std::optional<int64_t> resident_bytes(pid_t pid) {
  char status[4096];
  if (!read_proc_text("/proc/" + std::to_string(pid) + "/status", status, sizeof status)) return std::nullopt;
  return kilobytes_field(status, "\nVmRSS:");
}

std::optional<int64_t> machine_available_bytes() {
  char text[4096];
  if (!read_proc_text("/proc/meminfo", text, sizeof text)) return std::nullopt;
  return kilobytes_field(text, "MemAvailable:");
}

std::optional<TreeMemory> MemoryBound::past() {
  const std::optional<int64_t> root_bytes = resident_bytes(root_);
  if (!root_bytes) return std::nullopt;
  const int64_t own = *root_bytes;
  const std::optional<int64_t> available = machine_available_bytes();
  const auto now = std::chrono::steady_clock::now();
  // The root's own growth is seen every look (with the descendants as last counted), the bound as
  // it was before the tree was counted; the tree is counted when that or the machine says it may
  // have passed.
  if (own + descendants_bytes_ <= most_ && available && count_below_ && *available >= *count_below_ &&
      now - counted_ < kLongestBetweenCounts)
    return std::nullopt;
  counted_ = now;
  std::optional<TreeMemory> tree = tree_resident_memory(root_);
  if (!tree) return std::nullopt;
  if (tree->bytes > most_) return tree;
  descendants_bytes_ = std::max<int64_t>(0, tree->bytes - own);
  // Until the machine has lost the tree's room, the tree cannot have passed the bound.
  if (available) count_below_ = *available - (most_ - tree->bytes);
  return std::nullopt;
}

}  // namespace kforge
