#pragma once
// The build service: compiles native candidates (g++ for `cpp`, nvcc for `cuda`) into shared
// libraries, through a content-addressed cache shared by every kforge process of the user. An
// identical candidate (same source, flags, compiler, interface header, target) is never built twice;
// failures are cached too, with their log. Safe under concurrent processes: a build happens in a
// private folder and is published by one atomic rename.
#include <chrono>
#include <cstdint>
#include <functional>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/job_kinds.hpp"

namespace kforge::build {

using Format = CandidateFormat;
using kforge::to_string;
std::optional<Format> format_of(const std::filesystem::path& file);  // .py, .cpp, .cu

struct BuildRequest {
  Format format = Format::cpp;
  std::string source;
  std::string display_name;     // how diagnostics name the file
  std::string arch = "sm_90a";  // cuda: the device's (sm_90a on the H200), overridable
};

struct BuildOutcome {
  bool ok = false;
  bool cached = false;  // taken from the cache, not built now
  std::string key;
  std::filesystem::path library;  // when ok
  std::string diagnostics;        // condensed, for the candidate's author
  std::string log;                // the compiler's full output
  double seconds = 0;             // compile time when built now [s]
  nlohmann::json kernels = nlohmann::json::array();  // ptxas resources per kernel (cuda)
  nlohmann::json extra = nlohmann::json::object();    // what the compile step added (CompileResult::extra)
};

// What one compile step leaves for a cache entry; the step writes its library to
// `<folder>/candidate.so`.
struct CompileResult {
  bool ok = false;
  bool timed_out = false;  // not cached: a loaded machine may finish next time
  std::string log;
  std::string diagnostics;  // condensed, naming the file kNameToken
  double seconds = 0;
  nlohmann::json kernels = nlohmann::json::array();
  nlohmann::json extra = nlohmann::json::object();  // stored in the entry's meta (e.g. how it was built)
};

// Cached diagnostics name the file by this token; the asking candidate's name replaces it on the
// way out, since the same source can be asked for under many names.
inline constexpr const char* kNameToken = "<candidate>";
std::string with_name(std::string text, const std::string& name);

struct BuildSettings {
  std::filesystem::path cache_dir;          // default: ~/.cache/kforge/build
  uint64_t max_cache_bytes = 4ull << 30;    // evict least recently used beyond this
  std::chrono::seconds timeout{120};        // per compile
  int jobs = 0;                             // 0: one per core
  // Set: every compiler runs in a sandbox of its build (writes only in its build folder; reads
  // only beneath these folders, the cache's precompiled headers and that folder), for builds of
  // candidates' sources and flags in a process that may write the cache
  // (docs/notes/build-cache-trust.md). KFORGE_COMPILE_READABLE (colon-separated) sets it for a
  // load_inline build; native candidates' builds set native_build_readable().
  std::optional<std::vector<std::string>> compile_readable;
  // With it, the largest file such a compiler may write (build/subprocess.hpp's Confinement): no
  // honest object, library or precompiled header comes near it.
  int64_t most_compiler_file_bytes = int64_t{4} << 30;
};

BuildSettings default_build_settings();

// The build cache's folders as a sandbox must name them: `cache_dir` and, for each link directly in
// it (the tests share one precompiled header folder between caches so), the folder it leads to.
std::vector<std::filesystem::path> cache_folders(const std::filesystem::path& cache_dir);

class BuildService {
 public:
  explicit BuildService(BuildSettings settings);

  BuildOutcome build(const BuildRequest& request);
  // Many at once on `settings.jobs` threads; outcomes in request order.
  // `on_built(i, outcome)`, when given, is called on a build thread as soon as request i's is in.
  std::vector<BuildOutcome> build_all(const std::vector<BuildRequest>& requests,
                                      const std::function<void(size_t, const BuildOutcome&)>& on_built = {});

  // What a request's key covers, exposed for tests: same inputs, same key.
  std::string key_of(const BuildRequest& request);

  // The cache around any compile: returns the entry for `key` if there is one, else runs
  // `compile` in a private folder and publishes that folder as the entry by one atomic rename.
  // Diagnostics come back unnamed (kNameToken).
  BuildOutcome cached_build(const std::string& key, const std::string& display_name, const std::string& format,
                            const std::function<CompileResult(const std::filesystem::path& folder)>& compile);

  const BuildSettings& settings() const { return settings_; }
  // `g++ --version` or `nvcc --version`, read once.
  std::string toolchain_identity(Format format);

 private:
  BuildOutcome build_unnamed(const BuildRequest& request);  // diagnostics name the file kNameToken
  std::vector<std::string> command(const BuildRequest& request, const std::filesystem::path& source,
                                   const std::filesystem::path& output) const;
  std::optional<BuildOutcome> lookup(const std::string& key);
  void evict_if_needed();
  // The folders of builds that ended without publishing or removing them (a build killed with
  // its worker at a job's deadline), in tmp/ and pch/, once older than any build may run.
  void remove_abandoned_builds();

  BuildSettings settings_;
  std::mutex identity_mutex_;
  std::string gxx_identity_, nvcc_identity_;
  std::string header_hash_;  // sha256 of include/kforge/candidate.h
};

// Static checks before compiling, each a clear compile_error: the interface version the candidate
// states, includes reaching outside its own source, a .cu without a kernel.
std::optional<std::string> check_native_source(Format format, const std::string& source);

// The header's folder (include/), for -I.
std::filesystem::path interface_include_dir();

std::string nvcc_path();  // KFORGE_NVCC, CUDA_HOME/bin/nvcc, /usr/local/cuda/bin/nvcc, or nvcc
std::string gxx_path();   // KFORGE_CXX or g++

// What the compilers of a native candidate's build read besides their build's folder (its
// BuildSettings::compile_readable): the system's (common/system_reads.hpp), the installations of
// nvcc, g++ and the host compilers, and the interface header's folder. A candidate's source reads
// any file its compiler can (`asm(".incbin \"FILE\"")` puts the bytes in its library; its error
// message then carries them to the store and an agent's model), so not the user's home, kforge's
// store or configuration.
std::vector<std::string> native_build_readable();

}  // namespace kforge::build
