// Which worker processes a command starts (eval, serve), where they log, and the bounds each
// job runs under.
#include "cli/worker_choice.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "pool/devices.hpp"

namespace kforge::cli {

std::filesystem::path log_dir() {
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path base = cache && *cache ? cache : (home ? std::filesystem::path(home) / ".cache" : ".");
  return base / "kforge" / "logs";
}

// The resident host memory each worker may reach: as given, else three quarters of the machine's
// memory shared by the workers (a bomb is stopped before the kernel's OOM killer picks a victim).
int64_t host_memory_bound(double gib, size_t workers) {
  if (gib > 0) return static_cast<int64_t>(gib * double(int64_t{1} << 30));
  const int64_t ram = static_cast<int64_t>(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGE_SIZE);
  return ram / 4 * 3 / static_cast<int64_t>(std::max<size_t>(workers, 1));
}

// The cores each worker's job may keep busy: as given, else the machine's cores shared by the
// workers (one worker alone may use them all).
double cpu_share(double cores, size_t workers) {
  if (cores > 0) return cores;
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  return std::max(1.0, static_cast<double>(online > 0 ? online : 1) / static_cast<double>(std::max<size_t>(workers, 1)));
}

// Which workers serve the run: "cpu", or one per GPU asked for.
ExecutorConfig choose_workers(const std::string& device) {
  ExecutorConfig config;
  config.log_dir = log_dir();
  if (device == "cpu") {
    config.worker_devices = {"cpu"};
    return config;
  }
  CudaDevices gpus = probe_cuda_devices();
  if (device == "auto") {
    if (gpus.count == 0) {
      config.worker_devices = {"cpu"};
      return config;
    }
    config.cuda = true;
    config.worker_devices = gpus.visible_ids;
    return config;
  }
  if (gpus.count == 0) throw Error("--device " + device + ": no CUDA device here (" + gpus.why_none + "); use --device cpu");
  config.cuda = true;
  if (device == "cuda") {
    config.worker_devices = gpus.visible_ids;
    return config;
  }
  int ordinal = std::stoi(device.substr(5));
  if (ordinal < 0 || ordinal >= gpus.count)
    throw UsageError(fmt::format("--device {}: this machine has {} CUDA device(s), cuda:0..cuda:{}", device,
                                 gpus.count, gpus.count - 1));
  config.worker_devices = {gpus.visible_ids[ordinal]};
  return config;
}

}  // namespace kforge::cli
