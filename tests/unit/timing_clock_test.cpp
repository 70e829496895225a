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

// Against the reference twin: deliveries alike are believed whatever the calibration said; a
// candidate whose requests took longer than the twin's beyond its reports is charged the excess.
TEST(TimingBound, AgainstTheTwinHonestDeliveriesAreBelieved) {
  std::vector<double> host(40, 0.1), cand(40, 0.35), twin(40, 0.33);  // 0.02 ms apart
  BoundChoice choice = choose_bound_against_twin(host, cand, twin);
  EXPECT_FALSE(choice.use_bound);
  EXPECT_FALSE(choice.undecided());
  EXPECT_NEAR(choice.excess_ms, 0.02, 1e-12);
}

TEST(TimingBound, AgainstTheTwinAForgedClockIsCharged) {
  // A 0.25 ms call reported as 0.02 ms: within the calibration's 0.25 ms slack, not the twin's.
  std::vector<double> host(40, 0.02), cand(40, 0.35 + 0.23), twin(40, 0.35);
  BoundChoice choice = choose_bound_against_twin(host, cand, twin);
  EXPECT_TRUE(choice.use_bound);
  EXPECT_FALSE(choice.undecided()) << "charged is decided";
  EXPECT_NEAR(choice.excess_ms, 0.23, 1e-12);
  EXPECT_FALSE(choose_bound(host, std::vector<double>(40, 0.02 + 0.23)).use_bound) << "the calibration's rule would believe it";
}

TEST(TimingBound, AgainstTheTwinTheSlackGrowsWithTheCall) {
  // 0.3 ms more: within 5% of a 10 ms call, not of a 2 ms one.
  std::vector<double> twin(20, 0.3), cand(20, 0.6);
  EXPECT_FALSE(choose_bound_against_twin(std::vector<double>(20, 10.0), cand, twin).use_bound);
  EXPECT_NEAR(choose_bound_against_twin(std::vector<double>(20, 10.0), cand, twin).limit_ms, 0.5, 1e-12);
  EXPECT_NEAR(choose_bound_against_twin(std::vector<double>(20, 0.1), cand, twin).limit_ms, kTwinSlackMs, 1e-12);
  EXPECT_NEAR(choose_bound(std::vector<double>(20, 10.0), std::vector<double>(20, 10.1)).limit_ms, 1.0, 1e-12);
  EXPECT_TRUE(choose_bound_against_twin(std::vector<double>(20, 2.0), cand, twin).use_bound);
  EXPECT_FALSE(choose_bound_against_twin({}, {}, twin).use_bound);
  EXPECT_FALSE(choose_bound_against_twin({1.0}, {0.5}, {}).use_bound);
}

TEST(TimingBound, AgainstTheTwinALoadedMachinesSwingIsNotCharged) {
  // Pairs whose deliveries swing by up to +-0.4 ms under load, each side on its own, a median
  // excess of 0.1 ms among them: within three standard errors of the median, so an honest
  // candidate is not charged.
  std::vector<double> host(40, 0.2), twin, cand;
  for (int i = 0; i < 40; ++i) {
    cand.push_back(0.4 + 0.1 + (i % 2 ? 0.4 : -0.4) * (1 + i % 5) / 5);
    twin.push_back(0.4 + (i % 3 ? 0.4 : -0.4) * (1 + i % 7) / 7);
  }
  BoundChoice choice = choose_bound_against_twin(host, cand, twin);
  EXPECT_GT(choice.excess_ms, 0.05);
  EXPECT_FALSE(choice.use_bound) << choice.excess_ms;
  EXPECT_GT(choice.standard_error_ms, 0.0);
  EXPECT_NEAR(choice.limit_ms, kTwinStandardErrors * choice.standard_error_ms, 1e-12) << "the swing sets the limit";
  EXPECT_TRUE(choice.undecided()) << "past the slack, within the swing: the timing takes more pairs";
  // The same excess without the swing is charged.
  EXPECT_TRUE(choose_bound_against_twin(host, std::vector<double>(40, 0.5), std::vector<double>(40, 0.4)).use_bound);
}

// A forger that scatters its reports widens the spread of its own deliveries, not the twin's: the
// allowance follows the twin's, and a 0.2 ms median excess under a +-0.8 ms scatter of its own
// making is charged on a quiet machine (the twin's deliveries steady).
TEST(TimingBound, AgainstTheTwinAScatterOfTheCandidatesOwnIsNoCover) {
  std::vector<double> host(40, 1.0), twin(40, 0.4), cand;
  for (int i = 0; i < 40; ++i) cand.push_back(0.4 + 0.2 + (i % 2 ? 0.8 : -0.8) * (1 + i % 5) / 5);
  const BoundChoice choice = choose_bound_against_twin(host, cand, twin);
  EXPECT_NEAR(choice.excess_ms, 0.2, 0.2);
  EXPECT_TRUE(choice.use_bound) << choice.excess_ms << " against a limit of " << choice.limit_ms;
  EXPECT_NEAR(choice.limit_ms, kTwinSlackMs, 1e-12);
}

TEST(TimingBound, MismatchedOrEmptySamplesChangeNothing) {
  EXPECT_FALSE(choose_bound({}, {}).use_bound);
  EXPECT_FALSE(choose_bound({1.0, 1.0}, {5.0}).use_bound);
}

}  // namespace
}  // namespace kforge::stats
