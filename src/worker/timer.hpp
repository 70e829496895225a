#pragma once
// Times one forward call. On CUDA a sample is: L2 flushed (outside the window), device idle,
// the current stream held (worker/stream_hold.hpp) while the forward is queued between two CUDA
// events, then released, and a host clock to after a device-wide synchronize (so work on any
// stream is inside it). On the CPU both figures are the host clock.
#include <ATen/ATen.h>

#include <functional>
#include <memory>
#include <string>

namespace kforge::worker {

// With the stream held, the GPU runs the forward only once the host has queued all of it, so the
// events see the GPU's work alone; a forward that takes longer to queue than to run is bound by
// the host, and then its host time is its cost. Hence, held:
//   event_ms = max(events, queued_ms)   host_ms = max(release to synchronized, queued_ms)
// and not held: event_ms = events, host_ms = call to synchronized. Either way host_ms - event_ms
// is a few microseconds of overhead plus whatever ran on another stream past the current one's end.
struct Sample {
  double event_ms = 0;     // [ms]
  double host_ms = 0;      // [ms]
  double queued_ms = 0;    // [ms] the host's time inside the forward call
  bool held = false;       // the stream was held while the forward was queued
  bool watchdog = false;   // held, but the forward waited on the GPU: the watchdog let it go
  unsigned sm_mhz = 0;     // the SM clock right after the call (NVML); 0 when not sampled
  bool throttled = false;  // NVML reported a thermal, hardware-slowdown or power-brake reason
  // A candidate's call (worker/remote_candidate.hpp): the reference process's own clock around
  // the request, less what an empty request costs [ms]; 0 for the reference's calls.
  double bound_ms = 0;
  // A call through a process (the candidate's, the reference twin's): the request's time on the
  // reference process's clock less the host time the process reported (and, held, its queueing):
  // what delivering the request took, by the process's own word [ms]; negative: not measured.
  double delivery_ms = -1;
  // Which of the reference's timing processes made the call (worker/reference_twin.hpp): 0 or 1.
  int process = 0;
};

class Timer {
 public:
  virtual ~Timer() = default;
  // `hold`: hold the stream while `call` queues its work (ignored where holding is unavailable).
  virtual Sample time(const std::function<void()>& call, bool hold) = 0;
  // Whether this timer can hold the stream; `why_not` says why it cannot.
  virtual bool can_hold() const { return false; }
  virtual std::string why_not_held() const { return "timed on the CPU"; }
};

// A CUDA timer flushes an L2-sized-twice buffer before every sample (nvbench flushes L2's size;
// twice covers a cache that is not strictly LRU). Throws when built without CUDA support.
// `clock` (may be null or unavailable) is read after every sample. `hold` (may be null, then
// `why_not_held` says why) holds the stream while a forward is queued.
class GpuClockMonitor;
class StreamHold;
std::unique_ptr<Timer> make_cuda_timer(int64_t l2_bytes, const GpuClockMonitor* clock, StreamHold* hold,
                                       const std::string& why_not_held);
std::unique_ptr<Timer> make_cpu_timer();

}  // namespace kforge::worker

namespace kforge::worker {
// Waits for all work on the device (CUDA: every stream); surfaces asynchronous CUDA errors as
// exceptions. No-op on the CPU.
void synchronize_device(bool cuda);

// Whether this process's CUDA context still works after an error: an illegal address or a
// device-side assert poisons it for good, and only a new process recovers.
bool cuda_context_alive();

// The GPU's device-to-device copy rate in bytes (read + written) per second, measured once when
// the worker starts (a few ms); 0 without CUDA. The memory speed-of-light floor is based on it.
double measure_copy_rate();

// The CUDA device's PCI bus id as NVML takes it ("0000:1b:00.0"); empty without CUDA.
std::string cuda_pci_bus_id();
}  // namespace kforge::worker
