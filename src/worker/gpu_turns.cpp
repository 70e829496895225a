#include "worker/gpu_turns.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>

#include "protocol/frame.hpp"
#include "worker/phase_trace.hpp"

namespace kforge::worker {
namespace {

using Clock = std::chrono::steady_clock;

std::unique_ptr<GpuTurns>& the_turns() {
  static std::unique_ptr<GpuTurns> turns = GpuTurns::from_environment();
  return turns;
}

const char* name_of(GpuTurns::Turn turn) {
  switch (turn) {
    case GpuTurns::Turn::none: return "turn none";
    case GpuTurns::Turn::shared: return "turn shared";
    case GpuTurns::Turn::quiet: return "turn quiet";
  }
  return "turn";
}

}  // namespace

std::unique_ptr<GpuTurns> GpuTurns::from_environment() {
  const char* text = std::getenv("KFORGE_WORKER_GPU_TURNS");
  if (!text || !*text) return nullptr;
  char* end = nullptr;
  const long fd = std::strtol(text, &end, 10);
  struct stat st {};
  if (*end != '\0' || fd < 3 || ::fstat(static_cast<int>(fd), &st) != 0 || !S_ISREG(st.st_mode)) {
    std::fprintf(stderr, "kforge worker: KFORGE_WORKER_GPU_TURNS=%s is no lock file of kforge's; this worker takes no turns\n", text);
    return nullptr;
  }
  // Inherited without close-on-exec (dup2); no program this worker starts may hold it.
  ::fcntl(static_cast<int>(fd), F_SETFD, FD_CLOEXEC);
  return std::make_unique<GpuTurns>(static_cast<int>(fd));
}

GpuTurns::~GpuTurns() { ::flock(fd_, LOCK_UN); }

double GpuTurns::take(Turn turn) {
  if (turn == held_) return 0;
  if (hooks_.give_up) hooks_.give_up();
  TracedPart part(name_of(turn));
  const auto t0 = Clock::now();
  const int how = turn == Turn::none ? LOCK_UN : turn == Turn::shared ? LOCK_SH : LOCK_EX;
  if (::flock(fd_, how | LOCK_NB) != 0) wait_for(how);
  held_ = turn;
  if (turn != Turn::none && hooks_.go_on) hooks_.go_on();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

void GpuTurns::wait_for(int how) {
  // The wait is reported while it lasts, from a thread of its own (this one is blocked in flock;
  // nothing else writes the result pipe meanwhile), so kforge's deadline moves before it passes.
  std::mutex mutex;
  std::condition_variable woken;
  bool done = false;
  auto last = Clock::now();
  std::thread reporter([&] {
    std::unique_lock lock(mutex);
    while (!woken.wait_for(lock, std::chrono::seconds(1), [&] { return done; })) {
      const auto now = Clock::now();
      report(std::chrono::duration<double>(now - last).count());
      last = now;
    }
  });
  while (::flock(fd_, how) != 0) {
    if (errno == EINTR) continue;
    // Not a lock kforge can take turns on any more: go on alone, said in the log (a timing beside
    // another worker's is then as unguarded as two kforge runs on one GPU).
    std::perror("kforge worker: flock on the GPU's turns");
    break;
  }
  {
    std::lock_guard lock(mutex);
    done = true;
  }
  woken.notify_one();
  reporter.join();
  report(std::chrono::duration<double>(Clock::now() - last).count());
}

void GpuTurns::report(double seconds) const {
  if (report_fd_ < 0 || seconds <= 0) return;
  protocol::write_frame(report_fd_, {{"type", "waited"}, {"nonce", nonce_}, {"s", seconds}});
}

void GpuTurns::report_waits_to(int fd, std::string nonce) {
  report_fd_ = fd;
  nonce_ = std::move(nonce);
}

GpuTurns* gpu_turns() { return the_turns().get(); }

}  // namespace kforge::worker
