#pragma once
// The wire between `kforge eval --server` and `kforge serve`: the worker protocol's frames
// (protocol/frame.hpp) over a Unix socket that only this user can reach. Every client frame carries
// "token", the secret the server wrote beside its socket (serve_token_path) for this user's kforge
// processes to read: a candidate's process runs as the same user and can connect to the socket,
// but cannot read that file, and a job it sent would run a "problem" of its own writing in the
// server's reference process, which reads every file of the user's and judges the next jobs.
// A frame without it is answered {"type":"error"} and the connection closed.
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

// Where the server at `socket` keeps its token: `socket` with ".token" added.
std::filesystem::path serve_token_path(const std::filesystem::path& socket);
// A fresh random token, written to serve_token_path(socket) readable by this user only; throws
// kforge::Error where it cannot be written.
std::string write_serve_token(const std::filesystem::path& socket);
// The token of the server at `socket`, for a client; throws kforge::Error saying why not.
std::string read_serve_token(const std::filesystem::path& socket);
// Whether `frame` carries `token` (compared in constant time).
bool shows_token(const nlohmann::json& frame, const std::string& token);

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
