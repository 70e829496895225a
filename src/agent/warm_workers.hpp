#pragma once
// The agent's evaluation workers, kept warm for the whole run: a `kforge serve` child (this very
// binary) on a private socket. Every round's evaluation leases workers from it instead of starting
// its own (Python, torch, a CUDA context: seconds each time), and the problems' searches, which run
// side by side, take turns on the GPUs through its leases: one candidate at a time per GPU, while
// the other searches wait for their models.
#include <filesystem>
#include <string>

#include "planner/executor.hpp"

namespace kforge::agent {

class WarmWorkers {
 public:
  // Starts the server for `device` (as kforge eval's --device) and waits until it answers; its
  // lines go to `log`. Throws kforge::Error when it cannot start or dies first.
  WarmWorkers(const std::string& device, const std::filesystem::path& log);
  ~WarmWorkers();  // SIGTERM to the server, which stops its workers, then waits for it
  WarmWorkers(const WarmWorkers&) = delete;
  WarmWorkers& operator=(const WarmWorkers&) = delete;

  // The executor's configuration for up to `jobs` jobs at once: that many leases (at most one per
  // worker the server has).
  ExecutorConfig leases(size_t jobs) const;
  bool cuda() const { return config_.cuda; }

 private:
  std::filesystem::path dir_, socket_;
  int pid_ = -1;
  ExecutorConfig config_;
};

}  // namespace kforge::agent
