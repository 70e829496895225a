#pragma once
// Which kernels a candidate's forward launched, and whose they were (the PyTorch-fallback
// policy, REFERENCE.md section 5). The worker records every launch of one forward through CUPTI
// (worker/launch_recorder.hpp); this part, free of CUDA, decides where each launch came from and
// what the policy says about the whole.
//
// A launch's origin is the shared object that issued it: for a `<<<...>>>` launch the object
// holding the kernel's host stub, for a driver-API launch the first caller outside the CUDA
// driver and runtime. Kernels of PyTorch and of NVIDIA's libraries (cuBLAS, cuDNN, ...) are
// `library`; kernels torch.compile generated (Inductor's Triton kernels, recognised by their
// names) are `compiled`; everything else (a load_inline extension, a native candidate, the
// candidate's own Triton or NVRTC kernels) is `own`.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metrics/launch_shape.hpp"

namespace kforge::census {

enum class Origin { own, library, compiled };
const char* to_string(Origin o);

// `object_path`: the file of the shared object that issued the launch (empty when unknown);
// `kernel_name`: the kernel's (mangled or plain) name.
Origin classify(std::string_view object_path, std::string_view kernel_name);

// One kernel the candidate's forward launched, with its GPU time.
struct Launch {
  std::string kernel;
  std::string object;  // the issuing shared object's file name (no folder)
  Origin origin = Origin::own;
  double gpu_ms = 0;
  LaunchShape shape;  // where the recording gave it
};

// The own kernel (by name) that took the most GPU time over all its launches: where a kernel
// writer's next change pays most. Nothing when no own kernel ran.
struct Slowest {
  std::string kernel;
  double gpu_ms = 0;  // all its launches
  int launches = 0;
  LaunchShape shape;  // of its longest launch
};
std::optional<Slowest> slowest_own(const std::vector<Launch>& launches);

struct Summary {
  int own = 0, library = 0, compiled = 0;                  // launches
  double own_ms = 0, library_ms = 0, compiled_ms = 0;      // GPU time
  std::map<std::string, int> objects;  // launches per issuing object ("torch.compile" for Inductor's)
  int total() const { return own + library + compiled; }
  // The own kernels' share of the forward's GPU time (of launches when no time was recorded);
  // nothing when no kernel ran.
  std::optional<double> own_share() const;
};

Summary summarize(const std::vector<Launch>& launches);

// "kernels: 2 own, 1 library (ext.so: 2, libcublasLt.so.13: 1); own 64% of GPU time"
std::string describe(const Summary& s);

enum class FallbackPolicy { mixed, strict };
std::optional<FallbackPolicy> policy_from_string(std::string_view s);
const char* to_string(FallbackPolicy p);

// Under `strict` a forward that launched none of its own kernels is a fallback to PyTorch (or
// another library): the message says what it launched instead. Nothing under `mixed`.
std::optional<std::string> fallback_violation(FallbackPolicy policy, const Summary& s);

}  // namespace kforge::census
