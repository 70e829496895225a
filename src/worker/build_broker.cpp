#include "worker/build_broker.hpp"

#include <fcntl.h>
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
#include "common/owned_fd.hpp"
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

// `from` copied to a new file `name` in the folder `folder_fd`: created here (O_EXCL), never a
// file or link that was there. Empty, or why it failed.
std::string copy_into(const std::string& from, int folder_fd, const std::string& name) {
  const OwnedFd in(::open(from.c_str(), O_RDONLY | O_CLOEXEC));
  if (!in.valid()) return std::strerror(errno);
  const OwnedFd out(::openat(folder_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0755));
  if (!out.valid()) return std::strerror(errno);
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(in.get(), buffer, sizeof buffer);
    if (n == 0) return "";
    if (n < 0) {
      if (errno == EINTR) continue;
      return std::strerror(errno);
    }
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::write(out.get(), buffer + done, static_cast<size_t>(n - done));
      if (w > 0) done += w;
      else if (w == 0 || errno != EINTR) return std::strerror(w == 0 ? EIO : errno);
    }
  }
}

// The built library copied into the candidate's scratch folder, which `reply` then names: the
// candidate's process may read that folder and not the cache, where it could load what another
// candidate built as its own. Each copy has a folder of its own: a candidate may load two
// extensions of one name. The scratch folder is the candidate's to fill, and this runs as the
// worker, which may write where the candidate may not: the folder is made here (a name the
// candidate took already, with a link to the worker's own folders say, is passed over, never
// entered), opened without following a link, and the file made new in it
// (escape_build_copy_through_symlink.py: before session 46 its library was written through
// extension-0, a link it had made to the worker's scratch folder).
nlohmann::json with_library_copied(nlohmann::json reply, const std::string& extension_name,
                                   const std::string& candidate_scratch) {
  const std::string library = reply.value("library", std::string());
  if (!reply.value("ok", false) || library.empty() || candidate_scratch.empty()) return reply;
  if (!in_build_cache(library))
    return build::failed_build("kforge's build named a library outside its cache (" + library + "): not given to the candidate");
  auto refused = [](const std::string& why) {
    return build::failed_build("kforge built the extension but could not give it to the candidate's process: " + why);
  };
  static std::atomic<int> copies{0};
  std::string folder;
  for (int tries = 0; folder.empty(); ++tries) {
    const std::string name = candidate_scratch + "/extension-" + std::to_string(copies++);
    if (::mkdir(name.c_str(), 0700) == 0) folder = name;
    else if (errno != EEXIST || tries >= 1000) return refused(std::strerror(errno));
  }
  const OwnedFd folder_fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!folder_fd.valid()) return refused(std::strerror(errno));
  const std::string file = library_file_name(extension_name);
  if (const std::string why = copy_into(library, folder_fd.get(), file); !why.empty()) return refused(why);
  reply["library"] = folder + "/" + file;
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
