// planner/job_queue.hpp: the earliest ready job first, a job waiting for its build taken only once
// it is built (while the workers wait, not spin), and nothing more taken once the builds failed.
#include "planner/job_queue.hpp"

#include <chrono>
#include <future>

#include <gtest/gtest.h>

namespace kforge {
namespace {

using namespace std::chrono_literals;

TEST(JobQueue, TakesTheEarliestReadyJobAndWaitsForABuild) {
  JobQueue queue(3, [](size_t i) { return i == 0; });  // job 0 waits for its build
  EXPECT_EQ(queue.take(), std::optional<size_t>(1));
  EXPECT_EQ(queue.take(), std::optional<size_t>(2));
  auto third = std::async(std::launch::async, [&] { return queue.take(); });
  EXPECT_EQ(third.wait_for(200ms), std::future_status::timeout) << "a job was taken before its build was done";
  queue.mark_ready(0);
  ASSERT_EQ(third.wait_for(2s), std::future_status::ready);
  EXPECT_EQ(third.get(), std::optional<size_t>(0));
  EXPECT_EQ(queue.take(), std::nullopt);  // every job taken
}

TEST(JobQueue, ABuiltJobGoesBeforeALaterOne) {
  JobQueue queue(3, [](size_t i) { return i < 2; });
  queue.mark_ready(1);
  EXPECT_EQ(queue.take(), std::optional<size_t>(1));
  queue.mark_ready(0);
  EXPECT_EQ(queue.take(), std::optional<size_t>(0));  // plan order among the ready ones
  EXPECT_EQ(queue.take(), std::optional<size_t>(2));
}

// What the worker is told of its next job (worker/reference_twin.hpp keeps its twins for it):
// the job take() would return now, a job still building where none is ready, nothing at the end.
TEST(JobQueue, TheNextJobIsTheOneTakeWouldReturn) {
  JobQueue queue(3, [](size_t i) { return i == 1; });  // job 1 waits for its build
  EXPECT_EQ(queue.next_to_take(), std::optional<size_t>(0));
  EXPECT_EQ(queue.take(), std::optional<size_t>(0));
  EXPECT_EQ(queue.next_to_take(), std::optional<size_t>(2));  // built before job 1
  EXPECT_EQ(queue.take(), std::optional<size_t>(2));
  EXPECT_EQ(queue.next_to_take(), std::optional<size_t>(1));  // none ready: the one building
  queue.mark_ready(1);
  EXPECT_EQ(queue.take(), std::optional<size_t>(1));
  EXPECT_EQ(queue.next_to_take(), std::nullopt);
  JobQueue failed(2, [](size_t) { return true; });
  failed.close(false);
  EXPECT_EQ(failed.next_to_take(), std::nullopt);  // none more is taken
}

TEST(JobQueue, FailedBuildsEndEveryWait) {
  JobQueue queue(2, [](size_t) { return true; });
  auto waiting = std::async(std::launch::async, [&] { return queue.take(); });
  EXPECT_EQ(waiting.wait_for(100ms), std::future_status::timeout);
  queue.close(false);
  ASSERT_EQ(waiting.wait_for(2s), std::future_status::ready);
  EXPECT_EQ(waiting.get(), std::nullopt);
  EXPECT_EQ(queue.take(), std::nullopt);
}

TEST(JobQueue, BuildsDoneReleaseEveryJob) {
  JobQueue queue(2, [](size_t) { return true; });
  queue.close(true);
  EXPECT_EQ(queue.take(), std::optional<size_t>(0));
  EXPECT_EQ(queue.take(), std::optional<size_t>(1));
  EXPECT_EQ(queue.take(), std::nullopt);
}

}  // namespace
}  // namespace kforge
