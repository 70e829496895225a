#include "worker/gpu_clock.hpp"

#include <dlfcn.h>

namespace kforge::worker {
namespace {
constexpr int kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;
}  // namespace

GpuClockMonitor::GpuClockMonitor(const std::string& pci_bus_id) {
  // The handle stays open for the worker's life: NVML is shut down at exit by the driver.
  void* lib = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    status_ = "NVML (libnvidia-ml.so.1) not found";
    return;
  }
  auto init = reinterpret_cast<int (*)()>(::dlsym(lib, "nvmlInit_v2"));
  auto by_bus = reinterpret_cast<int (*)(const char*, void**)>(::dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
  get_clock_ = reinterpret_cast<GetClock>(::dlsym(lib, "nvmlDeviceGetClockInfo"));
  get_reasons_ = reinterpret_cast<GetReasons>(::dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons"));
  if (!get_reasons_) get_reasons_ = reinterpret_cast<GetReasons>(::dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons"));
  if (!init || !by_bus || !get_clock_ || !get_reasons_) {
    status_ = "NVML lacks the clock functions kforge uses";
    return;
  }
  if (int rc = init(); rc != kNvmlSuccess) {
    status_ = "nvmlInit failed (" + std::to_string(rc) + ")";
    return;
  }
  void* device = nullptr;
  if (int rc = by_bus(pci_bus_id.c_str(), &device); rc != kNvmlSuccess) {
    status_ = "NVML does not know the GPU at " + pci_bus_id + " (" + std::to_string(rc) + ")";
    return;
  }
  device_ = device;
  unsigned mhz = 0;
  auto max_clock = reinterpret_cast<GetClock>(::dlsym(lib, "nvmlDeviceGetMaxClockInfo"));
  if (max_clock && max_clock(device_, kNvmlClockSm, &mhz) == kNvmlSuccess && mhz > 0) max_sm_mhz_ = mhz;
}

std::optional<ClockReading> GpuClockMonitor::read() const {
  if (!device_) return std::nullopt;
  ClockReading r;
  unsigned long long reasons = 0;
  if (get_clock_(device_, kNvmlClockSm, &r.sm_mhz) != kNvmlSuccess) return std::nullopt;
  if (get_reasons_(device_, &reasons) != kNvmlSuccess) return std::nullopt;
  r.reasons = reasons;
  r.throttled = (reasons & kThrottleReasons) != 0;
  return r;
}

}  // namespace kforge::worker
