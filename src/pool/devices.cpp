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

}  // namespace

CudaDevices probe_cuda_devices() {
  CudaDevices out;
  if (auto n = count_from_proc(); n && *n > 0) {
    std::vector<std::string> parent;
    bool restricted = false;
    if (const char* env = std::getenv("CUDA_VISIBLE_DEVICES")) {
      restricted = true;
      std::stringstream ss(env);
      for (std::string id; std::getline(ss, id, ',');)
        if (!id.empty()) parent.push_back(id);
    }
    int count = restricted ? std::min<int>(*n, static_cast<int>(parent.size())) : *n;
    out.count = count;
    for (int i = 0; i < count; ++i) out.visible_ids.push_back(restricted ? parent[i] : std::to_string(i));
    if (count == 0) out.why_none = "CUDA_VISIBLE_DEVICES hides every GPU";
    return out;
  }
  void* lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    out.why_none = "no NVIDIA driver (libcuda.so.1 not found)";
    return out;
  }
  using InitFn = int (*)(unsigned);
  using CountFn = int (*)(int*);
  auto init = reinterpret_cast<InitFn>(::dlsym(lib, "cuInit"));
  auto count = reinterpret_cast<CountFn>(::dlsym(lib, "cuDeviceGetCount"));
  int n = 0;
  if (!init || !count) {
    out.why_none = "libcuda.so.1 lacks cuInit/cuDeviceGetCount";
  } else if (int rc = init(0); rc != 0) {
    out.why_none = "the CUDA driver failed to initialise (CUresult " + std::to_string(rc) + ")";
  } else if (count(&n) != 0 || n == 0) {
    out.why_none = "the CUDA driver reports no device";
    n = 0;
  }
  // The driver stays loaded: unloading it after cuInit is not supported.
  out.count = n;
  std::vector<std::string> parent;
  if (const char* env = std::getenv("CUDA_VISIBLE_DEVICES"); env && *env) {
    std::stringstream ss(env);
    for (std::string id; std::getline(ss, id, ',');) parent.push_back(id);
  }
  for (int i = 0; i < n; ++i)
    out.visible_ids.push_back(i < static_cast<int>(parent.size()) ? parent[i] : std::to_string(i));
  return out;
}

std::string cuda_arch_of(int ordinal, std::string* why) {
  void* lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    if (why) *why = "no NVIDIA driver (libcuda.so.1 not found)";
    return {};
  }
  using InitFn = int (*)(unsigned);
  using GetFn = int (*)(int*, int);
  using AttrFn = int (*)(int*, int, int);
  auto init = reinterpret_cast<InitFn>(::dlsym(lib, "cuInit"));
  auto get = reinterpret_cast<GetFn>(::dlsym(lib, "cuDeviceGet"));
  auto attr = reinterpret_cast<AttrFn>(::dlsym(lib, "cuDeviceGetAttribute"));
  int device = 0, major = 0, minor = 0;
  constexpr int kMajor = 75, kMinor = 76;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR/MINOR
  if (!init || !get || !attr || init(0) != 0 || get(&device, ordinal) != 0 || attr(&major, kMajor, device) != 0 ||
      attr(&minor, kMinor, device) != 0) {
    if (why) *why = "the CUDA driver did not report the device's compute capability";
    return {};
  }
  std::string arch = "sm_" + std::to_string(major) + std::to_string(minor);
  if ((major == 9 || major == 10) && minor == 0) arch += "a";
  return arch;
}

}  // namespace kforge
