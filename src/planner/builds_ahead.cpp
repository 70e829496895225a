#include "planner/builds_ahead.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <thread>

#include "planner/inline_prebuild.hpp"
#include "planner/native_builds.hpp"

namespace kforge {
namespace {

// The build processes: every core but two per worker, which time (worker/cpu_pin.hpp).
int build_jobs(size_t workers) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, cores - 2 * static_cast<int>(workers));
}

// Imports each load_inline candidate of `plan` in a build process of its own (a build that fails
// here fails again in the worker, which judges it); `ready(i)` once plan[i]'s is done.
void prebuild_kernelbench_extensions(const std::vector<PlannedEval>& plan, const std::string& arch, size_t workers,
                                     bool announce, const std::function<void(size_t)>& ready) {
  std::vector<std::string> files;
  std::vector<size_t> index;
  for (size_t i = 0; i < plan.size(); ++i)
    if (builds_load_inline(plan[i])) {
      files.push_back(plan[i].candidate.path.string());
      index.push_back(i);
    }
  if (announce)
    std::cerr << "kforge: building " << files.size() << " load_inline extension(s), " << build_jobs(workers)
              << " at a time; each candidate is evaluated once its own is built\n";
  prebuild_load_inline(files, arch, build_jobs(workers), std::chrono::seconds(600),
                       [&](size_t k) { ready(index[k]); });
}

}  // namespace

bool builds_load_inline(const PlannedEval& e) {
  return e.format == build::Format::kernelbench && e.load_failure.empty() && builds_with_load_inline(e.candidate.source);
}

Prepare builds_ahead(std::vector<PlannedEval>& plan, const std::string& arch, bool cuda, size_t workers, Store& store,
                     const BuildsAheadOptions& options) {
  const size_t inline_builds = static_cast<size_t>(std::count_if(plan.begin(), plan.end(), builds_load_inline));
  const bool inline_ahead = cuda && inline_builds > (options.inline_even_when_few ? 0 : workers);
  const bool announce = options.announce;
  Prepare prepare;
  prepare.waits = [inline_ahead](const PlannedEval& e) {
    return builds_natively(e) || (inline_ahead && builds_load_inline(e));
  };
  prepare.run = [&plan, &store, arch, workers, announce, inline_ahead](const std::function<void(size_t)>& ready,
                                                                        std::mutex& store_mutex) {
    const size_t natives = static_cast<size_t>(std::count_if(plan.begin(), plan.end(), builds_natively));
    if (natives) {
      build_native_candidates(plan, arch, &store, 0, ready, &store_mutex);
      size_t cached = 0, failed = 0;
      for (const auto& e : plan) {
        cached += e.build_cached;
        failed += e.build_failure.has_value();
      }
      if (announce)
        std::cerr << "kforge: native builds: " << natives - cached << " compiled now, " << cached
                  << " from the cache; " << failed << " failed\n";
    }
    if (inline_ahead) prebuild_kernelbench_extensions(plan, arch, workers, announce, ready);
  };
  return prepare;
}

}  // namespace kforge
