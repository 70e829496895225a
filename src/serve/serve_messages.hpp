#pragma once
// The wire between `kforge eval --server` and `kforge serve`: the worker protocol's frames
// (protocol/frame.hpp) over a Unix socket that only this user can reach.
//   client -> server  {"type":"status"}
//   server -> client  {"type":"status", "protocol":N, "harness":H, "device":"cuda"|"cpu", "workers":["cuda:0", ...]}
//                     (H: the worker modules' hash; a client of another build refuses the server)
//   client -> server  {"type":"lease"}     (waits until a worker is free; it is the client's until it hangs up)
//   server -> client  {"type":"leased", "label":"cuda:0", "worker": WorkerInfo} | {"type":"error", "message":S}
//   client -> server  {"type":"run", "job": EvalJob, "deadline_s": N}
//   server -> client  {"type":"outcome", "failure": F, "result": JobResult, "detail": S}
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pool/job_runner.hpp"

namespace kforge::serve {

// $XDG_RUNTIME_DIR/kforge/serve.sock, else ~/.cache/kforge/serve.sock ($XDG_CACHE_HOME honoured).
std::filesystem::path default_socket_path();

nlohmann::json outcome_to_json(const JobOutcome& outcome);
JobOutcome outcome_from_json(const nlohmann::json& j);  // throws nlohmann::json::exception when malformed

// A connected stream socket to the server at `path`; throws kforge::Error saying why not (no
// server there, a stale socket, a path too long).
int connect_to(const std::filesystem::path& path);

struct ServerStatus {
  std::string device;               // "cuda" or "cpu"
  std::vector<std::string> labels;  // one per worker
};
// Asks the server at `path` what it serves; throws kforge::Error when it does not answer.
ServerStatus query_status(const std::filesystem::path& path);

}  // namespace kforge::serve
