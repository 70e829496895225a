#include "common/remove_tree.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace kforge {

namespace {

// Removes every entry of the folder open at `fd` that is not a folder, and returns the names of
// those that are (to visit next).
std::vector<std::string> clear_files(int fd) {
  std::vector<std::string> folders;
  int listing = ::dup(fd);
  if (listing < 0) return folders;
  DIR* dir = ::fdopendir(listing);
  if (!dir) {
    ::close(listing);
    return folders;
  }
  while (const dirent* entry = ::readdir(dir)) {
    if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) continue;
    bool is_folder = entry->d_type == DT_DIR;
    if (entry->d_type == DT_UNKNOWN) {
      struct stat st {};
      is_folder = ::fstatat(fd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
    }
    if (is_folder) folders.emplace_back(entry->d_name);
    else ::unlinkat(fd, entry->d_name, 0);
  }
  ::closedir(dir);
  return folders;
}

}  // namespace

bool remove_tree(const std::string& root) {
  int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return true;
    return ::unlink(root.c_str()) == 0;  // a file or a link where a folder was expected
  }
  struct Visit {
    std::string name;                  // in its parent folder
    std::vector<std::string> pending;  // its folders not yet visited
  };
  std::vector<Visit> path{{"", clear_files(fd)}};
  while (!path.empty()) {
    Visit& here = path.back();
    if (!here.pending.empty()) {
      std::string name = std::move(here.pending.back());
      here.pending.pop_back();
      int child = ::openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (child < 0) continue;  // gone, or not a folder after all: left as it is
      ::close(fd);
      fd = child;
      std::vector<std::string> folders = clear_files(fd);
      path.push_back({std::move(name), std::move(folders)});
      continue;
    }
    if (path.size() == 1) break;
    int parent = ::openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (parent < 0) break;
    ::close(fd);
    fd = parent;
    ::unlinkat(fd, here.name.c_str(), AT_REMOVEDIR);
    path.pop_back();
  }
  ::close(fd);
  return ::rmdir(root.c_str()) == 0 || errno == ENOENT;
}

}  // namespace kforge
