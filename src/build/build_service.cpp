#include "build/build_service.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <random>
#include <regex>
#include <thread>

#include "build/compilers.hpp"
#include "build/diagnostics.hpp"
#include "build/source_text.hpp"
#include "build/subprocess.hpp"
#include "common/colon_list.hpp"
#include "common/parallel.hpp"
#include "common/files.hpp"
#include "common/sha256.hpp"
#include "common/system_reads.hpp"

namespace kforge::build {
namespace {

constexpr int kInterfaceVersion = 1;  // include/kforge/candidate.h

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

std::string nvcc_path() {
  if (const char* env = std::getenv("KFORGE_NVCC"); env && *env) return env;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* home = std::getenv(var); home && *home && std::filesystem::exists(std::string(home) + "/bin/nvcc"))
      return std::string(home) + "/bin/nvcc";
  if (std::filesystem::exists("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  return "nvcc";
}

// Machine code for the one target only. `-arch=sm_90a` would also embed compute_90 PTX, which costs
// a second cicc pass (about 0.6 s of a 2.9 s build, measured on a 2-core machine) and is never run:
// kforge builds for the device it runs on.
static std::string gencode(const std::string& arch) {
  std::string compute = arch.starts_with("sm_") ? "compute_" + arch.substr(3) : arch;
  return "-gencode=arch=" + compute + ",code=" + arch;
}

std::string gxx_path() {
  const char* env = std::getenv("KFORGE_CXX");
  return env && *env ? env : "g++";
}

std::vector<std::string> native_build_readable() {
  std::vector<std::string> readable = system_read_paths();
  for (const std::string& program : {nvcc_path(), gxx_path()})
    for (auto& folder : installation_folders(program)) readable.push_back(std::move(folder));
  for (auto& folder : host_compiler_folders()) readable.push_back(std::move(folder));
  readable.push_back(interface_include_dir().string());
  return readable;
}

namespace {

uint64_t folder_bytes(const std::filesystem::path& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec))
    if (e.is_regular_file(ec)) total += e.file_size(ec);
  return total;
}

std::string unique_suffix() {
  static std::atomic<uint64_t> counter{0};
  std::random_device rd;
  return std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" + std::to_string(rd());
}

}  // namespace

std::string with_name(std::string text, const std::string& name) {
  for (size_t at = text.find(kNameToken); at != std::string::npos; at = text.find(kNameToken, at + name.size()))
    text.replace(at, std::strlen(kNameToken), name);
  return text;
}

std::optional<Format> format_of(const std::filesystem::path& file) {
  auto ext = file.extension().string();
  if (ext == ".py") return Format::kernelbench;
  if (ext == ".cpp" || ext == ".cc" || ext == ".cxx") return Format::cpp;
  if (ext == ".cu") return Format::cuda;
  return std::nullopt;
}

std::filesystem::path interface_include_dir() {
  if (const char* env = std::getenv("KFORGE_INCLUDE"); env && *env) return env;
  return KFORGE_SOURCE_DIR "/include";
}

BuildSettings default_build_settings() {
  BuildSettings s;
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path base = cache && *cache ? cache : (home ? std::filesystem::path(home) / ".cache" : ".");
  s.cache_dir = base / "kforge" / "build";
  if (const char* readable = std::getenv("KFORGE_COMPILE_READABLE"); readable && *readable)
    s.compile_readable = colon_list(readable);
  return s;
}

std::vector<std::filesystem::path> cache_folders(const std::filesystem::path& cache_dir) {
  std::vector<std::filesystem::path> dirs{cache_dir};
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(cache_dir, ec))
    if (entry.is_symlink(ec))
      if (auto target = std::filesystem::canonical(entry.path(), ec); !ec) dirs.push_back(target);
  return dirs;
}

std::optional<std::string> check_native_source(Format format, const std::string& raw_source) {
  // Code only: a kernel or an include named in a comment is none (seen on the H200, 2026-11-30).
  const std::string source = mask_source(raw_source, false).text;
  static const std::regex stated(R"(KFORGE_CANDIDATE\s*\(\s*(\d+)\s*\))");
  std::smatch m;
  if (!std::regex_search(source, m, stated))
    return "no KFORGE_CANDIDATE(<version>) line: a native candidate states the interface version it was written "
           "for (docs/candidate-format.md)";
  int version = std::stoi(m[1]);
  if (version < 1 || version > kInterfaceVersion)
    return "written for interface version " + std::to_string(version) + "; this kforge knows versions 1.." +
           std::to_string(kInterfaceVersion);
  // A candidate is one file: quoted includes (its own folder, relative or absolute paths) reach
  // outside it. System and toolkit headers come in with <...>.
  static const std::regex quoted_include(R"((^|\n)\s*#\s*include\s*"([^"]*)\")");
  for (auto it = std::sregex_iterator(source.begin(), source.end(), quoted_include); it != std::sregex_iterator(); ++it) {
    std::string target = (*it)[2].str();
    if (target != "kforge/candidate.h")
      return "#include \"" + target + "\" reaches outside the candidate's own source; only <system headers> and "
             "\"kforge/candidate.h\" may be included";
  }
  static const std::regex angle_path(R"((^|\n)\s*#\s*include\s*<([^>]*\.\.[^>]*|/[^>]*)>)");
  if (std::regex_search(source, m, angle_path))
    return "#include <" + m[2].str() + "> names a path outside the toolkit's headers";
  if (format == Format::cuda && source.find("__global__") == std::string::npos)
    return "a cuda candidate defines at least one __global__ kernel (use the cpp format for host-only code)";
  return std::nullopt;
}

BuildService::BuildService(BuildSettings settings) : settings_(std::move(settings)) {
  // The interface header is part of every key; read once, not per build.
  try {
    header_hash_ = sha256_hex(read_file(interface_include_dir() / "kforge" / "candidate.h"));
  } catch (...) {
    header_hash_ = sha256_hex("");  // as before: a missing header hashes as empty
  }
  if (settings_.jobs <= 0) settings_.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::string BuildService::toolchain_identity(Format format) {
  std::lock_guard lock(identity_mutex_);
  std::string& identity = format == Format::cuda ? nvcc_identity_ : gxx_identity_;
  if (identity.empty()) {
    std::vector<std::string> argv = format == Format::cuda ? std::vector<std::string>{nvcc_path(), "--version"}
                                                           : std::vector<std::string>{gxx_path(), "--version"};
    auto r = run_process(argv, std::min(settings_.timeout, std::chrono::seconds(30)), 4096);
    identity = r.exit_code == 0 ? r.output : "unavailable: " + first_line(r.output);
  }
  return identity;
}

std::vector<std::string> BuildService::command(const BuildRequest& request, const std::filesystem::path& source,
                                               const std::filesystem::path& output) const {
  std::string include = "-I" + interface_include_dir().string();
  if (request.format == Format::cuda) {
    std::vector<std::string> argv{nvcc_path(), "-std=c++17", "-O3", "-shared", "-Xcompiler", "-fPIC,-fvisibility=hidden",
                                  gencode(request.arch), "-Xptxas", "-v", "-lineinfo", include, source.string(),
                                  "-o", output.string()};
    if (request.source.find("cublas") != std::string::npos) argv.push_back("-lcublas");
    return argv;
  }
  return {gxx_path(), "-std=c++17", "-O3", "-shared", "-fPIC", "-fvisibility=hidden", include, source.string(),
          "-o", output.string()};
}

std::string BuildService::key_of(const BuildRequest& request) {
  nlohmann::json identity = {{"cache_layout", 3},  // 2: diagnostics stored with kNameToken; 3: compilers confined (native_build_readable)
                             {"format", to_string(request.format)},
                             {"source", sha256_hex(request.source)},
                             {"command", command(request, "SOURCE", "OUTPUT")},
                             {"toolchain", toolchain_identity(request.format)},
                             {"header", header_hash_},
                             {"arch", request.format == Format::cuda ? request.arch : ""}};
  return sha256_hex(identity.dump());
}

std::optional<BuildOutcome> BuildService::lookup(const std::string& key) {
  auto dir = settings_.cache_dir / "objects" / key;
  std::error_code ec;
  if (!std::filesystem::exists(dir / "meta.json", ec)) return std::nullopt;
  try {
    auto meta = nlohmann::json::parse(read_file(dir / "meta.json"));
    BuildOutcome out;
    out.ok = meta.at("ok").get<bool>();
    out.cached = true;
    out.key = key;
    out.diagnostics = meta.value("diagnostics", "");
    out.kernels = meta.value("kernels", nlohmann::json::array());
    out.seconds = meta.value("seconds", 0.0);
    out.extra = meta.value("extra", nlohmann::json::object());
    out.log = read_file(dir / "build.log");
    if (out.ok) {
      out.library = dir / "candidate.so";
      if (!std::filesystem::exists(out.library, ec)) return std::nullopt;  // damaged entry: rebuild
    }
    std::filesystem::last_write_time(dir / "meta.json", std::filesystem::file_time_type::clock::now(), ec);  // LRU
    return out;
  } catch (...) {
    return std::nullopt;  // a damaged entry is rebuilt, never trusted
  }
}

BuildOutcome BuildService::build(const BuildRequest& request) {
  BuildOutcome out = build_unnamed(request);
  out.diagnostics = with_name(out.diagnostics, request.display_name);
  return out;
}

BuildOutcome BuildService::build_unnamed(const BuildRequest& request) {
  std::string key = key_of(request);
  if (auto cached = lookup(key)) return *cached;
  if (auto problem = check_native_source(request.format, request.source)) {
    BuildOutcome out;  // not cached: a static check costs nothing
    out.key = key;
    out.diagnostics = request.display_name + ": " + *problem;
    out.log = out.diagnostics;
    return out;
  }
  return cached_build(key, request.display_name, to_string(request.format), [&](const std::filesystem::path& folder) {
    CompileResult r;
    auto source = folder / (request.format == Format::cuda ? "candidate.cu" : "candidate.cpp");
    write_file_atomically(source, request.source);
    auto p = Compilers(settings_, folder).run(command(request, source, folder / "candidate.so"), settings_.timeout);
    r.seconds = p.seconds;
    r.log = p.output;
    if (p.truncated) r.log += "\n[kforge: compiler output cut at 1 MiB]";
    r.kernels = to_json(parse_ptxas_resources(p.output));
    r.timed_out = p.timed_out;
    if (p.timed_out) {
      r.diagnostics = "the compiler did not finish within " + std::to_string(settings_.timeout.count()) + " s";
    } else if (p.exit_code != 0) {
      r.diagnostics = condense_diagnostics(p.output, source.string(), kNameToken);
      // The compilers' temporary files (an assembler's .s) by their name in the build's folder.
      for (size_t at; (at = r.diagnostics.find(folder.string() + "/")) != std::string::npos;)
        r.diagnostics.erase(at, folder.string().size() + 1);
      if (r.diagnostics.empty()) r.diagnostics = "the compiler exited with status " + std::to_string(p.exit_code);
    } else {
      r.ok = true;
    }
    return r;
  });
}

namespace {

// The line of a compiler's log that says the machine, not the source, failed the build: the disk
// refused a write, the compiler found no folder for its temporary files (its TMPDIR, a worker's
// scratch folder, removed under it when the worker was killed: a build that failed so was cached
// and every later evaluation of the candidate got its compile_error), or it was killed. Such a
// failure says nothing about the candidate, so it is never cached: the next build tries again.
struct MachineFailure {
  const char* what;  // as the log says it
  const char* said;  // as kforge says it
};
std::optional<std::string> machine_failure(const std::string& log) {
  static constexpr MachineFailure kFailures[] = {
      {"No space left on device", "the disk refused a write during the build"},
      {"File too large", "the disk refused a write during the build"},
      {"Disk quota exceeded", "the disk refused a write during the build"},
      {"Cannot create temporary file", "the compiler could not write its temporary files"},
      {"Killed signal terminated program", "the compiler was killed"},
  };
  for (const auto& [what, said] : kFailures) {
    size_t at = log.find(what);
    if (at == std::string::npos) continue;
    size_t begin = log.rfind('\n', at);
    begin = begin == std::string::npos ? 0 : begin + 1;
    return std::string(said) + " (" + log.substr(begin, log.find('\n', at) - begin) + ")";
  }
  return std::nullopt;
}

}  // namespace

BuildOutcome BuildService::cached_build(const std::string& key, const std::string& display_name,
                                        const std::string& format,
                                        const std::function<CompileResult(const std::filesystem::path&)>& compile) {
  BuildOutcome out;
  out.key = key;
  if (auto cached = lookup(key)) return *cached;

  std::error_code ec;
  auto tmp = settings_.cache_dir / "tmp" / (key + "." + unique_suffix());
  std::filesystem::create_directories(tmp, ec);
  if (ec) {
    out.diagnostics = "cannot create the build folder " + tmp.string() + ": " + ec.message();
    return out;
  }
  CompileResult result;
  try {
    result = compile(tmp);
  } catch (const std::exception& e) {  // e.g. the source could not be written: a full disk
    out.diagnostics = std::string("cannot prepare the build: ") + e.what();
    std::filesystem::remove_all(tmp, ec);
    return out;
  }
  out.ok = result.ok;
  out.seconds = result.seconds;
  out.log = result.log;
  out.diagnostics = result.diagnostics;
  out.kernels = result.kernels;
  out.extra = result.extra;
  std::optional<std::string> refusal = result.ok ? std::nullopt : machine_failure(result.log);
  if (refusal) out.diagnostics = *refusal + "; not cached, the next build tries again\n" + out.diagnostics;
  if (!result.timed_out && !refusal) {
    nlohmann::json meta = {{"ok", out.ok},         {"format", format},
                           {"diagnostics", out.diagnostics}, {"kernels", out.kernels},
                           {"seconds", out.seconds}, {"name", display_name}, {"extra", result.extra},
                           // [s since the epoch] when it was built, for a run's build timeline
                           // (bench/realworld_throughput.py); meta.json's mtime moves on every hit
                           {"finished_at", std::chrono::duration<double>(
                                               std::chrono::system_clock::now().time_since_epoch()).count()}};
    try {
      write_file_atomically(tmp / "build.log", out.log);
      write_file_atomically(tmp / "meta.json", meta.dump(2));  // written last: marks the entry complete
      auto final_dir = settings_.cache_dir / "objects" / key;
      std::filesystem::create_directories(final_dir.parent_path());
      std::filesystem::rename(tmp, final_dir, ec);  // atomic; fails if another process published first
      if (!ec) {
        if (out.ok) out.library = final_dir / "candidate.so";
        evict_if_needed();
        remove_abandoned_builds();
        return out;
      }
      if (auto theirs = lookup(key)) {
        std::filesystem::remove_all(tmp, ec);
        theirs->cached = false;
        theirs->seconds = out.seconds;
        return *theirs;
      }
    } catch (const std::exception& e) {  // a full disk: the build is lost, the cache is intact
      out.ok = false;
      out.diagnostics = std::string("cannot store the build: ") + e.what();
    }
  }
  std::filesystem::remove_all(tmp, ec);
  return out;
}

std::vector<BuildOutcome> BuildService::build_all(const std::vector<BuildRequest>& requests,
                                                  const std::function<void(size_t, const BuildOutcome&)>& on_built) {
  std::vector<BuildOutcome> outcomes(requests.size());
  parallel_for(requests.size(), settings_.jobs, [&](size_t i) {
    outcomes[i] = build(requests[i]);
    if (on_built) on_built(i, outcomes[i]);
  });
  return outcomes;
}

void BuildService::remove_abandoned_builds() {
  // Longer than any build is let run (a whole load_inline build's 900 s, the broker's 1800 s): a
  // folder this old belongs to no running build. A precompiled header's is 750 MB.
  constexpr auto kAbandoned = std::chrono::hours(2);
  const auto now = std::filesystem::file_time_type::clock::now();
  std::error_code ec;
  auto abandoned = [&](const std::filesystem::path& p) {
    auto written = std::filesystem::last_write_time(p, ec);
    return !ec && now - written > kAbandoned;
  };
  for (const auto& e : std::filesystem::directory_iterator(settings_.cache_dir / "tmp", ec))
    if (abandoned(e.path())) std::filesystem::remove_all(e.path(), ec);
  for (const auto& e : std::filesystem::directory_iterator(settings_.cache_dir / "pch", ec))
    if (e.path().filename().string().find(".tmp") != std::string::npos && abandoned(e.path()))
      std::filesystem::remove_all(e.path(), ec);
}

void BuildService::evict_if_needed() {
  auto objects = settings_.cache_dir / "objects";
  uint64_t total = folder_bytes(objects);
  if (total <= settings_.max_cache_bytes) return;
  struct Entry {
    std::filesystem::file_time_type used;
    std::filesystem::path dir;
  };
  std::vector<Entry> entries;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(objects, ec))
    entries.push_back({std::filesystem::last_write_time(e.path() / "meta.json", ec), e.path()});
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const auto& e : entries) {
    if (total <= settings_.max_cache_bytes * 9 / 10) break;
    uint64_t size = folder_bytes(e.dir);
    // Renamed away first, so a reader never sees half an entry.
    auto doomed = settings_.cache_dir / "tmp" / ("evict." + unique_suffix());
    std::filesystem::rename(e.dir, doomed, ec);
    if (!ec) {
      std::filesystem::remove_all(doomed, ec);
      total -= std::min(total, size);
    }
  }
}

}  // namespace kforge::build
