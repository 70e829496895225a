// kforge profile --problem P CANDIDATE: one forward of the candidate under Nsight Compute, and a
// digest of its slowest kernel (or of the kernels a --kernel regex names): roofline class,
// throughputs, occupancy, stall reasons, spills, tensor cores. Advice for a kernel writer, never
// part of a verdict; nothing is stored.
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "planner/inline_prebuild.hpp"
#include "planner/native_builds.hpp"
#include "profile/ncu_runner.hpp"
#include "suite/problem.hpp"

namespace kforge::cli {
namespace {

struct ProfileOptions {
  std::string problem, candidate, suite, kernel;
  bool all = false, json = false, unconfined = false;
  int timeout_s = 600;
};

int run_profile(const ProfileOptions& o) {
  SuiteLoad builtin = load_suite(o.suite.empty() ? builtin_suite_dir() : std::filesystem::path(o.suite));
  Problem problem = resolve_problem(o.problem, builtin);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(o.candidate, ec)) throw UsageError("no such candidate file: " + o.candidate);
  if (o.candidate.ends_with(".cu") || o.candidate.ends_with(".cpp"))
    throw UsageError(o.candidate + ": kforge profile takes KernelBench candidates (a .py with ModelNew), not native ones");
  auto ncu = profile::find_ncu();
  if (!ncu)
    throw UsageError("Nsight Compute's ncu is not on PATH (or KFORGE_NCU names no program): kforge profile runs the "
                     "candidate under it");
  if (o.unconfined)
    std::cerr << "kforge: --unconfined: the candidate's code runs with your user's file access (its environment still "
                 "holds no credentials)\n";
  // Its load_inline extensions built first, by kforge: the profiled process runs the candidate's
  // code and only reads the build cache (docs/notes/build-cache-trust.md).
  if (builds_with_load_inline(read_file(o.candidate))) {
    prebuild_load_inline({o.candidate}, resolve_arch("auto", true), 1, std::chrono::seconds(o.timeout_s));
  }
  profile::ProfileRequest request{problem.path, o.candidate, o.kernel, !o.unconfined, std::chrono::seconds(o.timeout_s), ""};
  profile::ProfileResult r = profile::run_ncu_profile(*ncu, request);
  if (!r.ok) {
    std::cerr << "kforge: profile failed after " << fmt::format("{:.1f}", r.seconds) << " s: " << r.error << "\n";
    if (!o.unconfined)
      std::cerr << "kforge: (if Nsight Compute cannot profile inside the candidate sandbox on this machine, "
                   "--unconfined runs it without)\n";
    return 1;
  }
  std::vector<const profile::NcuKernel*> shown;
  if (o.all)
    for (const auto& k : r.kernels) shown.push_back(&k);
  else
    shown.push_back(profile::slowest_kernel(r.kernels));
  if (o.json) {
    for (const auto* k : shown)
      std::cout << nlohmann::json{{"kernel", k->name}, {"ms", k->duration_ms()}, {"class", profile::roofline_class(*k)},
                                  {"metrics", k->metrics}, {"digest", profile::ncu_digest(*k)}, {"profile_s", r.seconds}}
                       .dump()
                << "\n";
    return 0;
  }
  std::cout << fmt::format("{} kernel(s) profiled in {:.1f} s (Nsight Compute, one forward; {})\n", r.kernels.size(),
                           r.seconds, o.all ? "all of them" : "the slowest");
  for (const auto* k : shown) std::cout << profile::ncu_digest(*k);
  return 0;
}

}  // namespace

Runner add_profile_command(CLI::App& app, const GlobalOptions&) {
  auto o = std::make_shared<ProfileOptions>();
  auto* cmd = app.add_subcommand("profile", "One forward of a candidate under Nsight Compute: a digest of its slowest "
                                            "kernel (advice, never a verdict; nothing stored)");
  cmd->add_option("candidate", o->candidate, "The candidate: a KernelBench .py defining ModelNew")->required();
  cmd->add_option("--problem", o->problem, "Its problem: a built-in id (level1/19) or a file")->required();
  cmd->add_option("--suite", o->suite, "Folder of problems the id is looked up in [default: the built-in suite]");
  cmd->add_option("--kernel", o->kernel, "Profile only kernels whose name matches this regex (ncu --kernel-name regex:)");
  cmd->add_flag("--all", o->all, "A digest of every profiled kernel, not only the slowest");
  cmd->add_flag("--json", o->json, "One JSON object per kernel shown: its metrics, class and digest");
  cmd->add_flag("--unconfined", o->unconfined,
                "Run the candidate without the candidate sandbox (where ncu cannot profile inside it); the "
                "environment still holds no credentials");
  cmd->add_option("--timeout", o->timeout_s, "Seconds the whole profile may take [default: 600]")->check(CLI::Range(1, 86400));
  return [o] { return run_profile(*o); };
}

}  // namespace kforge::cli
