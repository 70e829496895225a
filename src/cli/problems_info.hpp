#pragma once
// kforge problems info: what each problem computes (FLOPs, bytes, parameters, outputs), derived
// once per torch version and precision by python/kforge_metadata.py and kept in the store.
#include <string>
#include <vector>

#include "cli/commands.hpp"

namespace kforge::cli {

struct ProblemsInfoOptions {
  std::string suite;
  std::vector<std::string> problems;  // ids or files; none: the whole suite
  bool json = false;
  bool refresh = false;  // derive again even when the store has it
  bool sol = false;      // also the speed-of-light time on the device (its peak rates measured once)
  std::string device = "auto";  // for --sol: auto | cpu | cuda
};

int run_problems_info(const ProblemsInfoOptions& o, const GlobalOptions& global);

}  // namespace kforge::cli
