// kforge build DIR: builds every candidate of a run ahead of time, on a machine without a GPU if
// need be (compile only), so GPU time is spent on running. Native candidates go through the build
// cache; KernelBench candidates that build with load_inline are imported once, in parallel, which
// builds them into the same cache (python/kforge_inline.py).
#include <iostream>

#include <fmt/format.h>

#include "build/build_service.hpp"
#include "build/subprocess.hpp"
#include "cli/commands.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "planner/inline_prebuild.hpp"
#include "planner/native_builds.hpp"
#include "report/formatting.hpp"
#include "suite/candidate.hpp"

namespace kforge::cli {
namespace {

struct BuildOptions {
  std::string dir;
  std::string arch = "auto";
  int jobs = 0;
  int timeout_s = 600;
  bool json = false;
};

int run_build(const BuildOptions& o) {
  std::filesystem::path dir = o.dir;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) throw UsageError("no such folder: " + o.dir);
  Discovery found = discover_candidates(dir);
  // As `kforge eval DIR` says it: a file outside the layout is named, never silently passed over.
  for (const auto& u : found.unmatched)
    std::cerr << "kforge: note: " << u << " matches no problem layout (" << kCandidateLayouts << "); skipped\n";
  if (found.candidates.empty())
    std::cerr << "kforge: note: no candidate under " << o.dir << " to build (a candidate sits in "
              << "level<L>/<id>_<Name>/, as `kforge eval DIR` takes it)\n";
  std::vector<PlannedEval> natives;
  std::vector<std::string> inline_builds;
  for (const auto& f : found.candidates) {
    Candidate c = load_candidate_file(f.path, f.relative);
    auto format = build::format_of(f.path).value_or(build::Format::kernelbench);
    if (format == build::Format::kernelbench) {
      if (builds_with_load_inline(c.source)) inline_builds.push_back(f.path.string());
      continue;
    }
    PlannedEval e;
    e.candidate = std::move(c);
    e.candidate_name = f.relative;
    e.format = format;
    natives.push_back(std::move(e));
  }

  bool needs_arch = !inline_builds.empty();
  for (const auto& e : natives) needs_arch |= e.format == build::Format::cuda;
  std::string arch = resolve_arch(o.arch, needs_arch);

  struct Row {
    std::string name, format, status, seconds, detail;
  };
  std::vector<Row> rows;
  auto t0 = std::chrono::steady_clock::now();
  build_native_candidates(natives, arch, nullptr, o.jobs);
  for (const auto& e : natives)
    rows.push_back({e.candidate_name, build::to_string(e.format),
                    e.build_failure ? "compile_error" : e.build_cached ? "cached" : "built",
                    e.build_cached ? "-" : fmt::format("{:.1f}", e.build_seconds),
                    e.build_failure ? *e.build_failure : e.library.string()});

  // load_inline candidates: one import per candidate, as many at once as there are jobs.
  auto results = prebuild_load_inline(inline_builds, arch, o.jobs, std::chrono::seconds(o.timeout_s));
  for (size_t i = 0; i < inline_builds.size(); ++i) {
    const auto& r = results[i];
    std::string name = std::filesystem::relative(inline_builds[i], dir).string();
    bool ok = r.exit_code == 0 && !r.timed_out;
    auto reports = inline_build_reports(r);
    bool all_cached = !reports.empty();
    double build_seconds = 0;
    std::string detail;
    for (const auto& rep : reports) {
      all_cached = all_cached && rep.value("cached", false);
      build_seconds += rep.value("cached", false) ? 0.0 : rep.value("seconds", 0.0);
      std::string strategy = rep.value("strategy", "");
      detail += (detail.empty() ? "" : "; ") + rep.value("name", std::string("?")) + ": " +
                (strategy.empty() ? "failed" : strategy);
      if (!rep.value("why_whole", std::string()).empty()) detail += " (" + rep.value("why_whole", std::string()) + ")";
    }
    if (!ok) {
      detail = r.timed_out ? "did not finish in time" : r.output;
      if (detail.size() > 300) detail = "..." + detail.substr(detail.size() - 300);
      for (const auto& rep : reports)  // a failed build's condensed diagnostics say more than a traceback
        if (!rep.value("ok", true) && !rep.value("diagnostics", std::string()).empty()) detail = rep["diagnostics"];
    }
    std::string status = !ok ? (reports.empty() ? "failed" : "compile_error") : all_cached ? "cached" : "built";
    // Built: the builds' time. Failed: the import's and whatever its builds took (a build that
    // timed out counts its whole limit), not the import's alone.
    const double seconds = ok && !reports.empty() ? build_seconds : r.seconds + build_seconds;
    rows.push_back({name, "kernelbench", status, fmt::format("{:.1f}", seconds), detail});
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  if (o.json) {
    for (const auto& r : rows)
      std::cout << nlohmann::json{{"candidate", r.name}, {"format", r.format}, {"status", r.status},
                                  {"seconds", r.seconds}, {"detail", r.detail}}.dump()
                << '\n';
  } else {
    for (const auto& r : rows)
      std::cout << fmt::format("{:<14} {:<12} {:>6}  {:<50} {}\n", r.status, r.format, r.seconds, r.name,
                               report::one_line(r.detail, 100));
    std::cout << fmt::format("{} candidates ({} native, {} load_inline) for {} in {:.1f} s\n", rows.size(),
                             natives.size(), inline_builds.size(), arch, wall);
  }
  return 0;
}

}  // namespace

Runner add_build_command(CLI::App& app, const GlobalOptions&) {
  auto o = std::make_shared<BuildOptions>();
  auto* cmd = app.add_subcommand("build", "Build every candidate of a folder ahead of time (no GPU needed)");
  cmd->add_option("dir", o->dir, "Folder of candidates, in the layout `kforge eval DIR` takes")->required();
  cmd->add_option("--arch", o->arch, "nvcc target: auto (the GPU's) or e.g. sm_90a (needed without a GPU)");
  cmd->add_option("--jobs,-j", o->jobs, "Compiles at once [default: 0, one per core]")->check(CLI::Range(0, 1024));
  cmd->add_option("--timeout", o->timeout_s, "Seconds one load_inline candidate's import may take, and each build it asks for")->check(CLI::Range(1, 86400));
  cmd->add_flag("--json", o->json, "One JSON object per candidate per line");
  return [o] { return run_build(*o); };
}

}  // namespace kforge::cli
