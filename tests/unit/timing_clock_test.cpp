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
