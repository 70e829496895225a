#include "serve/serve_messages.hpp"

#include <fcntl.h>
#include <sys/random.h>
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

std::filesystem::path serve_token_path(const std::filesystem::path& socket) {
  return std::filesystem::path(socket.string() + ".token");
}

std::string write_serve_token(const std::filesystem::path& socket) {
  unsigned char bytes[32];
  if (::getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes))
    throw Error(std::string("cannot draw the server's token: ") + std::strerror(errno));
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  for (unsigned char b : bytes) {
    token.push_back(kHex[b >> 4]);
    token.push_back(kHex[b & 15]);
  }
  const std::string path = serve_token_path(socket).string();
  ::unlink(path.c_str());  // a stale one, perhaps another user's file: never written through
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) throw Error("cannot write the server's token at " + path + ": " + std::strerror(errno));
  const bool written = ::write(fd, token.data(), token.size()) == static_cast<ssize_t>(token.size());
  ::close(fd);
  if (!written) throw Error("cannot write the server's token at " + path);
  return token;
}

std::string read_serve_token(const std::filesystem::path& socket) {
  const std::string path = serve_token_path(socket).string();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw Error("cannot read the kforge serve's token at " + path + " (" + std::strerror(errno) +
                "): only the user who started the server can use it");
  char buffer[128];
  const ssize_t n = ::read(fd, buffer, sizeof buffer);
  ::close(fd);
  if (n <= 0) throw Error("the kforge serve's token at " + path + " is empty");
  return std::string(buffer, static_cast<size_t>(n));
}

bool shows_token(const nlohmann::json& frame, const std::string& token) {
  if (!frame.is_object() || !frame.contains("token") || !frame["token"].is_string()) return false;
  const std::string& shown = frame["token"].get_ref<const std::string&>();
  if (shown.size() != token.size() || token.empty()) return false;
  unsigned char differ = 0;
  for (size_t i = 0; i < token.size(); ++i) differ |= static_cast<unsigned char>(shown[i] ^ token[i]);
  return differ == 0;
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
  std::string token;
  try {
    token = read_serve_token(path);
  } catch (const Error&) {
    ::close(fd);
    throw;
  }
  ServerStatus status;
  const bool sent = protocol::write_frame(fd, {{"type", "status"}, {"token", token}});
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
