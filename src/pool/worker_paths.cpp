#include "pool/worker_paths.hpp"

#include <cstdlib>

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

}  // namespace kforge
