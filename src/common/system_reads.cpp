#include "common/system_reads.hpp"

#include <dirent.h>
#include <limits.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "common/colon_list.hpp"

// No std::filesystem and no iostreams here: this file is linked into the worker's module too, whose
// std::filesystem calls can bind to libtorch's copy of the library (see common/remove_tree.hpp).

namespace kforge {
namespace {

// The entries of `folder` whose names start with `prefix`, as paths.
std::vector<std::string> entries_starting(const std::string& folder, std::string_view prefix) {
  std::vector<std::string> out;
  if (DIR* dir = ::opendir(folder.c_str())) {
    while (const dirent* entry = ::readdir(dir)) {
      const std::string_view name(entry->d_name);
      if (name.starts_with(prefix) && name != "." && name != "..") out.push_back(folder + "/" + std::string(name));
    }
    ::closedir(dir);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<std::string> system_read_paths() {
  std::vector<std::string> paths = {"/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin"};
  // Of /etc: the dynamic loader's (every program started), the C library's users, groups, host
  // names and time zone (getpass.getuser, gloo's address lookup), what tools read to name the
  // system or a file type, the alternatives' links (/usr/bin/cc leads through them), and Python's
  // own configuration (/etc/python3.X: Debian's sitecustomize). A missing one is skipped.
  for (const char* name : {"ld.so.cache", "ld.so.conf", "ld.so.conf.d", "ld.so.preload", "localtime", "timezone",
                           "passwd", "group", "nsswitch.conf", "hosts", "host.conf", "hostname", "resolv.conf",
                           "gai.conf", "networks", "protocols", "services", "os-release", "lsb-release",
                           "debian_version", "locale.alias", "mime.types", "alternatives"})
    paths.push_back(std::string("/etc/") + name);
  for (auto& python : entries_starting("/etc", "python3")) paths.push_back(std::move(python));
  return paths;
}

std::vector<std::string> usable_device_paths(SharedMemory shared_memory) {
  std::vector<std::string> paths = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"};
  if (shared_memory == SharedMemory::allowed) paths.emplace_back("/dev/shm");
  // nvidia0..N, nvidiactl, nvidia-uvm, nvidia-uvm-tools, nvidia-modeset, and the folder
  // nvidia-caps (MIG): the CUDA driver opens them at its start, which comes before the sandbox,
  // and may open one later (CUPTI, a second device).
  for (auto& node : entries_starting("/dev", "nvidia")) paths.push_back(std::move(node));
  return paths;
}

std::vector<std::string> installation_folders(const std::string& program) {
  std::vector<std::string> tries;
  if (program.find('/') != std::string::npos) {
    tries.push_back(program);
  } else {
    const char* path = std::getenv("PATH");
    for (const auto& dir : colon_list(path ? path : "")) tries.push_back(dir + "/" + program);
  }
  const char* home_env = std::getenv("HOME");
  const std::string home = home_env ? home_env : "";
  for (const auto& candidate : tries) {
    char resolved[PATH_MAX];
    if (::access(candidate.c_str(), X_OK) != 0 || !::realpath(candidate.c_str(), resolved)) continue;
    // The program itself, not a link to it: a link in ~/bin would open the home folder.
    const std::string file(resolved);
    const std::string dir = file.substr(0, file.find_last_of('/'));
    if (dir.size() <= 4 || !dir.ends_with("/bin")) return {dir};
    const std::string prefix = dir.substr(0, dir.size() - 4);
    if (home.empty() || (home != prefix && !home.starts_with(prefix + "/"))) return {prefix};
    std::vector<std::string> out;
    for (const char* sub : {"/bin", "/lib", "/lib64", "/libexec", "/include", "/nvvm", "/targets"})
      out.push_back(prefix + sub);
    return out;
  }
  return {};
}

std::vector<std::string> host_compiler_folders() {
  std::vector<std::string> programs;
  for (const char* var : {"CC", "CXX"})
    if (const char* v = std::getenv(var); v && *v) programs.emplace_back(v);
  for (const char* name : {"cc", "gcc", "c++", "g++", "clang"}) programs.emplace_back(name);
  std::vector<std::string> out;
  for (const auto& program : programs)
    for (auto& folder : installation_folders(program))
      if (std::find(out.begin(), out.end(), folder) == out.end()) out.push_back(std::move(folder));
  return out;
}

}  // namespace kforge
