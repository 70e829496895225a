#pragma once
// Nsight Compute in the agent's loop (issue 20): where it pays, the slowest own kernel of a
// problem's new best attempt is profiled (profile/ncu_runner.hpp) and its digest joins the
// attempt's feedback, which the attempts refined from it read. The profile runs on a GPU leased
// from the agent's warm workers, like an evaluation, so its replays never run beside a timing.
#include <chrono>
#include <filesystem>
#include <string>

namespace kforge::agent {

struct KernelProfile {
  bool ok = false;
  std::string lines;   // for the digest: ncu_digest's lines on the kernel profiled
  std::string error;   // why nothing was profiled
  double seconds = 0;  // the lease's wait excluded: Nsight Compute's start, the build if not cached, the replays
};

// The slowest own kernel's function name as the digest states it ("slowest own kernel NAME: ..."),
// without its scope, template and parameter lists ("add_relu_kernel"); empty when none is stated.
std::string slowest_own_kernel_function(const std::string& digest);

// Profiles `candidate` on one forward of `problem` under `ncu`, on a worker leased from the
// `kforge serve` at `server` (its GPU made the only visible one), its kernels filtered to the
// digest's slowest own kernel where the digest names one (every kernel again if none matched);
// `confined`: inside the candidate sandbox (profile/ncu_runner.hpp).
KernelProfile profile_slowest_kernel(const std::filesystem::path& server, const std::filesystem::path& ncu,
                                     const std::filesystem::path& problem, const std::filesystem::path& candidate,
                                     const std::string& digest, bool confined, std::chrono::seconds timeout);

}  // namespace kforge::agent
