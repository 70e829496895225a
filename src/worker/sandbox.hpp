#pragma once
// The worker's sandbox, entered once torch and the CUDA context are up and before any job: what
// a candidate's code may reach from inside the worker process.
#include <string>
#include <vector>

namespace kforge::worker {

struct SandboxStatus {
  bool network_denied = false;  // socket(AF_INET/AF_INET6/AF_PACKET) and io_uring fail with EACCES
  bool writes_confined = false;  // file writes outside `writable` fail with EACCES (Landlock)
  std::string describe;          // one line for the worker's log
};

// Denies new network sockets to every thread of the process (a seccomp filter, synchronised to
// all threads) and, where the kernel has Landlock, confines file creation, writing, truncation,
// renaming and removal to the `writable` folders (and /dev and /proc, which the CUDA driver and
// the C library write to) for this thread and every thread or process it starts later. Reading
// stays allowed everywhere. Missing folders are skipped. What the kernel does not support is
// reported, not faked.
SandboxStatus enter_sandbox(const std::vector<std::string>& writable);

}  // namespace kforge::worker
