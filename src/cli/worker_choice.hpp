#pragma once
// Which worker processes a command starts (kforge eval, kforge serve), where they log, and the
// bounds each job runs under.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "planner/executor.hpp"

namespace kforge::cli {

// ~/.cache/kforge/logs ($XDG_CACHE_HOME honoured): the workers' logs.
std::filesystem::path log_dir();

// The resident host memory each worker may reach: `gib` when given (> 0), else three quarters
// of the machine's memory shared by the workers.
int64_t host_memory_bound(double gib, size_t workers);

// The cores each worker's job may keep busy: `cores` when given (> 0), else the machine's cores
// shared by the workers (one worker alone may use them all).
double cpu_share(double cores, size_t workers);

// One worker per device asked for: "auto" (every GPU, else the CPU), "cpu", "cuda" (every GPU)
// or "cuda:N". Throws UsageError / Error when the device is not here.
ExecutorConfig choose_workers(const std::string& device);

}  // namespace kforge::cli
