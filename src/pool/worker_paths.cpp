#include "pool/worker_paths.hpp"

#include <cstdlib>

#include "common/files.hpp"
#include "common/sha256.hpp"

namespace kforge {

std::filesystem::path worker_python() {
  if (const char* env = std::getenv("KFORGE_PYTHON"); env && *env) return env;
  return KFORGE_CONFIGURED_PYTHON;
}

std::filesystem::path worker_module_dir() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "python";
  return exe.parent_path() / "python";
}

std::string worker_module_hash() {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(worker_module_dir(), ec)) {
    std::string name = entry.path().filename().string();
    if (name.starts_with("_kforge_worker") && entry.path().extension() == ".so") {
      try {
        return sha256_hex(read_file(entry.path()));
      } catch (const std::exception&) {
        return "unreadable";
      }
    }
  }
  return "missing";
}

}  // namespace kforge
