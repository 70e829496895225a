// worker/gpu_turns.hpp on a real lock file: several GpuTurns in one process, each on a descriptor
// of its own (flock treats separately opened descriptors as separate holders), take turns as the
// workers sharing a GPU do; and pool/worker_process.hpp's read_job_reply moves a job's deadline by
// the waits a worker reports.
#include "worker/gpu_turns.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "pool/worker_process.hpp"
#include "protocol/frame.hpp"
#include "support/temp_dir.hpp"

namespace kforge::worker {
namespace {

using namespace std::chrono_literals;
using Turn = GpuTurns::Turn;

class GpuTurnsTest : public ::testing::Test {
 protected:
  // A descriptor of its own on the GPU's lock file, as kforge opens one per worker.
  int open_lock() {
    int fd = ::open((dir_.path() / "gpu-0.turns").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    EXPECT_GE(fd, 0);
    fds_.push_back(fd);
    return fd;
  }
  void TearDown() override {
    for (int fd : fds_) ::close(fd);
  }

  // Whether `turn` is taken within `wait` (the take goes on in the background either way, and
  // the test's end waits for it: give the other turns up first).
  static bool taken_within(std::future<double>& take, std::chrono::milliseconds wait) {
    return take.wait_for(wait) == std::future_status::ready;
  }

  kforge::testing::TempDir dir_;
  std::vector<int> fds_;
};

TEST_F(GpuTurnsTest, SharedTurnsHoldTogether) {
  GpuTurns a(open_lock()), b(open_lock());
  a.take(Turn::shared);
  auto b_shared = std::async(std::launch::async, [&] { return b.take(Turn::shared); });
  EXPECT_TRUE(taken_within(b_shared, 2000ms)) << "a shared turn waited for another shared turn";
  a.take(Turn::none);
  b_shared.wait();
  EXPECT_EQ(b.held(), Turn::shared);
}

TEST_F(GpuTurnsTest, QuietWaitsForEveryOtherTurnAndEveryTurnWaitsForQuiet) {
  GpuTurns a(open_lock()), b(open_lock());
  a.take(Turn::shared);
  auto b_quiet = std::async(std::launch::async, [&] { return b.take(Turn::quiet); });
  EXPECT_FALSE(taken_within(b_quiet, 300ms)) << "a quiet turn began while another worker held a shared one";
  a.take(Turn::none);
  ASSERT_TRUE(taken_within(b_quiet, 2000ms)) << "the quiet turn did not come once the other worker gave its turn up";
  EXPECT_GE(b_quiet.get(), 0.25);  // it waited for the shared turn

  auto a_shared = std::async(std::launch::async, [&] { return a.take(Turn::shared); });
  EXPECT_FALSE(taken_within(a_shared, 300ms)) << "a shared turn began during another worker's quiet one";
  b.take(Turn::shared);  // from quiet to shared: the other's shared turn may begin
  EXPECT_TRUE(taken_within(a_shared, 2000ms));
  a_shared.wait();

  auto a_quiet = std::async(std::launch::async, [&] { return a.take(Turn::quiet); });
  EXPECT_FALSE(taken_within(a_quiet, 300ms)) << "a quiet turn began while another worker held a shared one";
  b.take(Turn::none);
  EXPECT_TRUE(taken_within(a_quiet, 2000ms));
  a_quiet.wait();
}

TEST_F(GpuTurnsTest, TheWorkerStopsBeforeItsTurnIsLetGoAndGoesOnOnlyWithATurn) {
  GpuTurns a(open_lock());
  const int probe = open_lock();  // another worker's descriptor, asking without waiting
  int given_up = 0, gone_on = 0;
  bool held_while_giving_up = true;
  a.set_hooks({[&] {
                 ++given_up;
                 // Still held while the worker finishes its work: no other worker's quiet turn yet.
                 if (a.held() != Turn::none && ::flock(probe, LOCK_EX | LOCK_NB) == 0) {
                   held_while_giving_up = false;
                   ::flock(probe, LOCK_UN);
                 }
               },
               [&] { ++gone_on; }});
  a.take(Turn::shared);
  a.take(Turn::shared);  // no change, nothing done
  a.take(Turn::quiet);
  a.take(Turn::shared);
  a.take(Turn::none);
  EXPECT_EQ(given_up, 4);
  EXPECT_EQ(gone_on, 3);  // shared, quiet, shared: not for none
  EXPECT_TRUE(held_while_giving_up) << "another worker could take the quiet turn before this one's work was finished";
}

TEST_F(GpuTurnsTest, WaitsAreReportedWhileTheyLastWithTheJobsSecret) {
  GpuTurns a(open_lock()), b(open_lock());
  int pipe_fds[2];
  ASSERT_EQ(::pipe2(pipe_fds, O_CLOEXEC), 0);
  b.report_waits_to(pipe_fds[1], "job-secret");
  a.take(Turn::quiet);
  auto b_shared = std::async(std::launch::async, [&] { return b.take(Turn::shared); });
  // While b waits, its first report comes after a second: kforge hears of the wait before it ends.
  protocol::ReadResult first = protocol::read_frame(pipe_fds[0], std::chrono::steady_clock::now() + 3s);
  ASSERT_EQ(first.status, protocol::ReadStatus::ok);
  EXPECT_FALSE(taken_within(b_shared, 0ms));
  a.take(Turn::none);
  const double waited = b_shared.get();
  protocol::ReadResult rest = protocol::read_frame(pipe_fds[0], std::chrono::steady_clock::now() + 3s);
  ASSERT_EQ(rest.status, protocol::ReadStatus::ok);
  double reported = 0;
  for (const auto& frame : {first.message, rest.message}) {
    EXPECT_EQ(frame.value("type", ""), "waited");
    EXPECT_EQ(frame.value("nonce", ""), "job-secret");
    reported += frame.value("s", 0.0);
  }
  EXPECT_NEAR(reported, waited, 0.05);
  EXPECT_GE(reported, 1.0);
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
}

TEST_F(GpuTurnsTest, OnlyAnInheritedLockFileMakesTurns) {
  ::unsetenv("KFORGE_WORKER_GPU_TURNS");
  EXPECT_EQ(GpuTurns::from_environment(), nullptr);
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  ::setenv("KFORGE_WORKER_GPU_TURNS", std::to_string(pipe_fds[0]).c_str(), 1);
  EXPECT_EQ(GpuTurns::from_environment(), nullptr) << "a pipe is no lock file";
  ::setenv("KFORGE_WORKER_GPU_TURNS", "5x", 1);
  EXPECT_EQ(GpuTurns::from_environment(), nullptr);
  const int lock = ::dup(open_lock());  // as dup2 leaves it: inherited, without close-on-exec
  ::setenv("KFORGE_WORKER_GPU_TURNS", std::to_string(lock).c_str(), 1);
  {
    auto turns = GpuTurns::from_environment();
    ASSERT_NE(turns, nullptr);
    EXPECT_TRUE(::fcntl(lock, F_GETFD) & FD_CLOEXEC) << "a program the worker starts would inherit the lock";
  }
  ::unsetenv("KFORGE_WORKER_GPU_TURNS");
  ::close(lock);
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
}

}  // namespace
}  // namespace kforge::worker

namespace kforge {
namespace {

using namespace std::chrono_literals;

// A worker's answer comes after the job's deadline, but it reported waiting on the GPU's turns
// meanwhile: the deadline moved, the answer is read. A wait reported with another job's secret
// moves nothing.
TEST(ReadJobReply, ReportedWaitsMoveTheDeadline) {
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_CLOEXEC), 0);
  std::thread worker([&] {
    std::this_thread::sleep_for(100ms);
    protocol::write_frame(fds[1], {{"type", "waited"}, {"nonce", "n"}, {"s", 1.0}});
    std::this_thread::sleep_for(700ms);  // past the first deadline (0.5 s), within the moved one
    protocol::write_frame(fds[1], {{"type", "result"}, {"nonce", "n"}});
  });
  std::chrono::duration<double> moved{0};
  protocol::ReadResult reply = read_job_reply(fds[0], std::chrono::steady_clock::now() + 500ms, "n", &moved);
  worker.join();
  ASSERT_EQ(reply.status, protocol::ReadStatus::ok);
  EXPECT_EQ(reply.message.value("type", ""), "result");
  EXPECT_DOUBLE_EQ(moved.count(), 1.0);
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST(ReadJobReply, AWaitOfAnotherJobIsTheAnswer) {
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_CLOEXEC), 0);
  protocol::write_frame(fds[1], {{"type", "waited"}, {"nonce", "other"}, {"s", 30.0}});
  std::chrono::duration<double> moved{0};
  protocol::ReadResult reply = read_job_reply(fds[0], std::chrono::steady_clock::now() + 500ms, "n", &moved);
  ASSERT_EQ(reply.status, protocol::ReadStatus::ok);
  EXPECT_EQ(reply.message.value("nonce", ""), "other");  // not a wait of this job's: run() rejects it
  EXPECT_EQ(moved.count(), 0.0);
  // And without a frame the deadline holds.
  reply = read_job_reply(fds[0], std::chrono::steady_clock::now() + 200ms, "n", &moved);
  EXPECT_EQ(reply.status, protocol::ReadStatus::timed_out);
  ::close(fds[0]);
  ::close(fds[1]);
}

}  // namespace
}  // namespace kforge
