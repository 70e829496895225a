#include "serve/serve_messages.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/errors.hpp"
#include "pool/worker_paths.hpp"
#include "protocol/frame.hpp"

namespace kforge::serve {
namespace {

const char* failure_name(JobFailure f) {
  switch (f) {
    case JobFailure::none: return "none";
    case JobFailure::timeout: return "timeout";
    case JobFailure::crashed: return "crashed";
    case JobFailure::protocol: return "protocol";
    case JobFailure::forged: return "forged";
    case JobFailure::host_memory: return "host_memory";
    case JobFailure::cpu_share: return "cpu_share";
  }
  return "crashed";
}

JobFailure failure_from(const std::string& s) {
  for (auto f : {JobFailure::none, JobFailure::timeout, JobFailure::crashed, JobFailure::protocol, JobFailure::forged,
                 JobFailure::host_memory, JobFailure::cpu_share})
    if (s == failure_name(f)) return f;
  return JobFailure::protocol;  // a newer server's failure this client does not know
}

}  // namespace

std::filesystem::path default_socket_path() {
  if (const char* run = std::getenv("XDG_RUNTIME_DIR"); run && *run) return std::filesystem::path(run) / "kforge" / "serve.sock";
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path base = cache && *cache ? cache : (home ? std::filesystem::path(home) / ".cache" : ".");
  return base / "kforge" / "serve.sock";
}

nlohmann::json outcome_to_json(const JobOutcome& outcome) {
  return {{"type", "outcome"}, {"failure", failure_name(outcome.failure)}, {"result", outcome.result},
          {"detail", outcome.detail}};
}

JobOutcome outcome_from_json(const nlohmann::json& j) {
  JobOutcome o;
  o.failure = failure_from(j.at("failure").get<std::string>());
  o.result = j.at("result").get<protocol::JobResult>();
  o.detail = j.value("detail", "");
  return o;
}

int connect_to(const std::filesystem::path& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string p = path.string();
  if (p.size() >= sizeof addr.sun_path)
    throw Error("the server socket path " + p + " is longer than a Unix socket allows (" +
                std::to_string(sizeof addr.sun_path - 1) + " bytes)");
  std::memcpy(addr.sun_path, p.c_str(), p.size() + 1);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw Error(std::string("cannot make a socket: ") + std::strerror(errno));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    const int err = errno;
    ::close(fd);
    throw Error("no kforge serve answers at " + p + " (" + std::strerror(err) +
                "); start one with `kforge serve`, or evaluate without --server");
  }
  return fd;
}

ServerStatus query_status(const std::filesystem::path& path) {
  int fd = connect_to(path);
  ServerStatus status;
  const bool sent = protocol::write_frame(fd, {{"type", "status"}});
  auto reply = sent ? protocol::read_frame(fd, std::chrono::steady_clock::now() + std::chrono::seconds(10))
                    : protocol::ReadResult{};
  ::close(fd);
  if (reply.status != protocol::ReadStatus::ok || reply.message.value("type", "") != "status")
    throw Error("the kforge serve at " + path.string() + " did not answer a status request");
  if (reply.message.value("protocol", 0) != protocol::kVersion)
    throw Error("the kforge serve at " + path.string() + " speaks protocol " +
                std::to_string(reply.message.value("protocol", 0)) + ", this kforge " +
                std::to_string(protocol::kVersion) + ": restart it with this build");
  if (reply.message.value("harness", "") != worker_module_hash())
    throw Error("the kforge serve at " + path.string() +
                " runs another build of kforge's worker than this kforge: stop it and start `kforge serve` again");
  status.device = reply.message.value("device", "");
  status.labels = reply.message.value("workers", std::vector<std::string>{});
  return status;
}

}  // namespace kforge::serve
