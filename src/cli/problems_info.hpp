#pragma once
// kforge problems info: what each problem computes (FLOPs, bytes, parameters, outputs), derived
// once per torch version and precision by python/kforge_metadata.py and kept in the store.
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "metrics/speed_of_light.hpp"
#include "store/store.hpp"

namespace kforge::cli {

struct ProblemsInfoOptions {
  std::string suite;
  std::vector<std::string> problems;  // ids or files; none: the whole suite
  bool json = false;
  bool refresh = false;  // derive again even when the store has it
  bool sol = false;      // also the speed-of-light time on the device (its peak rates measured once)
  std::string device = "auto";  // for --sol: auto | cpu | cuda
};

// A problem's speed-of-light time on a device with these peak rates, at its precision's matmul
// rate; an fp32 problem's convolutions at the TF32 rate (cuDNN may use TF32 by PyTorch's default).
// Nothing when a figure or a rate is missing. `problems info --sol` and `report --html` show it.
std::optional<stats::SpeedOfLight> problem_speed_of_light(const ProblemMetadata& m, const DevicePeaks& peaks);

int run_problems_info(const ProblemsInfoOptions& o, const GlobalOptions& global);

}  // namespace kforge::cli
