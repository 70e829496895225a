// run_process: output reaches the caller while the process runs (so a long tool's results are kept
// when it is stopped), and a deadline kills it.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include "build/subprocess.hpp"

namespace kforge::build {
namespace {

using Clock = std::chrono::steady_clock;

TEST(Subprocess, OutputArrivesBeforeTheProcessEnds) {
  std::string seen;
  double first_at = -1;
  auto t0 = Clock::now();
  auto r = run_process({"sh", "-c", "echo first; sleep 30; echo never"}, std::chrono::seconds(2), 1 << 20, "",
                       [&](std::string_view chunk) {
                         if (first_at < 0) first_at = std::chrono::duration<double>(Clock::now() - t0).count();
                         seen.append(chunk);
                       });
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(seen, "first\n");
  EXPECT_EQ(r.output, "first\n");
  EXPECT_GE(first_at, 0.0);
  EXPECT_LT(first_at, 1.5);  // long before the deadline, let alone the sleep
}

TEST(Subprocess, ACallbackThatThrowsLeavesNoProcessBehind) {
  auto t0 = Clock::now();
  EXPECT_THROW(run_process({"sh", "-c", "echo x; sleep 30"}, std::chrono::seconds(20), 1 << 20, "",
                           [](std::string_view) { throw std::runtime_error("stop"); }),
               std::runtime_error);
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 10.0);
}

// A process that ends leaves nothing of its group behind: a compiler run for a candidate's flags
// (or a prebuild's import) could otherwise start a daemon that outlives its build, burning the
// CPUs or the GPU while later candidates are timed. The shell prints its pid, its group's id; the
// first background sleep keeps the output open, which must not hold the call until its deadline.
TEST(Subprocess, WhatAProcessLeftInItsGroupEndsWithIt) {
  const auto t0 = Clock::now();
  auto r = run_process({"sh", "-c", "echo $$; (sleep 30 &); (sleep 31 >/dev/null 2>&1 &); echo started"},
                       std::chrono::seconds(20));
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 5.0) << "waited for the background sleep";
  ASSERT_FALSE(r.timed_out) << r.output;
  ASSERT_NE(r.output.find("started"), std::string::npos) << r.output;
  const pid_t group = static_cast<pid_t>(std::stol(r.output));
  ASSERT_GT(group, 1);
  // Killed, they are gone once whoever adopted them has reaped them: moments, not the sleeps' 30 s.
  bool someone_left = true;
  for (auto until = Clock::now() + std::chrono::seconds(3); someone_left && Clock::now() < until;) {
    someone_left = ::kill(-group, 0) == 0;
    if (someone_left) ::usleep(10000);
  }
  if (someone_left) ::kill(-group, SIGKILL);
  EXPECT_FALSE(someone_left) << "the background sleep outlived its group's leader";
}

}  // namespace
}  // namespace kforge::build
