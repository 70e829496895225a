#include "common/proc_text.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

namespace kforge {

std::string read_proc_file(const std::string& path) {
  std::string text;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return text;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<size_t>(n));
  ::close(fd);
  return text;
}

bool read_proc_text(const std::string& path, char* buf, size_t size) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const ssize_t n = ::read(fd, buf, size - 1);
  ::close(fd);
  if (n <= 0) return false;
  buf[n] = 0;
  return true;
}

void append_listed_pids(const char* list, std::vector<pid_t>& out) {
  for (char* end = nullptr;; list = end) {
    const long pid = std::strtol(list, &end, 10);
    if (end == list) return;
    if (pid > 0) out.push_back(static_cast<pid_t>(pid));
  }
}

}  // namespace kforge
