#include "planner/native_builds.hpp"

#include "common/errors.hpp"
#include "pool/devices.hpp"

namespace kforge {

std::string resolve_arch(const std::string& arch, bool needed) {
  if (arch != "auto") return arch;
  if (!needed) return "sm_90a";  // unused: no cuda candidate in the plan
  std::string why;
  std::string found = cuda_arch_of(0, &why);
  if (found.empty()) throw Error("--arch auto: " + why + "; give the target, e.g. --arch sm_90a");
  return found;
}

bool builds_natively(const PlannedEval& e) { return e.format != build::Format::kernelbench && e.load_failure.empty(); }

void build_native_candidates(std::vector<PlannedEval>& plan, const std::string& arch, Store* store, int jobs,
                             const std::function<void(size_t)>& on_built, std::mutex* store_mutex) {
  std::vector<size_t> index;
  std::vector<build::BuildRequest> requests;
  bool any_cuda = false;
  for (size_t i = 0; i < plan.size(); ++i) {
    const auto& e = plan[i];
    if (!builds_natively(e)) continue;
    any_cuda |= e.format == build::Format::cuda;
    index.push_back(i);
    requests.push_back({e.format, e.candidate.source, e.candidate_name, ""});
  }
  if (requests.empty()) return;
  std::string target = resolve_arch(arch, any_cuda);
  for (auto& r : requests) r.arch = target;
  auto settings = build::default_build_settings();
  settings.jobs = jobs;
  // The source is a candidate's: its compilers read only what compiling needs (no store, no home).
  settings.compile_readable = build::native_build_readable();
  build::BuildService service(settings);
  service.build_all(requests, [&](size_t k, const build::BuildOutcome& out) {
    // Its own plan entry only: the jobs of other entries may be running.
    PlannedEval& e = plan[index[k]];
    e.build_key = out.key;
    e.build_cached = out.cached;
    e.build_seconds = out.seconds;
    if (out.ok) e.library = out.library;
    else e.build_failure = out.diagnostics.empty() ? "the build failed" : out.diagnostics;
    if (store) {
      std::unique_lock<std::mutex> lock;
      if (store_mutex) lock = std::unique_lock(*store_mutex);
      store->put_build(out.key, build::to_string(e.format), e.candidate.hash, out.ok, out.seconds, out.diagnostics,
                       out.log, out.kernels.dump());
    }
    if (on_built) on_built(index[k]);
  });
}

}  // namespace kforge
