// run_process: output reaches the caller while the process runs (so a long tool's results are kept
// when it is stopped), and a deadline kills it.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace kforge::build
