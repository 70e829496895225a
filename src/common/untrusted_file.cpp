#include "common/untrusted_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kforge {

int open_untrusted_file(const std::string& path) {
  // O_NONBLOCK: a FIFO in the file's place would otherwise hold the open until a writer came.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
    ::close(fd);
    return -1;
  }
  return fd;
}

std::string read_untrusted_file(const std::string& path, int64_t most_bytes) {
  const int fd = open_untrusted_file(path);
  if (fd < 0) return "";
  std::string text;
  char buffer[1 << 16];
  while (static_cast<int64_t>(text.size()) < most_bytes) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n <= 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  if (static_cast<int64_t>(text.size()) > most_bytes) text.resize(static_cast<size_t>(most_bytes));
  return text;
}

}  // namespace kforge
