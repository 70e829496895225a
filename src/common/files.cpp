#include "common/files.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/errors.hpp"

namespace kforge {

std::string read_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error(path.string() + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string() + ": cannot read (" + std::strerror(errno) + ")");
  std::ostringstream out;
  out << in.rdbuf();
  if (in.bad()) throw Error(path.string() + ": read failed");
  return out.str();
}

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  auto tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(tmp.string() + ": cannot write (" + std::strerror(errno) + ")");
    out << content;
    if (!out.flush()) throw Error(tmp.string() + ": write failed");
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace kforge
