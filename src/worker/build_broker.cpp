#include "worker/build_broker.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "build/build_inline_child.hpp"
#include "worker/candidate_reads.hpp"
#include "worker/sandbox.hpp"

namespace kforge::worker {
namespace {

// A whole build of a template-heavy candidate takes minutes on a loaded machine; the job's own
// deadline (--timeout) ends a longer one with the worker.
constexpr std::chrono::seconds kBuildTimeout{1800};

// What the compilers may read: what the candidate's process may (without this job's files, which
// no build needs), as KFORGE_COMPILE_READABLE.
std::string compile_readable(const std::string& candidate_scratch) {
  static const std::string common = [] {
    std::string list;
    for (const auto& folder : candidate_readable_folders()) list += (list.empty() ? "" : ":") + folder;
    return list;
  }();
  return common + (candidate_scratch.empty() ? "" : ":" + candidate_scratch);
}

// The name a copy of an extension's library goes by: the name the candidate gave it, as torch
// names the file, so that the census says "kernels: 1 own (fused_add_relu.so: 1)"; characters a
// module name cannot hold (a '/' above all) become '_'.
std::string library_file_name(const std::string& extension_name) {
  std::string file = extension_name.empty() ? "extension" : extension_name;
  for (char& c : file)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  return file + ".so";
}

// Whether `library` lies in the build cache's objects/, where `kforge build-inline` publishes what
// it built. Its reply is the last line of its output, and the compilers it ran for a candidate's
// flags share that output: a line of theirs is never the last, and a forged one naming another
// candidate's library, or a file of the candidate's own, is refused here whatever it says.
// (realpath and strings, not std::filesystem: in the worker module some of its calls bind to
// libtorch's copy and crash; common/remove_tree.hpp.)
bool in_build_cache(const std::string& library) {
  char real[PATH_MAX];
  if (!::realpath(library.c_str(), real)) return false;
  for (const auto& folder : build_cache_folders()) {
    char objects[PATH_MAX];
    if (!::realpath((folder + "/objects").c_str(), objects)) continue;
    const std::string prefix = std::string(objects) + "/";
    if (std::string_view(real).starts_with(prefix)) return true;
  }
  return false;
}

// The built library copied into the candidate's scratch folder, which `reply` then names: the
// candidate's process may read that folder and not the cache, where it could load what another
// candidate built as its own. Each copy has a folder of its own: a candidate may load two
// extensions of one name.
nlohmann::json with_library_copied(nlohmann::json reply, const std::string& extension_name,
                                   const std::string& candidate_scratch) {
  const std::string library = reply.value("library", std::string());
  if (!reply.value("ok", false) || library.empty() || candidate_scratch.empty()) return reply;
  if (!in_build_cache(library))
    return build::failed_build("kforge's build named a library outside its cache (" + library + "): not given to the candidate");
  static std::atomic<int> copies{0};
  const std::string folder = candidate_scratch + "/extension-" + std::to_string(copies++);
  if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST)
    return build::failed_build("kforge built the extension but could not give it to the candidate's process: " +
                               std::string(std::strerror(errno)));
  const std::string copy = folder + "/" + library_file_name(extension_name);
  std::error_code ec;
  std::filesystem::copy_file(library, copy, std::filesystem::copy_options::overwrite_existing, ec);
  if (ec) return build::failed_build("kforge built the extension but could not give it to the candidate's process: " + ec.message());
  reply["library"] = copy;
  return reply;
}

}  // namespace

nlohmann::json build_for_candidate(const nlohmann::json& spec, const std::string& candidate_scratch) {
  const char* scratch = std::getenv("KFORGE_WORKER_SCRATCH");
  if (!scratch || !*scratch) return build::failed_build("kforge cannot build here: the worker has no scratch folder");
  // The spec as a file of the worker's (a candidate's process writes only its own folder in there).
  static std::atomic<int> counter{0};
  const std::filesystem::path spec_file = std::filesystem::path(scratch) / ("build-spec-" + std::to_string(::getpid()) +
                                                                           "-" + std::to_string(counter++) + ".json");
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) env.emplace_back(*e);
  return with_library_copied(build::build_inline_in_child(spec, spec_file, std::move(env), compile_readable(candidate_scratch),
                                                          kBuildTimeout),
                             spec.value("name", std::string()), candidate_scratch);
}

}  // namespace kforge::worker
