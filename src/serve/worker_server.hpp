#pragma once
// `kforge serve`: warm workers kept between kforge invocations. Starting a worker (Python,
// import torch, a CUDA context) costs seconds, far more than evaluating one level-1 candidate;
// an agent loop that evaluates one candidate per `kforge eval --server` pays it once here.
// Each client connection leases one worker for as long as it stays connected (a GPU times one
// candidate at a time); the job runs exactly as without the server, through WorkerProcess, with
// its bounds (memory, CPU share, deadline) and the worker replaced after a crash or a rejection.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "pool/worker_process.hpp"

namespace kforge::serve {

struct ServerConfig {
  std::filesystem::path socket;
  std::vector<WorkerConfig> workers;  // one per device
  double idle_exit_s = 0;             // exit after this long without a connection (0: never)
};

// Starts the workers, listens until SIGINT/SIGTERM (or the idle time), then stops them and
// removes the socket. `say` gets one line per event (started, leased, a job's verdict). Throws
// kforge::Error when it cannot listen (another server there, a path it cannot bind).
void run_server(const ServerConfig& config, const std::function<void(const std::string&)>& say);

}  // namespace kforge::serve
