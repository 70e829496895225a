#pragma once
// Upstream KernelBench's baseline timing files (results/timing/<hardware>/baseline_time_torch.json
// and friends): their names for kforge's baseline modes, and reading one, so speedups can be taken
// against the timings upstream publishes.
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace kforge::report {

// Upstream's file name for a kforge baseline mode: eager -> baseline_time_torch.json, compile ->
// baseline_time_torch_compile_inductor_default.json, max-autotune ->
// baseline_time_torch_compile_inductor_max-autotune-no-cudagraphs.json. Empty for another mode.
std::string upstream_baseline_file(const std::string& mode);

struct UpstreamBaselines {
  // "level1/19_ReLU" (the level and the problem file's name without .py) -> the mean time [ms].
  std::map<std::string, double> mean_ms;
  std::string hardware;  // the files' "hardware" field where they agree (empty if absent or mixed)
};

// {"level1": {"19_ReLU.py": {"mean": ms, "std", "min", "max", "num_trials", "hardware", "device"}}}.
// Throws kforge::Error saying what is wrong with a file that is not of that shape.
UpstreamBaselines read_upstream_baselines(const std::filesystem::path& file);

}  // namespace kforge::report
