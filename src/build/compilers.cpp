#include "build/compilers.hpp"

#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "common/environment_allowlist.hpp"
#include "common/landlock.hpp"
#include "common/system_reads.hpp"

namespace kforge::build {

OwnedFd compile_sandbox(const BuildSettings& settings, const std::filesystem::path& folder, bool* signals_scoped) {
  if (signals_scoped) *signals_scoped = false;
  if (!settings.compile_readable || landlock::abi() < 1) return OwnedFd();
  std::vector<std::string> readable = *settings.compile_readable;
  // Of the cache, the precompiled headers only (where the folder is a link, as the tests make it,
  // its target too): not objects/, every other candidate's built library, nor tmp/, the builds in
  // progress, which a program run by a candidate's flags would pass off as its own build.
  const std::filesystem::path headers = settings.cache_dir / "pch";
  // Made now if missing: Landlock rules name folders that exist, and in a fresh cache the first
  // host unit's precompiled header (build/precompiled_header.hpp) is made, or found made by a
  // concurrent build, only after its build's compilers were confined.
  std::error_code ec;
  std::filesystem::create_directories(headers, ec);
  readable.push_back(headers.string());
  if (std::filesystem::is_symlink(headers, ec))
    if (auto target = std::filesystem::canonical(headers, ec); !ec) readable.push_back(target.string());
  landlock::Confinement confinement;
  confinement.writable = {folder.string()};
  confinement.readable = std::move(readable);
  confinement.devices = usable_device_paths();
  // KFORGE_WORKER_NO_SIGNAL_SCOPE: the tests' way to exercise the seccomp rule older kernels rely on.
  confinement.scope_signals = !std::getenv("KFORGE_WORKER_NO_SIGNAL_SCOPE");
  std::string error;
  OwnedFd ruleset = landlock::confining_ruleset(confinement, &error, signals_scoped);
  if (!ruleset.valid())
    throw std::runtime_error("the compilers' sandbox could not be made: " + error);
  return ruleset;
}

Compilers::Compilers(const BuildSettings& settings, const std::filesystem::path& folder) : folder_(folder) {
  bool signals_scoped = false;
  sandbox_ = compile_sandbox(settings, folder, &signals_scoped);
  if (settings.compile_readable && !sandbox_.valid())
    note_ = "the compilers' files are unconfined: this kernel has no Landlock (nor has the candidate's process)";
  if (settings.compile_readable) {
    filter_ = seccomp::compiler_filter(signals_scoped);
    filter_program_ = {static_cast<unsigned short>(filter_.size()), filter_.data()};
    most_file_bytes_ = settings.most_compiler_file_bytes;
  }
  // No credential reaches a compiler: a candidate's flags may run a program of its own in their place.
  for (char** e = environ; *e; ++e)
    if (std::string_view(*e).rfind("TMPDIR=", 0) != 0 && passes_to_candidate_code(*e)) env_.emplace_back(*e);
  env_.push_back("TMPDIR=" + (folder / "tmp").string());
  std::error_code ec;
  std::filesystem::create_directories(folder / "tmp", ec);  // a missing TMPDIR fails the build
}

Compilers::~Compilers() {
  std::error_code ec;
  std::filesystem::remove_all(folder_ / "tmp", ec);  // their temporary files, no part of a build's entry
}

ProcessResult Compilers::run(const std::vector<std::string>& argv, std::chrono::seconds timeout, size_t output_cap) const {
  Confinement confined;
  confined.ruleset = sandbox_.get();
  confined.filter = filter_.empty() ? nullptr : &filter_program_;
  confined.most_file_bytes = most_file_bytes_;
  return run_process(argv, timeout, output_cap, folder_.string(), {}, &env_, confined);
}

}  // namespace kforge::build
