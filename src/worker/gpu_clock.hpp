#pragma once
// The GPU's SM clock and its slowdown reasons, read through NVML after every timed call, so a
// sample taken while the GPU throttled (heat, a hardware slowdown, a power brake) is dropped
// rather than counted. NVML is loaded at run time (libnvidia-ml.so.1, part of the driver); where
// it is missing the monitor says so and samples are kept.
#include <cstdint>
#include <optional>
#include <string>

namespace kforge::worker {

struct ClockReading {
  unsigned sm_mhz = 0;
  uint64_t reasons = 0;   // NVML's clocks-event reason bits
  bool throttled = false;  // a thermal, hardware-slowdown or power-brake reason is active
};

class GpuClockMonitor {
 public:
  // For the GPU at this PCI bus id ("0000:1b:00.0"), as CUDA names it.
  explicit GpuClockMonitor(const std::string& pci_bus_id);
  bool available() const { return device_ != nullptr; }
  const std::string& status() const { return status_; }  // why not available
  std::optional<ClockReading> read() const;
  // The SM clock's maximum (nvmlDeviceGetMaxClockInfo), read once; nothing without NVML.
  std::optional<unsigned> max_sm_mhz() const { return max_sm_mhz_; }

 private:
  using GetClock = int (*)(void*, int, unsigned*);
  using GetReasons = int (*)(void*, unsigned long long*);
  void* device_ = nullptr;
  GetClock get_clock_ = nullptr;
  GetReasons get_reasons_ = nullptr;
  std::string status_;
  std::optional<unsigned> max_sm_mhz_;
};

// Throttle reasons that slow the SM clock below what the workload would get: software and
// hardware thermal slowdown, hardware slowdown, hardware power brake. (The software power cap
// and idle are normal operating states and do not drop a sample.)
constexpr uint64_t kThrottleReasons = 0x8 | 0x20 | 0x40 | 0x80;

}  // namespace kforge::worker
