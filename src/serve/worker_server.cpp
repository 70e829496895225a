#include "serve/worker_server.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "core/verdict.hpp"
#include "pool/worker_paths.hpp"
#include "protocol/frame.hpp"
#include "serve/serve_messages.hpp"

namespace kforge::serve {
namespace {

std::atomic<bool> g_stop{false};
void on_signal(int) { g_stop = true; }

// Listens at `path`, which must not be taken by a live server; a socket file left by one that
// died is replaced. The folder is made private: whoever reaches the socket runs code as us.
int listen_at(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  ::chmod(path.parent_path().c_str(), 0700);
  if (std::filesystem::exists(path)) {
    bool live = false;
    try {
      ::close(connect_to(path));
      live = true;
    } catch (const Error&) {
      // Nothing answers: the server that made it is gone.
    }
    if (live) throw Error("a kforge serve already listens at " + path.string());
    std::filesystem::remove(path, ec);
  }
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string p = path.string();
  if (p.size() >= sizeof addr.sun_path) throw Error("the socket path " + p + " is too long for a Unix socket");
  std::memcpy(addr.sun_path, p.c_str(), p.size() + 1);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw Error(std::string("cannot make a socket: ") + std::strerror(errno));
  const mode_t old_mask = ::umask(0077);
  const bool bound = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  const int bind_errno = errno;
  ::umask(old_mask);
  if (!bound || ::listen(fd, 16) != 0) {
    ::close(fd);
    throw Error("cannot listen at " + p + ": " + std::strerror(bound ? errno : bind_errno));
  }
  return fd;
}

// A worker dies with the thread that forked it (PR_SET_PDEATHSIG), and client connections come
// and go: so each worker has a thread of its own, for the server's life, that does everything
// to it (start, run, restart, stop), one call at a time.
class OwnerThread {
 public:
  OwnerThread() : thread_([this] { loop(); }) {}
  ~OwnerThread() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  // Runs `task` on the owner thread and waits for it; its exception is rethrown here.
  void call(const std::function<void()>& task) {
    std::packaged_task<void()> work(task);
    auto done = work.get_future();
    {
      std::lock_guard lock(mutex_);
      pending_ = std::move(work);
    }
    wake_.notify_all();
    done.get();
  }

 private:
  void loop() {
    for (;;) {
      std::packaged_task<void()> work;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return pending_.valid() || stopping_; });
        if (!pending_.valid()) return;
        work = std::move(pending_);
      }
      work();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::packaged_task<void()> pending_;
  bool stopping_ = false;
  std::thread thread_;  // last: started once the members it uses exist
};

struct Slot {
  std::unique_ptr<WorkerProcess> worker;
  std::unique_ptr<OwnerThread> owner;
  std::string label;
  bool leased = false;
};

class Server {
 public:
  Server(const ServerConfig& config, const std::function<void(const std::string&)>& say, std::string token)
      : config_(config), say_(say), token_(std::move(token)) {
    for (const auto& wc : config.workers) {
      auto& s = slots_.emplace_back();
      s.worker = std::make_unique<WorkerProcess>(wc);
      s.owner = std::make_unique<OwnerThread>();
      s.label = s.worker->device_label();
    }
  }

  // Starts every worker at once (each imports torch: seconds), so the first client finds them warm.
  void start_workers() {
    std::vector<std::thread> starting;
    for (auto& s : slots_)
      starting.emplace_back([&] {
        try {
          protocol::WorkerInfo info;
          s.owner->call([&] { info = s.worker->ensure_started(); });
          say(fmt::format("{}: worker ready ({}, torch {})", s.label, info.device_name, info.torch_version));
        } catch (const Error& e) {
          say(fmt::format("{}: worker did not start: {} (a client that leases it is told)", s.label, e.what()));
        }
      });
    for (auto& t : starting) t.join();
  }

  void handle(int fd) {
    Slot* leased = nullptr;
    for (;;) {
      auto request = protocol::read_frame(fd);
      if (request.status != protocol::ReadStatus::ok) break;  // hung up (or garbage): the lease ends
      if (!shows_token(request.message, token_)) {
        // Not one of this user's kforge processes: perhaps a candidate's, which can reach the socket.
        protocol::write_frame(fd, {{"type", "error"},
                                   {"message", "kforge serve: a request without the token in " +
                                                   serve_token_path(config_.socket).string() +
                                                   ", which this user's kforge reads and no candidate can"}});
        say("refused a client that did not show the token");
        break;
      }
      const std::string type = request.message.value("type", "");
      if (type == "status") {
        nlohmann::json workers = nlohmann::json::array();
        for (const auto& s : slots_) workers.push_back(s.label);
        protocol::write_frame(fd, {{"type", "status"},
                                   {"protocol", protocol::kVersion},
                                   {"harness", worker_module_hash()},
                                   {"device", config_.workers.empty() ? "" : config_.workers.front().device},
                                   {"workers", workers}});
      } else if (type == "lease" && !leased) {
        leased = lease();
        if (!leased) break;  // stopping
        try {
          protocol::WorkerInfo info;
          leased->owner->call([&] { info = leased->worker->ensure_started(); });
          protocol::write_frame(fd, {{"type", "leased"}, {"label", leased->label}, {"worker", info}});
        } catch (const Error& e) {
          protocol::write_frame(fd, {{"type", "error"}, {"message", leased->label + ": " + e.what()}});
        }
      } else if (type == "run" && leased) {
        JobOutcome outcome;
        try {
          const auto job = request.message.at("job").get<protocol::EvalJob>();
          const auto deadline = std::chrono::seconds(request.message.value("deadline_s", 600));
          const int restarts_before = leased->worker->restarts();
          leased->owner->call([&] { outcome = leased->worker->run(job, deadline); });
          if (leased->worker->restarts() > restarts_before)
            say(fmt::format("{}: worker restarted for this job (the last one crashed, timed out or was rejected)",
                            leased->label));
          say(fmt::format("{}: {} -> {}", leased->label, std::filesystem::path(job.candidate_path).filename().string(),
                          outcome.failure == JobFailure::none ? to_string(outcome.result.verdict) : outcome.detail.substr(0, 80)));
        } catch (const nlohmann::json::exception& e) {
          outcome.failure = JobFailure::protocol;
          outcome.detail = std::string("kforge serve could not read the job: ") + e.what();
        } catch (const Error& e) {  // the worker could not be restarted for this job
          outcome.failure = JobFailure::crashed;
          outcome.detail = e.what();
        }
        if (!protocol::write_frame(fd, outcome_to_json(outcome))) break;  // the client left mid-job
      } else {
        protocol::write_frame(fd, {{"type", "error"}, {"message", "kforge serve: unexpected request '" + type + "'"}});
      }
    }
    if (leased) release(leased);
  }

  // Waits for a free worker; nothing once the server stops.
  Slot* lease() {
    std::unique_lock lock(mutex_);
    free_.wait(lock, [&] { return g_stop || has_free(); });
    if (g_stop) return nullptr;
    for (auto& s : slots_)
      if (!s.leased) {
        s.leased = true;
        return &s;
      }
    return nullptr;
  }

  void release(Slot* s) {
    std::lock_guard lock(mutex_);
    s->leased = false;
    free_.notify_one();
  }

  void wake_all() {
    std::lock_guard lock(mutex_);
    free_.notify_all();
  }

  void stop_workers() {
    for (auto& s : slots_) s.owner->call([&] { s.worker->stop(); });
  }

  void say(const std::string& line) {
    std::lock_guard lock(say_mutex_);
    say_(line);
  }

 private:
  bool has_free() const {
    for (const auto& s : slots_)
      if (!s.leased) return true;
    return false;
  }

  const ServerConfig& config_;
  const std::function<void(const std::string&)>& say_;
  const std::string token_;  // what every client frame must carry (serve_messages.hpp)
  std::vector<Slot> slots_;
  std::mutex mutex_, say_mutex_;
  std::condition_variable free_;
};

}  // namespace

void run_server(const ServerConfig& config, const std::function<void(const std::string&)>& say) {
  const int listener = listen_at(config.socket);
  g_stop = false;
  struct sigaction action {};
  action.sa_handler = on_signal;
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
  ::signal(SIGPIPE, SIG_IGN);  // a client that leaves mid-job is a failed write, not our death

  // Before the workers start: a client that connects as soon as the socket exists finds it.
  Server server(config, say, write_serve_token(config.socket));
  server.start_workers();
  say(fmt::format("listening at {} ({} worker{}); Ctrl-C stops", config.socket.string(), config.workers.size(),
                  config.workers.size() == 1 ? "" : "s"));

  // Each connection has its thread; finished ones are joined as the loop goes round, so a server
  // that outlives thousands of evaluations holds only the live ones.
  struct Client {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };
  std::mutex clients_mutex;  // guards open_fds and last_activity
  std::vector<int> open_fds;
  std::vector<Client> clients;
  auto last_activity = std::chrono::steady_clock::now();
  auto reap = [&] {
    std::erase_if(clients, [](Client& c) {
      if (!*c.done) return false;
      c.thread.join();
      return true;
    });
  };
  while (!g_stop) {
    reap();
    pollfd p{listener, POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) {
      std::lock_guard lock(clients_mutex);
      if (config.idle_exit_s > 0 && clients.empty() &&
          std::chrono::steady_clock::now() - last_activity > std::chrono::duration<double>(config.idle_exit_s)) {
        say(fmt::format("no client for {:g} s: stopping", config.idle_exit_s));
        break;
      }
      continue;
    }
    int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    {
      std::lock_guard lock(clients_mutex);
      open_fds.push_back(fd);
      last_activity = std::chrono::steady_clock::now();
    }
    auto done = std::make_shared<std::atomic<bool>>(false);
    clients.push_back({std::thread([&, fd, done] {
                         server.handle(fd);
                         {
                           std::lock_guard lock(clients_mutex);
                           std::erase(open_fds, fd);  // before close: the number may be reused at once
                           last_activity = std::chrono::steady_clock::now();
                         }
                         ::close(fd);
                         *done = true;
                       }),
                       done});
  }
  g_stop = true;
  ::close(listener);
  std::error_code ec;
  std::filesystem::remove(config.socket, ec);
  std::filesystem::remove(serve_token_path(config.socket), ec);
  {
    // Clients waiting for a request or a lease see the end now; a job under way finishes first
    // (its own deadline bounds it).
    std::lock_guard lock(clients_mutex);
    for (int fd : open_fds) ::shutdown(fd, SHUT_RDWR);
  }
  server.wake_all();
  for (auto& c : clients) c.thread.join();
  server.stop_workers();
  say("stopped");
}

}  // namespace kforge::serve
