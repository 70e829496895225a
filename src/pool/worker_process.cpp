#include "pool/worker_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <thread>
#include <vector>

#include "build/build_service.hpp"
#include "common/environment_allowlist.hpp"
#include "common/errors.hpp"
#include "common/owned_fd.hpp"
#include "common/parent_death.hpp"
#include "pool/resource_watch.hpp"
#include "protocol/frame.hpp"

namespace kforge {
namespace {

// The worker reads jobs on fd 3 and answers on fd 4; 0-2 stay for the candidate's own prints,
// which go to the log file, never into the protocol.
constexpr int kWorkerIn = 3;
constexpr int kWorkerOut = 4;
// A rank worker's inherited namespaces (WorkerConfig; KFORGE_WORKER_RANK_NETWORK names them).
constexpr int kRankUserNamespace = 6;
constexpr int kRankNetworkNamespace = 7;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

WorkerProcess::WorkerProcess(WorkerConfig config) : config_(std::move(config)) {}

WorkerProcess::~WorkerProcess() { stop(); }

const protocol::WorkerInfo& WorkerProcess::ensure_started() {
  if (!running()) start();
  return info_;
}

namespace {

std::filesystem::path temp_root() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp && *tmp ? std::filesystem::path(tmp) : std::filesystem::path("/tmp");
}

// Folders are named kforge-<kind>-<kforge's pid>-XXXXXX. A kforge killed outright (kill -9, the
// OOM killer) cannot remove its folders, so the next kforge to make one of that kind removes every
// such folder whose kforge is gone.
void remove_orphaned(const std::filesystem::path& root, const std::string& kind) {
  std::error_code ec;
  const std::string format = "kforge-" + kind + "-%d-";
  for (const auto& entry : std::filesystem::directory_iterator(root, ec)) {
    const std::string name = entry.path().filename().string();
    int owner = 0;
    if (!name.starts_with("kforge-" + kind + "-") || std::sscanf(name.c_str(), format.c_str(), &owner) != 1 ||
        owner <= 1 || owner == ::getpid())
      continue;
    if (::kill(owner, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    std::error_code ignored;
    std::filesystem::remove_all(entry.path(), ignored);
  }
}

}  // namespace

std::filesystem::path make_owned_folder(const std::filesystem::path& root, const std::string& kind) {
  remove_orphaned(root, kind);
  std::string pattern = (root / ("kforge-" + kind + "-" + std::to_string(::getpid()) + "-XXXXXX")).string();
  if (!::mkdtemp(pattern.data())) throw Error("cannot create a folder from " + pattern + ": " + std::strerror(errno));
  return pattern;
}

std::filesystem::path make_scratch() { return make_owned_folder(temp_root(), "worker"); }

namespace {

std::string colon_joined(const std::vector<std::filesystem::path>& dirs) {
  std::string out;
  for (const auto& d : dirs)
    if (!d.empty()) out += (out.empty() ? "" : ":") + d.string();
  return out;
}

// kforge's build cache with whatever its entries link to: the worker writes it (the builds its
// candidates ask for, worker/build_broker.hpp); candidates' processes get none of it.
std::string build_caches() {
  std::error_code ec;
  auto build_cache = build::default_build_settings().cache_dir;
  std::filesystem::create_directories(build_cache, ec);
  return colon_joined(build::cache_folders(build_cache));
}

// CUDA's JIT cache and Triton's in the home folder: the worker's own (a baseline's torch.compile
// fills Triton's). A candidate's process gets empty ones in its scratch folder instead
// (worker/candidate_host.cpp): a binary it left in a shared one would be loaded by a later
// process, kforge's included, as the compiler's output for someone else's source.
std::string gpu_caches() {
  std::vector<std::filesystem::path> dirs;
  std::error_code ec;
  if (const char* home = std::getenv("HOME"); home && *home)
    for (const char* sub : {".nv", ".triton"}) {
      std::filesystem::create_directories(std::filesystem::path(home) / sub, ec);
      dirs.push_back(std::filesystem::path(home) / sub);
    }
  return colon_joined(dirs);
}

}  // namespace

std::vector<std::string> sandboxed_environment(const std::filesystem::path& scratch,
                                               const std::filesystem::path& also_writable) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string_view entry(*e);
    if (entry.starts_with("CUDA_VISIBLE_DEVICES=") || entry.starts_with("PYTHONUNBUFFERED=") ||
        entry.starts_with("KFORGE_WORKER_DEVICE=") || entry.starts_with("TMPDIR=") ||
        entry.starts_with("KFORGE_WORKER_SCRATCH=") || entry.starts_with("KFORGE_WORKER_WRITABLE=") ||
        entry.starts_with("KFORGE_WORKER_GPU_CACHES=") || entry.starts_with("KFORGE_WORKER_BUILD_CACHE="))
      continue;
    if (passes_to_candidate_code(entry)) env.emplace_back(entry);
  }
  // torch's OpenMP threads otherwise spin for a while after each parallel region, on the cores
  // the other process of the evaluation is about to use (seen: 60-80 us late answers on 2 cores).
  if (!std::getenv("OMP_WAIT_POLICY")) env.push_back("OMP_WAIT_POLICY=PASSIVE");
  env.push_back("TMPDIR=" + scratch.string());
  env.push_back("KFORGE_WORKER_SCRATCH=" + scratch.string());
  env.push_back("KFORGE_WORKER_WRITABLE=" + also_writable.string());
  env.push_back("KFORGE_WORKER_BUILD_CACHE=" + build_caches());
  env.push_back("KFORGE_WORKER_GPU_CACHES=" + gpu_caches());
  if (!std::getenv("TORCHINDUCTOR_CACHE_DIR"))  // else /tmp/torchinductor_<user>, outside the sandbox
    env.push_back("TORCHINDUCTOR_CACHE_DIR=" + (scratch / "inductor").string());
  return env;
}

void WorkerProcess::start() {
  // down: kforge -> worker, up: worker -> kforge. Each end is closed on every path out of here
  // unless it is kept (an error below, a failed fork, left them open before).
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw Error(std::string("cannot create worker pipes: ") + std::strerror(errno));
  OwnedFd down_read(fds[0]), down_write(fds[1]);
  if (::pipe2(fds, O_CLOEXEC) != 0) throw Error(std::string("cannot create worker pipes: ") + std::strerror(errno));
  OwnedFd up_read(fds[0]), up_write(fds[1]);

  std::filesystem::create_directories(config_.log_path.parent_path());
  OwnedFd log(::open(config_.log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
  if (!log.valid()) throw Error(config_.log_path.string() + ": cannot open worker log: " + std::strerror(errno));

  std::string script = (config_.module_dir / "kforge_worker.py").string();
  std::string python = config_.python.string();
  scratch_ = make_scratch();
  std::vector<std::string> env_strings = sandboxed_environment(scratch_, config_.rank_candidates_folder);
  env_strings.push_back("PYTHONUNBUFFERED=1");
  env_strings.push_back("KFORGE_WORKER_DEVICE=" + config_.device);
  if (!config_.rank_references_folder.empty()) {
    env_strings.push_back("KFORGE_WORKER_RANK_FOLDER=" + config_.rank_references_folder.string());
    env_strings.push_back("KFORGE_WORKER_RANK_NETWORK=" +
                          std::to_string(config_.rank_user_namespace_fd >= 0 ? kRankUserNamespace : -1) + "," +
                          std::to_string(kRankNetworkNamespace));
  }
  if (config_.device == "cuda") env_strings.push_back("CUDA_VISIBLE_DEVICES=" + config_.cuda_visible_devices);
  else env_strings.push_back("CUDA_VISIBLE_DEVICES=");  // a CPU worker never touches a GPU
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<char*> argv{python.data(), script.data(), nullptr};

  const pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) throw Error(std::string("cannot fork a worker: ") + std::strerror(errno));
  if (pid == 0) {
    // Child: own process group, fixed fds, then exec. Only async-signal-safe calls from here.
    ::setpgid(0, 0);
    // Dies with the kforge thread that started it (Ctrl-C, kill -9 of kforge): no orphan keeps a
    // GPU busy. Each worker is started and stopped by one executor thread.
    die_with_parent(parent, SIGKILL, 127);
    // A rank worker's namespaces first moved out of the way of the fixed numbers, then onto theirs.
    const int user_ns = config_.rank_user_namespace_fd >= 0 ? ::fcntl(config_.rank_user_namespace_fd, F_DUPFD_CLOEXEC, 100) : -1;
    const int net_ns = config_.rank_network_namespace_fd >= 0 ? ::fcntl(config_.rank_network_namespace_fd, F_DUPFD_CLOEXEC, 100) : -1;
    if (user_ns >= 0) ::dup2(user_ns, kRankUserNamespace);
    if (net_ns >= 0) ::dup2(net_ns, kRankNetworkNamespace);
    ::dup2(down_read.get(), kWorkerIn);
    ::dup2(up_write.get(), kWorkerOut);
    int devnull = ::open("/dev/null", O_RDONLY);
    ::dup2(devnull, 0);
    ::dup2(log.get(), 1);
    ::dup2(log.get(), 2);
    ::execve(argv[0], argv.data(), envp.data());
    const char msg[] = "kforge: cannot exec the worker's python\n";
    [[maybe_unused]] auto n = ::write(2, msg, sizeof msg - 1);
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also from the parent, so a kill right after fork reaches the group
  // The child's ends closed here at once: with its write end open in this process too, a worker
  // that died before its hello would not close the pipe, and the wait below would run its course.
  down_read.reset();
  up_write.reset();
  log.reset();
  pid_ = pid;
  to_worker_ = down_write.release();
  from_worker_ = up_read.release();
  if (starts_++ > 0) ++restarts_;

  auto log_start = std::filesystem::file_size(config_.log_path);
  auto started_at = std::chrono::steady_clock::now();
  auto hello = protocol::read_frame(from_worker_, std::chrono::steady_clock::now() + config_.start_timeout);
  if (hello.status != protocol::ReadStatus::ok || hello.message.value("type", "") != "hello") {
    std::string why = hello.status == protocol::ReadStatus::timed_out ? "did not answer in time" : "failed to start";
    kill_now();
    std::string tail = log_tail_since(log_start > 4096 ? log_start - 4096 : 0);
    throw Error("worker (" + python + ") " + why + "; its log " + config_.log_path.string() +
                " ends with:\n" + tail);
  }
  if (hello.message.value("protocol", 0) != protocol::kVersion) {
    kill_now();
    throw Error("worker speaks protocol " + hello.message.value("protocol", nlohmann::json(0)).dump() +
                ", this kforge speaks " + std::to_string(protocol::kVersion) + ": rebuild kforge");
  }
  info_ = hello.message.at("worker").get<protocol::WorkerInfo>();
  note_in_log("worker " + std::to_string(pid_) + " ready after " + seconds_since(started_at) + " s");
}

std::string WorkerProcess::seconds_since(std::chrono::steady_clock::time_point t0) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return text;
}

// A line of kforge's own in the worker's log, beside what the worker printed: start-up and
// shut-down times, which the wall-time benchmark reads.
void WorkerProcess::note_in_log(const std::string& line) const {
  std::ofstream log(config_.log_path, std::ios::app);
  log << "kforge: " << line << '\n';
}

namespace {

std::string random_nonce() {
  std::random_device entropy;  // the OS entropy source
  uint64_t v = (static_cast<uint64_t>(entropy()) << 32) ^ entropy();
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

JobOutcome WorkerProcess::run(const protocol::EvalJob& job, std::chrono::seconds deadline) {
  JobOutcome outcome;
  ensure_started();
  std::error_code ec;
  auto log_offset = std::filesystem::file_size(config_.log_path, ec);
  // A fresh secret per job, echoed by the worker's C++ job loop: a candidate that writes a result
  // frame of its own into the pipe (the protocol is public) cannot know it.
  const std::string nonce = random_nonce();
  // The candidate runs in a process of its own, which the reference process watches with these bounds.
  protocol::EvalJob bounded = job;
  bounded.host_memory_bytes = config_.host_memory_bytes;
  bounded.cpu_cores = config_.cpu_cores;
  if (!protocol::write_frame(to_worker_, {{"type", "eval"}, {"nonce", nonce}, {"job", bounded}})) {
    outcome.failure = JobFailure::crashed;
    outcome.detail = "the worker " + describe_exit() + " before taking the job";
    return outcome;
  }
  protocol::ReadResult reply;
  ResourceWatch::Tripped tripped = ResourceWatch::Tripped::none;
  std::string passed;  // what passed which bound, where one tripped
  {
    ResourceBounds bounds;
    bounds.host_memory_bytes = config_.host_memory_bytes;
    bounds.cpu_cores = config_.cpu_cores;
    ResourceWatch watch(pid_, bounds);
    reply = protocol::read_frame(from_worker_, std::chrono::steady_clock::now() + deadline);
    tripped = watch.tripped();
    passed = watch.what_passed();
  }
  if (tripped != ResourceWatch::Tripped::none) {
    outcome.failure = tripped == ResourceWatch::Tripped::host_memory ? JobFailure::host_memory : JobFailure::cpu_share;
    outcome.detail = "the worker's " + passed + "; the worker was killed";
    kill_now();
    return outcome;
  }
  switch (reply.status) {
    case protocol::ReadStatus::ok:
      try {
        if (reply.message.value("type", "") != "result") throw std::runtime_error("unexpected message type");
        if (reply.message.value("nonce", std::string()) != nonce) {
          outcome.failure = JobFailure::forged;
          outcome.detail = "a result frame without this job's secret reached kforge's result pipe: something "
                           "other than the worker's own code wrote it; the worker was restarted";
          kill_now();
          return outcome;
        }
        outcome.result = reply.message.at("result").get<protocol::JobResult>();
        if (outcome.result.worker_must_restart) kill_now();
        return outcome;
      } catch (const std::exception& e) {
        outcome.failure = JobFailure::protocol;
        outcome.detail = std::string("the worker sent a malformed result (") + e.what() + ")";
      }
      break;
    case protocol::ReadStatus::timed_out:
      outcome.failure = JobFailure::timeout;
      outcome.detail = "no result within " + std::to_string(deadline.count()) + " s; the worker was killed";
      kill_now();
      return outcome;
    case protocol::ReadStatus::closed:
      outcome.failure = JobFailure::crashed;
      outcome.detail = "the worker " + describe_exit() + " during the job";
      break;
    case protocol::ReadStatus::malformed:
      outcome.failure = JobFailure::protocol;
      outcome.detail = "the worker sent a malformed frame (" + reply.error + ")";
      break;
  }
  kill_now();
  std::string tail = log_tail_since(log_offset);
  if (!tail.empty()) outcome.detail += "; its output ended with: " + tail;
  return outcome;
}

std::string WorkerProcess::describe_exit() {
  if (pid_ <= 0) return "was not running";
  int status = 0;
  // The pipe closed: the process is gone or going. Give it a moment to be reaped.
  for (int i = 0; i < 50; ++i) {
    pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      pid_ = -1;
      close_fd(to_worker_);
      close_fd(from_worker_);
      if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
      if (WIFSIGNALED(status))
        return std::string("was killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
               ::strsignal(WTERMSIG(status)) + ")";
      return "ended";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return "closed its result channel";
}

std::string WorkerProcess::log_tail_since(std::uintmax_t offset) const {
  std::ifstream in(config_.log_path, std::ios::binary);
  if (!in) return {};
  in.seekg(0, std::ios::end);
  auto size = static_cast<std::uintmax_t>(in.tellg());
  constexpr std::uintmax_t kMax = 1500;
  if (size <= offset) return {};
  auto from = std::max(offset, size > kMax ? size - kMax : 0);
  in.seekg(static_cast<std::streamoff>(from));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

void WorkerProcess::kill_now() {
  if (pid_ > 0) {
    ::kill(-pid_, SIGKILL);  // the whole group: the worker and anything a candidate spawned
    ::kill(pid_, SIGKILL);
    int status;
    ::waitpid(pid_, &status, 0);
  }
  pid_ = -1;
  close_fd(to_worker_);
  close_fd(from_worker_);
  if (!scratch_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(scratch_, ec);
    scratch_.clear();
  }
}

void WorkerProcess::stop() {
  if (pid_ > 0 && to_worker_ >= 0) {
    auto asked_at = std::chrono::steady_clock::now();
    pid_t pid = pid_;
    protocol::write_frame(to_worker_, {{"type", "shutdown"}});
    close_fd(to_worker_);
    for (int i = 0; i < 400; ++i) {  // up to 2 s for a clean exit (frees the GPU context)
      int status;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        note_in_log("worker " + std::to_string(pid) + " stopped after " + seconds_since(asked_at) + " s");
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  kill_now();
}

}  // namespace kforge
