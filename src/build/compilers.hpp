#pragma once
// How the compilers of one build run: in its own folder, and, where the build service's settings
// ask for it (BuildSettings::compile_readable), in a sandbox of that build. A load_inline build
// compiles a candidate's sources with a candidate's flags, and flags run programs (g++'s -wrapper
// and -B, nvcc's --compiler-bindir, -fplugin); a native candidate's source alone reads files
// (`.incbin`). The compiler is as untrusted as the candidate, so in a process that may write the
// build cache it may write only its own build's folder and read only what compiling needs
// (docs/notes/build-cache-trust.md).
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "build/build_service.hpp"
#include "build/subprocess.hpp"
#include "common/owned_fd.hpp"
#include "common/seccomp_filter.hpp"

namespace kforge::build {

// The sandbox of one build in `folder`: a Landlock ruleset for run_process that allows writing
// beneath `folder` only and reading beneath the settings' folders, the cache's precompiled headers
// and `folder`, and keeps signals and abstract sockets inside the compilers' own
// processes where the kernel can (`signals_scoped` says whether); none where the settings ask for
// none, or where the kernel has no Landlock (a candidate's own process is not confined there
// either; the build's log says so). Throws where the kernel has Landlock and refused the ruleset.
OwnedFd compile_sandbox(const BuildSettings& settings, const std::filesystem::path& folder, bool* signals_scoped = nullptr);

// The compilers of one build in `folder`, their working directory: this process's environment (less
// what common/environment_allowlist.hpp keeps from candidates' code) with TMPDIR set to
// `folder`/tmp (made with them, removed with them), and the build's sandbox. Their temporary files
// (g++'s .s, nvcc's intermediates) then live in the build's own folder, not in the TMPDIR of
// whoever asked. A candidate process
// asks with its scratch folder as TMPDIR, and that folder is removed when its evaluation ends: a
// build still running past the evaluation's timeout then failed on a vanished .s file, and the
// failure was cached for every later run.
class Compilers {
 public:
  Compilers(const BuildSettings& settings, const std::filesystem::path& folder);
  ~Compilers();  // removes `folder`/tmp
  Compilers(const Compilers&) = delete;  // filter_program_ points into filter_
  Compilers& operator=(const Compilers&) = delete;
  ProcessResult run(const std::vector<std::string>& argv, std::chrono::seconds timeout, size_t output_cap = 1 << 20) const;
  // Empty, or what the build's log should say of the sandbox (none to be had).
  const std::string& note() const { return note_; }

 private:
  std::filesystem::path folder_;
  std::vector<std::string> env_;
  OwnedFd sandbox_;
  // With the sandbox, a seccomp filter too (common/seccomp_filter.hpp's compiler_filter): a
  // program a candidate's flags name (`-B DIR/` runs DIR/cc1plus) otherwise runs in kforge's or the
  // reference process's tree, free to signal either, to trace, to leave its group, to open sockets.
  seccomp::Program filter_;
  sock_fprog filter_program_{};
  int64_t most_file_bytes_ = 0;  // with the sandbox: BuildSettings::most_compiler_file_bytes
  std::string note_;
};

}  // namespace kforge::build
