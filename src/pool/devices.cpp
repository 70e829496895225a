#include "pool/devices.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>

namespace kforge {

namespace {

// The driver lists each GPU under /proc/driver/nvidia/gpus: reading it costs nothing, while cuInit
// in kforge's own process costs a second on a large GPU and is only needed where /proc lacks it.
std::optional<int> count_from_proc() {
  std::error_code ec;
  std::filesystem::path dir = "/proc/driver/nvidia/gpus";
  if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
  int n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) n += entry.is_directory() ? 1 : 0;
  return n;
}

// The parent's CUDA_VISIBLE_DEVICES as a list of ids; empty when it is not set.
std::optional<std::vector<std::string>> visible_device_list() {
  const char* env = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!env) return std::nullopt;
  std::vector<std::string> ids;
  std::stringstream ss(env);
  for (std::string id; std::getline(ss, id, ',');)
    if (!id.empty()) ids.push_back(id);
  return ids;
}

// The driver API entry points kforge uses, from libcuda, initialised; empty (with the reason in
// `why`) when there is no usable driver. The library stays loaded: unloading it after cuInit is
// not supported.
struct Driver {
  int (*device_count)(int*) = nullptr;
  int (*device_get)(int*, int) = nullptr;
  int (*device_attribute)(int*, int, int) = nullptr;
};

std::optional<Driver> load_driver(std::string& why) {
  void* lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    why = "no NVIDIA driver (libcuda.so.1 not found)";
    return std::nullopt;
  }
  auto init = reinterpret_cast<int (*)(unsigned)>(::dlsym(lib, "cuInit"));
  Driver d;
  d.device_count = reinterpret_cast<int (*)(int*)>(::dlsym(lib, "cuDeviceGetCount"));
  d.device_get = reinterpret_cast<int (*)(int*, int)>(::dlsym(lib, "cuDeviceGet"));
  d.device_attribute = reinterpret_cast<int (*)(int*, int, int)>(::dlsym(lib, "cuDeviceGetAttribute"));
  if (!init || !d.device_count || !d.device_get || !d.device_attribute) {
    why = "libcuda.so.1 lacks the driver entry points kforge uses";
    return std::nullopt;
  }
  if (int rc = init(0); rc != 0) {
    why = "the CUDA driver failed to initialise (CUresult " + std::to_string(rc) + ")";
    return std::nullopt;
  }
  return d;
}

}  // namespace

CudaDevices probe_cuda_devices() {
  CudaDevices out;
  auto listed = visible_device_list();
  if (auto n = count_from_proc(); n && *n > 0) {
    // /proc counts every GPU of the machine; CUDA_VISIBLE_DEVICES, if set, narrows it.
    int count = listed ? std::min<int>(*n, static_cast<int>(listed->size())) : *n;
    out.count = count;
    for (int i = 0; i < count; ++i) out.visible_ids.push_back(listed ? (*listed)[i] : std::to_string(i));
    if (count == 0) out.why_none = "CUDA_VISIBLE_DEVICES hides every GPU";
    return out;
  }
  auto driver = load_driver(out.why_none);
  int n = 0;
  if (driver && (driver->device_count(&n) != 0 || n == 0)) {
    out.why_none = "the CUDA driver reports no device";
    n = 0;
  }
  // The driver already applies CUDA_VISIBLE_DEVICES to its count.
  out.count = n;
  for (int i = 0; i < n; ++i)
    out.visible_ids.push_back(listed && i < static_cast<int>(listed->size()) ? (*listed)[i] : std::to_string(i));
  return out;
}

std::string cuda_arch_of(int ordinal, std::string* why) {
  std::string reason;
  auto driver = load_driver(reason);
  if (!driver) {
    if (why) *why = reason;
    return {};
  }
  int device = 0, major = 0, minor = 0;
  constexpr int kMajor = 75, kMinor = 76;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR/MINOR
  if (driver->device_get(&device, ordinal) != 0 || driver->device_attribute(&major, kMajor, device) != 0 ||
      driver->device_attribute(&minor, kMinor, device) != 0) {
    if (why) *why = "the CUDA driver did not report the device's compute capability";
    return {};
  }
  std::string arch = "sm_" + std::to_string(major) + std::to_string(minor);
  if ((major == 9 || major == 10) && minor == 0) arch += "a";
  return arch;
}

}  // namespace kforge
