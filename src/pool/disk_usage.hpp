#pragma once
// What a folder holds on disk, and a bound on it that costs one statvfs a look: a candidate's
// scratch folder is the one place its process may write (Landlock), and nothing else bounded what
// it wrote there. A candidate that filled the disk from it would fail the store's writes, the
// build cache's and every other worker's until its job ended (docs/evaluation.md, "Memory and time").
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace kforge {

// A folder's size as the disk sees it: each entry's allocated blocks (a sparse file's holes are
// free), and at least kBytesPerEntry for each, so a million empty files weigh what their inodes
// cost the filesystem rather than nothing.
struct DiskUsage {
  static constexpr int64_t kBytesPerEntry = 4096;
  static constexpr int kDeepestFolder = 128;  // nesting no honest cache has; deeper is not read
  int64_t bytes = 0;
  int64_t entries = 0;
  bool too_deep = false;  // it nests folders deeper than kDeepestFolder: the rest was not counted
};

// Walks `folder` without following links or crossing into another filesystem; nothing where it
// cannot be opened (it was removed, say). Entries that vanish during the walk are skipped.
std::optional<DiskUsage> folder_disk_usage(const std::string& folder);

// What the filesystem holding `path` has left for an unprivileged writer: bytes and inodes.
struct FreeSpace {
  int64_t bytes = 0;
  int64_t files = 0;
};
std::optional<FreeSpace> free_space(const std::string& path);

// A bound on what `folder` holds, looked at often: most looks read the filesystem's free space
// only, and the folder is walked once the filesystem has lost, since the last walk, more than the
// room the folder had left then (whoever took it: other workers' writes cost a walk, never a
// trip), and at least every kLongestBetweenWalks, since space others free meanwhile hides what the
// folder took from the free-space figure.
class FolderBound {
 public:
  static constexpr std::chrono::milliseconds kLongestBetweenWalks{500};
  FolderBound(std::string folder, int64_t bytes) : folder_(std::move(folder)), bytes_(bytes) {}
  // What the folder holds where that is past the bound (or nested too deep to count); nothing while
  // within it, or where the folder cannot be read.
  std::optional<DiskUsage> past();
  // The same, walking the folder now whatever the free space says (a job's last look).
  std::optional<DiskUsage> past_now();
  int64_t bound() const { return bytes_; }

 private:
  // Walks the folder, `space` the filesystem's free space read just before.
  std::optional<DiskUsage> walk(const FreeSpace& space);

  std::string folder_;
  int64_t bytes_;
  std::optional<FreeSpace> walk_below_;  // walk again once free space falls below either figure
  std::chrono::steady_clock::time_point walked_{};
};

}  // namespace kforge
