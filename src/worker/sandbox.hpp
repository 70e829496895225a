#pragma once
// The sandboxes of the two processes of an evaluation (docs/evaluation.md, "The sandbox").
//   reference process: no network; file writes only in its scratch folder and the caches. It
//     never runs candidate code, so this only keeps a broken problem file from doing harm.
//   candidate process: that, reads confined to the interpreter, torch, the toolkit, its scratch
//     folder and its own files (and what common/system_reads.hpp allows of the system, devices
//     included), and a seccomp filter that denies what no kernel needs (ptrace,
//     process_vm_*, new sessions and process groups, mount, bpf, keyrings, pidfds, namespaces)
//     and signals to kforge's own processes; Landlock's signal and abstract-socket scoping where
//     the kernel has it (ABI 6); writes in /proc only under its own /proc/<pid>; no capabilities.
#include <cstdint>
#include <string>
#include <vector>

namespace kforge::worker {

struct SandboxStatus {
  bool network_denied = false;   // socket(AF_INET/AF_INET6/AF_PACKET) and io_uring fail with EACCES
  bool network_private = false;  // candidate: AF_INET and AF_INET6 sockets allowed, in a private network namespace
  bool writes_confined = false;  // file writes outside `writable` fail with EACCES (Landlock)
  bool signals_scoped = false;   // candidate: Landlock denies signals to processes outside its domain
  bool threads_confined = false; // candidate: every thread made before the sandbox confined itself too
  std::string describe;          // one line for the log
};

// The folders kforge lets a process that runs candidate code write to: its scratch folder
// (KFORGE_WORKER_SCRATCH, also made the working directory) and those in KFORGE_WORKER_WRITABLE
// (colon-separated: a multi-rank job's candidates' folder).
std::vector<std::string> candidate_writable_folders();

// kforge's build cache (KFORGE_WORKER_BUILD_CACHE): the worker writes it; a candidate's process
// neither writes nor reads it (it asks the worker for its builds, worker/build_broker.hpp), and
// `kforge profile`'s reads it.
std::vector<std::string> build_cache_folders();

// A worker's own: those, the build cache, and CUDA's and Triton's caches
// (KFORGE_WORKER_GPU_CACHES), which no candidate's process writes to (it gets empty ones of its
// own in its scratch folder).
std::vector<std::string> writable_folders();

// The reference process's sandbox: every thread of the process (seccomp, synchronised) loses the
// network; where the kernel has Landlock, file creation, writing, truncation, renaming and removal
// are confined to `writable` (and /dev and /proc, which the CUDA driver and the C library write to)
// for this thread and every thread or process it starts later. What the kernel does not support
// is reported, not faked.
// `references_network`: a multi-rank job's worker keeps its sockets, for the references' group on
// the machine's loopback (its candidates' are in a private network and cannot reach it).
SandboxStatus enter_sandbox(const std::vector<std::string>& writable, bool references_network = false);

// The candidate process's sandbox (above), for the calling thread and everything it starts; the
// other threads (the CUDA driver's, the stream hold's watchdog) were made by kforge's code before.
// `readable`: folders or files it may read besides `writable`. `protected_pids` may not be
// signalled, nor their process groups, nor every process (-1).
// `private_apart_from`: for a rank of a multi-rank job, the network namespace it left
// (worker/private_network.hpp's network_namespace_id, recorded before enter_private_network): its
// AF_INET and AF_INET6 sockets are allowed, since its namespace holds only the ranks' own loopback,
// but only where the calling process is in another namespace than that one; 0 (every other
// candidate), or the same namespace, and they are denied.
SandboxStatus enter_candidate_sandbox(const std::vector<std::string>& writable, const std::vector<std::string>& readable,
                                      const std::vector<int>& protected_pids, uint64_t private_apart_from = 0);

}  // namespace kforge::worker
