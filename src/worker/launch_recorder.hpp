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
  // Launched during the forward and still running on the GPU when a kernel kforge queued on the
  // caller's stream as forward returned had started: work on a stream the caller's stream does not
  // wait for, so a caller reading the outputs on its stream would race it.
  struct Unjoined {
    census::Launch launch;
    uint32_t stream = 0;  // CUPTI's stream id
  };
  std::vector<Unjoined> unjoined;
  bool sentinel_seen = false;  // whether that kernel of kforge's was recorded (unjoined is empty otherwise)
};

class StreamHold;  // worker/stream_hold.hpp

// A kernel's name as written in its source (the records carry the mangled C++ name).
std::string demangled(const std::string& kernel);

class LaunchRecorder {
 public:
  LaunchRecorder();
  ~LaunchRecorder();
  LaunchRecorder(const LaunchRecorder&) = delete;
  LaunchRecorder& operator=(const LaunchRecorder&) = delete;

  // Begin recording; the calling thread is the one about to call forward. With `hold`, the
  // current stream is held until forward_returned() has queued the sentinel, so the forward's
  // work on every stream starts together with it and a side stream's kernels cannot finish
  // unseen before the caller's stream ends (a forward that waits on the GPU meets the hold's
  // watchdog, as in timing).
  void start(StreamHold* hold = nullptr);
  // forward has returned: later launches by the calling thread are kforge's or the reference's.
  // Queues a one-element fill on the current stream (the sentinel): whatever the forward launched
  // that is still running when it starts is not ordered before the caller's stream.
  void forward_returned();
  // Synchronises the device, stops recording and returns what was recorded.
  RecordedForward stop();

 private:
  void release_hold();
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace kforge::worker
