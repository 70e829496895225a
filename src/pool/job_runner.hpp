#pragma once
// What the executor needs of a worker: its identity once started, and one job run to an outcome.
// A WorkerProcess runs jobs in a child of this kforge; a RemoteWorker (src/serve/) runs them on a
// warm worker of a `kforge serve` on this machine.
#include <chrono>
#include <string>

#include "protocol/messages.hpp"

namespace kforge {

// forged: a result frame without the job's nonce, i.e. not written by the worker's own code.
// host_memory: the worker's resident host memory passed its bound.
// cpu_share: the job kept more cores busy than its share.
enum class JobFailure { none, timeout, crashed, protocol, forged, host_memory, cpu_share };

struct JobOutcome {
  JobFailure failure = JobFailure::none;
  protocol::JobResult result;  // valid when failure == none
  std::string detail;          // why, when failed: exit status, signal, the log's last lines
};

class JobRunner {
 public:
  virtual ~JobRunner() = default;
  // Starts (or reaches) the worker; throws kforge::Error when it cannot.
  virtual const protocol::WorkerInfo& ensure_started() = 0;
  // Runs one job; a worker that timed out, crashed or broke the protocol is replaced for the next.
  virtual JobOutcome run(const protocol::EvalJob& job, std::chrono::seconds deadline) = 0;
  // "cuda:0", "cpu": the device as results name it.
  virtual std::string device_label() const = 0;
};

}  // namespace kforge
