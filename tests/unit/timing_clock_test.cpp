// Which clock a comparison uses: events, unless the candidate's events miss part of its work.
#include "metrics/timing_clock.hpp"

#include <gtest/gtest.h>

namespace kforge::stats {
namespace {

TEST(TimingClock, EventsWhenBothSidesShowTheSameOverhead) {
  // 1.0 ms by events, 1.02 by host on both sides: the 20 us are launch and sync overhead.
  std::vector<double> ref_ev(20, 1.0), ref_host(20, 1.02), cand_ev(20, 0.5), cand_host(20, 0.521);
  auto c = choose_clock(ref_ev, cand_ev, ref_host, cand_host);
  EXPECT_FALSE(c.host);
  EXPECT_NEAR(c.unseen_ms, 0.001, 1e-9);
}

TEST(TimingClock, HostWhenTheCandidatesEventsMissItsWork) {
  // A side stream: the events on the current stream see 0.01 ms, the host clock 1.03 ms.
  std::vector<double> ref_ev(20, 1.0), ref_host(20, 1.02), cand_ev(20, 0.01), cand_host(20, 1.03);
  auto c = choose_clock(ref_ev, cand_ev, ref_host, cand_host);
  EXPECT_TRUE(c.host);
  EXPECT_NEAR(c.unseen_ms, 1.0, 1e-9);
}

TEST(TimingClock, NoHostSamplesMeansEvents) {
  EXPECT_FALSE(choose_clock({1.0}, {0.1}, {}, {}).host);
}

}  // namespace
}  // namespace kforge::stats

namespace kforge::stats {
namespace {

// A candidate's process that reports its calls as they took, give or take the request's jitter,
// is believed; one that reports less than kforge's clock saw, by more than the slack, is not.
TEST(TimingBound, HonestReportsAreBelieved) {
  std::vector<double> host(40, 2.0), bound(40, 2.1);  // 0.1 ms of delivery jitter per call
  EXPECT_FALSE(choose_bound(host, bound).use_bound);
  EXPECT_NEAR(choose_bound(host, bound).excess_ms, 0.1, 1e-12);
}

TEST(TimingBound, ShortReportsAreReplaced) {
  std::vector<double> host(40, 0.5), bound(40, 2.0);  // 1.5 ms of every call left unreported
  BoundChoice choice = choose_bound(host, bound);
  EXPECT_TRUE(choice.use_bound);
  EXPECT_NEAR(choice.excess_ms, 1.5, 1e-12);
}

TEST(TimingBound, TheSlackGrowsWithTheCall) {
  // 0.4 ms short: past the 0.25 ms floor, but within 10% of a 5 ms call and not of a 3 ms one.
  EXPECT_FALSE(choose_bound(std::vector<double>(20, 5.0), std::vector<double>(20, 5.4)).use_bound);
  EXPECT_TRUE(choose_bound(std::vector<double>(20, 3.0), std::vector<double>(20, 3.4)).use_bound);
}

TEST(TimingBound, MismatchedOrEmptySamplesChangeNothing) {
  EXPECT_FALSE(choose_bound({}, {}).use_bound);
  EXPECT_FALSE(choose_bound({1.0, 1.0}, {5.0}).use_bound);
}

}  // namespace
}  // namespace kforge::stats
