#include "common/untrusted_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <utility>

namespace kforge {

std::optional<UntrustedFile> open_untrusted_file(const std::string& path) {
  // O_NONBLOCK: a FIFO in the file's place would otherwise hold the open until a writer came.
  OwnedFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (!fd.valid()) return std::nullopt;
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) return std::nullopt;
  return UntrustedFile{std::move(fd), static_cast<int64_t>(st.st_size)};
}

std::string read_untrusted_file(const std::string& path, int64_t most_bytes) {
  const std::optional<UntrustedFile> file = open_untrusted_file(path);
  if (!file) return "";
  std::string text;
  char buffer[1 << 16];
  while (static_cast<int64_t>(text.size()) < most_bytes) {
    const ssize_t n = ::read(file->fd.get(), buffer, sizeof buffer);
    if (n <= 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  if (static_cast<int64_t>(text.size()) > most_bytes) text.resize(static_cast<size_t>(most_bytes));
  return text;
}

}  // namespace kforge
