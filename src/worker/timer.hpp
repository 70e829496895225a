#pragma once
// Times one forward call. On CUDA a sample is: L2 flushed (outside the window), device idle,
// CUDA events around the call on the current stream, and a host clock from before the call to
// after a device-wide synchronize (so work on any stream is inside it). On the CPU both figures
// are the host clock.
#include <ATen/ATen.h>

#include <functional>
#include <memory>
#include <string>

namespace kforge::worker {

struct Sample {
  double event_ms = 0;     // [ms]
  double host_ms = 0;      // [ms]
  unsigned sm_mhz = 0;     // the SM clock right after the call (NVML); 0 when not sampled
  bool throttled = false;  // NVML reported a thermal, hardware-slowdown or power-brake reason
};

class Timer {
 public:
  virtual ~Timer() = default;
  virtual Sample time(const std::function<void()>& call) = 0;
};

// A CUDA timer flushes an L2-sized-twice buffer before every sample (nvbench flushes L2's size;
// twice covers a cache that is not strictly LRU). Throws when built without CUDA support.
// `clock` (may be null or unavailable) is read after every sample.
class GpuClockMonitor;
std::unique_ptr<Timer> make_cuda_timer(int64_t l2_bytes, const GpuClockMonitor* clock);
std::unique_ptr<Timer> make_cpu_timer();

}  // namespace kforge::worker

namespace kforge::worker {
// Waits for all work on the device (CUDA: every stream); surfaces asynchronous CUDA errors as
// exceptions. No-op on the CPU.
void synchronize_device(bool cuda);

// The GPU's device-to-device copy rate in bytes (read + written) per second, measured once when
// the worker starts (a few ms); 0 without CUDA. The memory speed-of-light floor is based on it.
double measure_copy_rate();

// The CUDA device's PCI bus id as NVML takes it ("0000:1b:00.0"); empty without CUDA.
std::string cuda_pci_bus_id();
}  // namespace kforge::worker
