#pragma once
// `kforge profile`: one candidate's forward under Nsight Compute (python/kforge_profile.py run by
// ncu), for advice, never a verdict. The program runs in the workers' environment (no
// credentials, a scratch folder of its own as TMPDIR and working directory) and, unless asked
// otherwise, inside the candidate sandbox with Nsight Compute's own folder readable.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "profile/ncu_report.hpp"

namespace kforge::profile {

struct ProfileRequest {
  std::filesystem::path problem, candidate;
  std::string kernel_regex;  // only kernels whose name matches (ncu --kernel-name regex:); empty: every kernel
  bool confined = true;      // the candidate sandbox around the candidate's code
  std::chrono::seconds timeout{600};
  std::string visible_devices;  // CUDA_VISIBLE_DEVICES for the program (empty: kforge's own, if set)
};

struct ProfileResult {
  bool ok = false;
  std::string error;                // why nothing was profiled, with the end of the program's output
  std::vector<NcuKernel> kernels;   // in launch order
  double seconds = 0;               // the whole profile: ncu's start, the build (if not cached), the replays
};

// KFORGE_NCU, else `ncu` on PATH, resolved through links; nothing when neither is there.
std::optional<std::filesystem::path> find_ncu();

ProfileResult run_ncu_profile(const std::filesystem::path& ncu, const ProfileRequest& request);

// The slowest kernel, by ncu's own duration; nothing without kernels.
const NcuKernel* slowest_kernel(const std::vector<NcuKernel>& kernels);

}  // namespace kforge::profile
