#include "protocol/frame.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

namespace kforge::protocol {
namespace {

bool write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// Reads exactly `size` bytes; ok, closed (EOF/error) or timed_out.
ReadStatus read_exact(int fd, char* data, size_t size,
                      std::optional<std::chrono::steady_clock::time_point> deadline) {
  while (size > 0) {
    int timeout_ms = -1;
    if (deadline) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          *deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return ReadStatus::timed_out;
      timeout_ms = static_cast<int>(std::min<long long>(left.count(), 1 << 30));
    }
    pollfd p{fd, POLLIN, 0};
    int ready = ::poll(&p, 1, timeout_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      return ReadStatus::closed;
    }
    if (ready == 0) return ReadStatus::timed_out;
    ssize_t n = ::read(fd, data, size);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return ReadStatus::closed;
    }
    if (n == 0) return ReadStatus::closed;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return ReadStatus::ok;
}

// Whether the JSON text nests arrays and objects deeper than `limit` (brackets inside strings do
// not count), read in one pass without building anything.
bool nested_deeper_than(const std::vector<char>& text, int limit) {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

}  // namespace

bool write_frame(int fd, const nlohmann::json& message) {
  std::string payload = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (payload.size() > kMaxFrameBytes) return false;
  uint32_t n = static_cast<uint32_t>(payload.size());
  char header[4] = {char(n & 0xff), char((n >> 8) & 0xff), char((n >> 16) & 0xff), char(n >> 24)};
  return write_all(fd, header, 4) && write_all(fd, payload.data(), payload.size());
}

ReadResult read_frame(int fd, std::optional<std::chrono::steady_clock::time_point> deadline, uint32_t max_bytes) {
  ReadResult result;
  unsigned char header[4];
  result.status = read_exact(fd, reinterpret_cast<char*>(header), 4, deadline);
  if (result.status != ReadStatus::ok) return result;
  uint32_t n = uint32_t(header[0]) | (uint32_t(header[1]) << 8) | (uint32_t(header[2]) << 16) |
               (uint32_t(header[3]) << 24);
  if (n > max_bytes) {
    result.status = ReadStatus::malformed;
    result.error = "frame of " + std::to_string(n) + " bytes exceeds the limit";
    return result;
  }
  std::vector<char> payload(n);
  result.status = read_exact(fd, payload.data(), n, deadline);
  if (result.status != ReadStatus::ok) return result;
  if (nested_deeper_than(payload, kMaxFrameDepth)) {
    result.status = ReadStatus::malformed;
    result.error = "frame nests deeper than " + std::to_string(kMaxFrameDepth) + " levels";
    return result;
  }
  try {
    result.message = nlohmann::json::parse(payload.begin(), payload.end());
  } catch (const nlohmann::json::exception& e) {
    result.status = ReadStatus::malformed;
    result.error = e.what();
  }
  return result;
}

}  // namespace kforge::protocol
