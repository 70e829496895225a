#include "profile/ncu_runner.hpp"

#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "build/subprocess.hpp"
#include "common/untrusted_file.hpp"
#include "pool/worker_paths.hpp"
#include "pool/worker_process.hpp"

namespace kforge::profile {
namespace {

std::string tail_of(const std::string& text, size_t n) { return text.size() <= n ? text : "..." + text.substr(text.size() - n); }

}  // namespace

std::optional<std::filesystem::path> find_ncu() {
  std::error_code ec;
  if (const char* given = std::getenv("KFORGE_NCU"); given && *given) {
    if (::access(given, X_OK) == 0) return std::filesystem::canonical(given, ec);
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    const std::filesystem::path candidate = std::filesystem::path(dir) / "ncu";
    if (::access(candidate.c_str(), X_OK) == 0) {
      auto real = std::filesystem::canonical(candidate, ec);
      if (!ec) return real;
    }
  }
  return std::nullopt;
}

const NcuKernel* slowest_kernel(const std::vector<NcuKernel>& kernels) {
  const NcuKernel* best = nullptr;
  for (const auto& k : kernels)
    if (!best || k.duration_ms() > best->duration_ms()) best = &k;
  return best;
}

// [bytes] A raw page of one forward's kernels is kilobytes; a bound keeps a runaway log from memory.
constexpr int64_t kMostReportBytes = int64_t{64} << 20;

ProfileResult run_ncu_profile(const std::filesystem::path& ncu, const ProfileRequest& request) {
  ProfileResult result;
  const std::filesystem::path scratch = make_scratch();
  std::vector<std::string> env = sandboxed_environment(scratch);
  if (!request.visible_devices.empty())
    env.push_back("CUDA_VISIBLE_DEVICES=" + request.visible_devices);
  else if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"))
    env.push_back(std::string("CUDA_VISIBLE_DEVICES=") + visible);
  env.push_back(std::string("KFORGE_PROFILE_SANDBOX=") + (request.confined ? "1" : "0"));
  // ncu's injected library reads its own install folder while it profiles.
  env.push_back("KFORGE_PROFILE_READABLE=" + ncu.parent_path().string());
  const std::filesystem::path report = scratch / "ncu-report.csv";
  std::vector<std::string> argv = {ncu.string(), "--csv", "--page", "raw", "--nvtx", "--nvtx-include", "kforge_forward/",
                                   "--metrics", kNcuMetrics, "--log-file", report.string()};
  if (!request.kernel_regex.empty()) {
    argv.push_back("--kernel-name");
    argv.push_back("regex:" + request.kernel_regex);
  }
  for (const auto& a : {worker_python().string(), (worker_module_dir() / "kforge_profile.py").string(),
                        std::filesystem::absolute(request.problem).string(),
                        std::filesystem::absolute(request.candidate).string()})
    argv.push_back(a);
  build::ProcessResult run = build::run_process(argv, request.timeout, 1 << 20, scratch.string(), {}, &env);
  result.seconds = run.seconds;
  // The profiled candidate runs in this folder and may put a link in the report's place, to a file
  // it may not read: its tail would reach the error below, and in `kforge agent --profile` the model.
  std::string text = read_untrusted_file(report.string(), kMostReportBytes);
  result.kernels = parse_ncu_raw_csv(text);
  std::error_code ignored;
  std::filesystem::remove_all(scratch, ignored);
  // The program's last line says whether the candidate ran (python/kforge_profile.py).
  const bool ran = run.output.find("{\"ok\": true}") != std::string::npos;
  result.ok = ran && !result.kernels.empty() && !run.timed_out;
  if (!result.ok)
    result.error = run.timed_out ? "the profile did not finish in " + std::to_string(request.timeout.count()) + " s"
                   : !ran        ? "the candidate did not run under Nsight Compute (exit " + std::to_string(run.exit_code) +
                                       "): " + tail_of(run.output + "\n" + tail_of(text, 600), 1500)
                                 : "Nsight Compute profiled no kernel in the forward" +
                                       std::string(request.kernel_regex.empty() ? "" : " matching " + request.kernel_regex) +
                                       ": " + tail_of(text, 800);
  return result;
}

}  // namespace kforge::profile
