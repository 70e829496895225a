#include "pool/disk_usage.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace kforge {

namespace {

// Adds what the folder open at `fd` holds (its entries, not itself) to `usage`; takes `fd`.
// POSIX calls only: this runs in the worker module too, where iostreams were seen to crash.
void add_folder(int fd, dev_t device, int depth, DiskUsage& usage) {
  DIR* dir = ::fdopendir(fd);
  if (!dir) {
    ::close(fd);
    return;
  }
  while (const dirent* entry = ::readdir(dir)) {
    if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) continue;
    struct stat st {};
    if (::fstatat(::dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone meanwhile
    usage.entries += 1;
    usage.bytes += std::max<int64_t>(int64_t{st.st_blocks} * 512, DiskUsage::kBytesPerEntry);
    if (!S_ISDIR(st.st_mode) || st.st_dev != device) continue;
    if (depth + 1 > DiskUsage::kDeepestFolder) {
      usage.too_deep = true;
      continue;
    }
    int child = ::openat(::dirfd(dir), entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (child >= 0) add_folder(child, device, depth + 1, usage);
  }
  ::closedir(dir);
}

}  // namespace

std::optional<DiskUsage> folder_disk_usage(const std::string& folder) {
  int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return std::nullopt;
  }
  DiskUsage usage;
  add_folder(fd, st.st_dev, 0, usage);
  return usage;
}

std::optional<FreeSpace> free_space(const std::string& path) {
  struct statvfs vfs {};
  if (::statvfs(path.c_str(), &vfs) != 0) return std::nullopt;
  return FreeSpace{static_cast<int64_t>(vfs.f_bavail) * static_cast<int64_t>(vfs.f_frsize),
                   static_cast<int64_t>(vfs.f_favail)};
}

std::optional<DiskUsage> FolderBound::past() {
  std::optional<FreeSpace> space = free_space(folder_);
  if (!space) return std::nullopt;
  if (walk_below_ && space->bytes >= walk_below_->bytes && space->files >= walk_below_->files &&
      std::chrono::steady_clock::now() - walked_ < kLongestBetweenWalks)
    return std::nullopt;
  return walk(*space);
}

std::optional<DiskUsage> FolderBound::past_now() {
  std::optional<FreeSpace> space = free_space(folder_);
  if (!space) return std::nullopt;
  return walk(*space);
}

std::optional<DiskUsage> FolderBound::walk(const FreeSpace& space) {
  walked_ = std::chrono::steady_clock::now();
  std::optional<DiskUsage> usage = folder_disk_usage(folder_);
  if (!usage) return std::nullopt;
  if (usage->too_deep || usage->bytes > bytes_) return usage;
  // Until the filesystem loses the folder's room (in bytes, or in entries at their least weight),
  // the folder cannot have grown past the bound.
  const int64_t room = bytes_ - usage->bytes;
  walk_below_ = FreeSpace{space.bytes - room, space.files - room / DiskUsage::kBytesPerEntry};
  return std::nullopt;
}

}  // namespace kforge
