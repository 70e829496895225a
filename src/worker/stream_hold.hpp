#pragma once
// Holds a CUDA stream while a forward is queued on it, nvbench's remedy for launch latency in
// event timings: without it the start event fires as soon as it is queued and the event pair also
// spans the host's time to issue the first kernel (20-46 us on the H200, docs/benchmarks.md
// session 5). The stream is made to wait (cuStreamWaitValue32) on a flag in pinned host memory;
// the host sets the flag once the whole forward is queued, so the GPU then runs it back to back.
//
// A forward that synchronises (reads a value back, calls torch.cuda.synchronize) would wait on a
// stream that cannot move until the forward returns: a watchdog thread releases the stream after
// `watchdog` and the sample says so, and the caller times such a forward without the hold.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace kforge::worker {

class StreamHold {
 public:
  // A working hold on the current CUDA device, or null with the reason in `why_not` (no driver
  // entry point, no mapped host memory, or the self-test saw the stream run while held).
  static std::unique_ptr<StreamHold> create(std::chrono::milliseconds watchdog, std::string* why_not);
  ~StreamHold();
  StreamHold(const StreamHold&) = delete;
  StreamHold& operator=(const StreamHold&) = delete;

  // Queues the wait on `stream` (a cudaStream_t) and arms the watchdog.
  void hold(void* stream);
  // Lets the stream run. False when the watchdog had already released it (the forward waited on
  // the GPU while it was held).
  bool release();

 private:
  StreamHold() = default;
  void watch();
  void set_flag(uint32_t value);

  using WaitValue32 = int (*)(void* stream, unsigned long long address, uint32_t value, unsigned flags);
  WaitValue32 wait_value_ = nullptr;
  volatile uint32_t* host_flag_ = nullptr;  // pinned, mapped; the GPU polls it
  unsigned long long device_flag_ = 0;      // the same word as the GPU addresses it
  uint32_t generation_ = 0;                 // the hold in progress waits for flag >= generation_

  std::chrono::milliseconds watchdog_{1000};
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool armed_ = false, fired_ = false, stopping_ = false;
  std::chrono::steady_clock::time_point deadline_;
};

}  // namespace kforge::worker
