#pragma once
// Records the kernels launched during one candidate forward, through CUPTI: a callback on every
// kernel and graph launch notes which shared object issued it and from which thread, and the
// activity API gives each kernel's GPU time. metrics/kernel_census.hpp judges the result.
//
// CUPTI is found at run time in the copy torch already loaded (libcupti.so.<major>), so there is
// one CUPTI in the process; where it is missing, or another subscriber holds it (a candidate
// running torch.profiler), the recorder says so and records nothing. It is switched on for one
// forward only (the first correctness trial): never while timing.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "metrics/kernel_census.hpp"

namespace kforge::worker {

struct RecordedForward {
  bool recorded = false;
  std::string unavailable;             // why nothing was recorded
  std::vector<census::Launch> during;  // launched between the call and its return (any thread)
  // Launched after forward returned by another thread than the one that called it: work a
  // thread the candidate left running does behind the caller's back.
  std::vector<census::Launch> late_from_other_threads;
  // Launched during the forward on a stream its caller's stream is not ordered after when it
  // returns, and that no host synchronisation covered (metrics/stream_order.hpp): a caller
  // reading the outputs on its stream would race them.
  struct Unjoined {
    census::Launch launch;
    uint32_t stream = 0;  // CUPTI's stream id
  };
  std::vector<Unjoined> unjoined;
  census::SmLimits sm;  // the device's SM, for the launches' occupancy
  std::string order_unavailable;  // why the stream order was not judged (unjoined is then empty)
};

// A kernel's name as written in its source (the records carry the mangled C++ name).
std::string demangled(const std::string& kernel);

class LaunchRecorder {
 public:
  LaunchRecorder();
  ~LaunchRecorder();
  LaunchRecorder(const LaunchRecorder&) = delete;
  LaunchRecorder& operator=(const LaunchRecorder&) = delete;

  // Begin recording; the calling thread is the one about to call forward.
  void start();
  // forward has returned: later launches by the calling thread are kforge's or the reference's,
  // and the caller's current stream is the one its outputs must be ordered before.
  void forward_returned();
  // Synchronises the device, stops recording and returns what was recorded.
  RecordedForward stop();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace kforge::worker
