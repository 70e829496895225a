#include "worker/candidate_reads.hpp"

#include <unistd.h>

#include <stdexcept>

#include <pybind11/pybind11.h>

#include "common/system_reads.hpp"
#include "worker/sandbox.hpp"

namespace py = pybind11;

namespace kforge::worker {

std::vector<std::string> candidate_readable_folders() {
  std::vector<std::string> readable = system_read_paths();
  py::module_ sys = py::module_::import("sys");
  for (const char* name : {"prefix", "base_prefix", "exec_prefix"}) readable.push_back(py::str(sys.attr(name)));
  for (auto entry : sys.attr("path")) {
    std::string dir = py::str(entry);
    if (!dir.empty()) readable.push_back(dir);
  }
  if (const char* binary = std::getenv("KFORGE_BINARY"); binary && *binary) {
    // <checkout>/build/<preset>/kforge: the binary's folder (the worker's modules), and the
    // checkout's include/ and .deps/ (a carried prefix of libraries it links), not the rest.
    // (String operations, not std::filesystem: see common/remove_tree.hpp.)
    auto parent = [](const std::string& path) { return path.substr(0, path.find_last_of('/')); };
    const std::string bin = parent(binary), checkout = parent(parent(bin));
    for (const auto& p : {bin, checkout + "/include", checkout + "/.deps"}) readable.push_back(p);
  }
  for (const auto& folder : host_compiler_folders()) readable.push_back(folder);
  return readable;
}

std::string enter_prebuild_sandbox(const std::vector<std::string>& files, bool reads_build_cache) {
  std::vector<std::string> readable = candidate_readable_folders();
  readable.insert(readable.end(), files.begin(), files.end());
  // `kforge profile` loads the libraries kforge built for its candidate from the build cache
  // (a candidate's process at evaluation gets a copy of its own: worker/build_broker.hpp).
  if (reads_build_cache)
    for (const auto& folder : build_cache_folders()) readable.push_back(folder);
  SandboxStatus sandbox = enter_candidate_sandbox(candidate_writable_folders(), readable, {static_cast<int>(::getppid())});
  if (!sandbox.network_denied) throw std::runtime_error("the prebuild's sandbox could not be entered: " + sandbox.describe);
  return sandbox.describe;
}

std::string enter_rank_sandbox(const std::vector<std::string>& writable, uint64_t private_apart_from) {
  SandboxStatus sandbox = enter_candidate_sandbox(writable, candidate_readable_folders(), {static_cast<int>(::getppid())},
                                                  private_apart_from);
  if (!sandbox.network_private) throw std::runtime_error("the rank's sandbox could not be entered: " + sandbox.describe);
  return sandbox.describe;
}

}  // namespace kforge::worker
