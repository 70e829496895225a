#include "common/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "common/errors.hpp"

namespace kforge {

// read(2) and write(2), not iostreams: the worker module links this file, and its iostreams crash
// on the H200 machine (worker/file_text.hpp).
std::string read_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error(path.string() + ": is a directory");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(path.string() + ": cannot read (" + std::strerror(errno) + ")");
  std::string out;
  char buffer[1 << 16];
  ssize_t got;
  while ((got = ::read(fd, buffer, sizeof buffer)) > 0) out.append(buffer, static_cast<size_t>(got));
  const int err = errno;
  ::close(fd);
  if (got < 0) throw Error(path.string() + ": read failed (" + std::strerror(err) + ")");
  return out;
}

std::optional<std::string> read_file_if_readable(const std::filesystem::path& path) {
  try {
    return read_file(path);
  } catch (const Error&) {
    return std::nullopt;
  }
}

namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string size_text(size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

bool valid_utf8(const std::string& text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    int extra = 0;
    uint32_t cp = 0;
    if ((c & 0xe0) == 0xc0) extra = 1, cp = c & 0x1f;
    else if ((c & 0xf0) == 0xe0) extra = 2, cp = c & 0x0f;
    else if ((c & 0xf8) == 0xf0) extra = 3, cp = c & 0x07;
    else return false;
    for (int k = 1; k <= extra; ++k) {
      if (i + k >= n || (s[i + k] & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (s[i + k] & 0x3f);
    }
    static constexpr uint32_t kLeast[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kLeast[extra] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += extra + 1;
  }
  return true;
}

std::string read_source_file(const std::filesystem::path& path, size_t max_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw Error(path.string() + ": cannot read (" + std::strerror(errno) + ")");
  if (!S_ISREG(st.st_mode)) throw Error(path.string() + ": " + kind_of(st.st_mode) + ", not a source file: not read");
  if (static_cast<size_t>(st.st_size) > max_bytes)
    throw Error(path.string() + ": " + std::to_string(st.st_size) + " bytes, over the " + size_text(max_bytes) +
                " a source file may have: not read");
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw Error(path.string() + ": cannot read (" + std::strerror(errno) + ")");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    throw Error(path.string() + ": changed into " + kind_of(st.st_mode) + " while being opened: not read");
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw Error(path.string() + ": read failed (" + std::strerror(errno) + ")");
    if (got == 0) break;
    text.append(buf, static_cast<size_t>(got));
    if (text.size() > max_bytes)  // grew while being read
      throw Error(path.string() + ": over the " + size_text(max_bytes) + " a source file may have: not read");
  }
  if (!valid_utf8(text)) throw Error(path.string() + ": not UTF-8 text (a binary file?)");
  return text;
}

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  auto tmp = path;
  tmp += ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(tmp.string() + ": cannot write (" + std::strerror(errno) + ")");
  for (size_t done = 0; done < content.size();) {
    const ssize_t wrote = ::write(fd, content.data() + done, content.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      const int err = errno;
      ::close(fd);
      throw Error(tmp.string() + ": write failed (" + std::strerror(err) + ")");
    }
    done += static_cast<size_t>(wrote);
  }
  if (::close(fd) != 0) throw Error(tmp.string() + ": write failed (" + std::strerror(errno) + ")");
  std::filesystem::rename(tmp, path);
}

}  // namespace kforge
