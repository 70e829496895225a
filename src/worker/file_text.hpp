#pragma once
// A file's bytes, read with read(2). Not iostreams: in the worker module on the H200 machine they
// crash (a facet of the locale from another copy of libstdc++): the comparison's formatting did on
// 2026-11-30 (worker/tensors.cpp), and the reference twin's key, which streamed the problem file
// and a bool, failed every job there from d52fa9d until session 33 found it.
#include <fcntl.h>
#include <unistd.h>

#include <string>

namespace kforge::worker {

// Empty where the file cannot be read.
inline std::string file_text(const std::string& path) {
  std::string out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char buffer[1 << 16];
  for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) > 0;) out.append(buffer, static_cast<size_t>(got));
  ::close(fd);
  return out;
}

}  // namespace kforge::worker
