// kforge agent's search policies and feedback digests (src/agent/), on hand-made trees and records.
#include <gtest/gtest.h>

#include <random>

#include "agent/feedback.hpp"
#include "agent/search_policy.hpp"
#include "agent/stopping.hpp"

namespace kforge::agent {
namespace {

AgentNode node(int64_t id, std::optional<int64_t> parent, const std::string& role, const std::string& verdict,
               std::optional<double> speedup = std::nullopt, bool kernel_win = true) {
  AgentNode n;
  n.id = id;
  n.parent_id = parent;
  n.role = role;
  n.verdict = verdict;
  n.speedup = speedup;
  n.kernel_win = kernel_win;
  if (verdict != "no_code" && verdict != "call_failed") n.candidate_path = "attempt" + std::to_string(id) + ".cpp";
  return n;
}

ProblemSearch search_of(std::vector<AgentNode> nodes) {
  ProblemSearch s;
  s.nodes = std::move(nodes);
  return s;
}

TEST(AgentSearchTree, TheBestIsTheFastestKernelWinAndARegressionNeverReplacesIt) {
  auto s = search_of({node(1, {}, "coder", "correct", 1.5), node(2, 1, "refiner", "correct", 3.0, false),
                      node(3, 1, "refiner", "correct", 2.0), node(4, 3, "refiner", "correct", 1.2)});
  ASSERT_TRUE(s.best());
  EXPECT_EQ(*s.best(), 2u) << "2.0x of its own kernels beats 3.0x in library kernels";
  EXPECT_EQ(s.attempts_since_best(), 1);
  auto none = search_of({node(1, {}, "coder", "compile_error")});
  EXPECT_FALSE(none.best());
  EXPECT_EQ(none.attempts_since_best(), 1);
}

TEST(AgentPolicies, SerialFollowsTheLatestFixesFailuresAndGoesBackToTheBestAfterARegression) {
  PolicyOptions o;
  o.debug_limit = 2;
  auto serial = make_policy("serial", o);
  std::mt19937_64 rng(1);
  auto first = serial->propose(search_of({}), rng);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].role, Role::coder);
  EXPECT_FALSE(first[0].parent);

  auto failed = serial->propose(search_of({node(1, {}, "coder", "compile_error")}), rng);
  EXPECT_EQ(failed[0].role, Role::debugger);
  EXPECT_EQ(failed[0].parent, 0u);

  // Two fixes in a row already on this line: back to a fresh start (nothing correct yet).
  auto stuck = serial->propose(
      search_of({node(1, {}, "coder", "compile_error"), node(2, 1, "debugger", "incorrect"), node(3, 2, "debugger", "incorrect")}), rng);
  EXPECT_EQ(stuck[0].role, Role::coder);
  EXPECT_FALSE(stuck[0].parent);

  auto regression = serial->propose(search_of({node(1, {}, "coder", "correct", 2.0), node(2, 1, "refiner", "correct", 1.1)}), rng);
  EXPECT_EQ(regression[0].role, Role::refiner);
  EXPECT_EQ(regression[0].parent, 0u);

  auto improving = serial->propose(search_of({node(1, {}, "coder", "correct", 1.0), node(2, 1, "refiner", "correct", 1.4)}), rng);
  EXPECT_EQ(improving[0].parent, 1u);
}

TEST(AgentPolicies, MetrSeedsFirstThenDrawsParentsBySpeedup) {
  PolicyOptions o;
  o.seeds = 3;
  o.width = 4;
  auto metr = make_policy("metr", o);
  std::mt19937_64 rng(7);
  auto seeds = metr->propose(search_of({node(1, {}, "coder", "incorrect")}), rng);
  ASSERT_EQ(seeds.size(), 2u) << "three fresh starts in all, one made";
  for (const auto& p : seeds) EXPECT_FALSE(p.parent);

  // A 9x parent against a 0.1x one: drawn far more often, and only correct ones are drawn.
  auto s = search_of({node(1, {}, "coder", "correct", 9.0), node(2, {}, "coder", "correct", 0.1),
                      node(3, {}, "coder", "runtime_error")});
  int fast = 0, total = 0;
  for (int round = 0; round < 50; ++round)
    for (const auto& p : metr->propose(s, rng)) {
      ASSERT_TRUE(p.parent);
      EXPECT_NE(*p.parent, 2u) << "a failure is not drawn while something is correct";
      EXPECT_EQ(p.role, Role::refiner);
      fast += *p.parent == 0;
      ++total;
    }
  EXPECT_GT(fast, total * 9 / 10);

  // Nothing correct: the failures that wrote code are drawn, to be fixed.
  auto failing = metr->propose(search_of({node(1, {}, "coder", "incorrect"), node(2, {}, "coder", "compile_error"),
                                          node(3, {}, "coder", "no_code")}), rng);
  for (const auto& p : failing) {
    EXPECT_EQ(p.role, Role::debugger);
    EXPECT_NE(p.parent, 2u);
  }
  // Only answers without code: fresh starts.
  auto nothing = metr->propose(search_of({node(1, {}, "coder", "no_code"), node(2, {}, "coder", "call_failed"),
                                          node(3, {}, "coder", "no_code")}), rng);
  for (const auto& p : nothing) EXPECT_EQ(p.role, Role::coder);
}

TEST(AgentPolicies, BeamRefinesTheTopParentsInTwoDirectionsEach) {
  PolicyOptions o;
  o.beam = 2;
  auto beam = make_policy("beam", o);
  std::mt19937_64 rng(1);
  auto s = search_of({node(1, {}, "coder", "correct", 1.2), node(2, {}, "coder", "correct", 2.5),
                      node(3, {}, "coder", "correct", 1.9), node(4, {}, "coder", "incorrect")});
  auto out = beam->propose(s, rng);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].parent, 1u);
  EXPECT_EQ(out[1].parent, 1u);
  EXPECT_EQ(out[2].parent, 2u);
  EXPECT_NE(out[0].direction, out[1].direction);
  for (const auto& p : out) EXPECT_EQ(p.role, Role::refiner);
}

TEST(AgentPolicies, ChainsStartAPopulationThenStepEachChainSerially) {
  PolicyOptions o;
  o.width = 3;
  o.debug_limit = 1;
  auto chains = make_policy("chains", o);
  std::mt19937_64 rng(1);
  auto start = chains->propose(search_of({}), rng);
  ASSERT_EQ(start.size(), 3u);
  for (const auto& p : start) EXPECT_FALSE(p.parent);

  // Chain 1 (root #1) improved at #4; chain 2 (root #2) regressed at #5; chain 3 (root #3) failed
  // at its root and was fixed once without success at #6.
  auto s = search_of({node(1, {}, "coder", "correct", 1.2), node(2, {}, "coder", "correct", 1.5),
                      node(3, {}, "coder", "compile_error"), node(4, 1, "refiner", "correct", 1.4),
                      node(5, 2, "refiner", "correct", 1.1), node(6, 3, "debugger", "incorrect")});
  auto out = chains->propose(s, rng);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].parent, 3u) << "chain 1 goes on from its latest, #4";
  EXPECT_EQ(out[0].role, Role::refiner);
  EXPECT_EQ(out[1].parent, 1u) << "chain 2 goes back to its own best, #2";
  EXPECT_EQ(out[1].role, Role::refiner);
  EXPECT_FALSE(out[2].parent) << "chain 3 is stuck: a fresh start, not another chain's best";
  EXPECT_EQ(out[2].role, Role::coder);
}

TEST(AgentPolicies, AnUnknownPolicyNamesTheKnownOnes) {
  try {
    make_policy("greedy", {});
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("beam, chains, metr, serial"), std::string::npos) << e.what();
  }
}

EvaluationRecord correct_record(const std::string& message) {
  EvaluationRecord r;
  r.verdict = Verdict::correct;
  r.trials_passed = r.trials_total = 5;
  r.speedup = 1.8;
  r.speedup_ci = stats::Interval{1.7, 1.9};
  r.ref_ms = 1.8;
  r.cand_ms = 1.0;
  r.message = message;
  return r;
}

TEST(AgentFeedback, ACorrectAttemptsDigestHasItsSpeedupKernelsAndSpeedOfLight) {
  auto f = evaluation_feedback(correct_record("5/5 trials passed; 40 timed pairs; kernels: 1 own, 1 library (candidate.so: 1, "
                                              "libtorch_cuda.so: 1); own 80% of GPU time; SM clock 1980-1980 MHz; memory "
                                              "speed of light 0.7 ms (70% of it reached)"),
                               2.0);
  EXPECT_TRUE(f.kernel_win);
  ASSERT_TRUE(f.own_share && f.sol_share);
  EXPECT_DOUBLE_EQ(*f.own_share, 0.8);
  EXPECT_DOUBLE_EQ(*f.sol_share, 0.7);
  EXPECT_NE(f.digest.find("speedup over PyTorch eager: 1.800x [95% interval 1.700, 1.900]"), std::string::npos) << f.digest;
  EXPECT_NE(f.digest.find("speedup over torch.compile: 2.000x"), std::string::npos) << f.digest;
  EXPECT_NE(f.digest.find("kernels: 1 own, 1 library (candidate.so: 1, libtorch_cuda.so: 1); own 80% of GPU time\n"),
            std::string::npos) << f.digest;
  EXPECT_NE(f.digest.find("70% of the memory speed of light reached: bandwidth-bound"), std::string::npos) << f.digest;
}

// The per-problem stopping rules, each on its own: the attempts budget, a plateau after the best,
// and the best's speed-of-light share as its digest states it (the judge's message, through
// evaluation_feedback, as the loop stores it).
TEST(AgentStopping, EachBudgetEndsAProblemsSearchWithItsReason) {
  Budgets budgets;
  budgets.attempts = 4;
  auto going = search_of({node(1, {}, "coder", "correct", 1.2), node(2, 1, "refiner", "correct", 1.5)});
  EXPECT_FALSE(stop_reason(going, budgets));
  going.nodes.push_back(node(3, 2, "refiner", "incorrect"));
  going.nodes.push_back(node(4, 2, "refiner", "correct", 1.4));
  EXPECT_EQ(stop_reason(going, budgets), "4 attempts");

  budgets.attempts = 100;
  budgets.plateau = 2;
  auto flat = search_of({node(1, {}, "coder", "correct", 1.5), node(2, 1, "refiner", "correct", 1.4)});
  EXPECT_FALSE(stop_reason(flat, budgets)) << "one attempt since the best";
  flat.nodes.push_back(node(3, 1, "refiner", "compile_error"));
  EXPECT_EQ(stop_reason(flat, budgets), "no better attempt in the last 2");
  auto failing = search_of({node(1, {}, "coder", "compile_error"), node(2, 1, "debugger", "runtime_error")});
  EXPECT_FALSE(stop_reason(failing, budgets)) << "no best yet: a plateau needs one";

  budgets.plateau = 0;
  budgets.sol_share = 0.9;
  auto near_light = [](int pct) {
    return evaluation_feedback(correct_record("5/5 trials passed; 40 timed pairs; kernels: 1 own; own 100% of GPU time; "
                                              "memory speed of light 0.7 ms (" + std::to_string(pct) + "% of it reached)"),
                               std::nullopt)
        .digest;
  };
  auto fast = search_of({node(1, {}, "coder", "correct", 1.8), node(2, 1, "refiner", "correct", 2.4)});
  fast.nodes[0].digest = near_light(95);  // not the best: its share does not count
  fast.nodes[1].digest = near_light(88);
  EXPECT_FALSE(stop_reason(fast, budgets));
  fast.nodes[1].digest = near_light(92);
  EXPECT_EQ(stop_reason(fast, budgets), "92% of the memory speed of light");
  fast.nodes[1].digest = "verdict: correct (5/5 trials)\nspeedup over PyTorch eager: 2.400x\n";  // a CPU judge: no SOL
  EXPECT_FALSE(stop_reason(fast, budgets));
}

TEST(AgentFeedback, TheSlowestOwnKernelsLaunchShapeBecomesAdvice) {
  auto f = evaluation_feedback(
      correct_record("5/5 trials passed; kernels: 1 own (candidate.so: 1); own 100% of GPU time; slowest own kernel "
                     "gemm_tile<128>: 0.812 ms in 1 launch(es), grid 160x1x1 of 256 threads (256x1x1), 128 registers/thread, "
                     "0 B shared, 64 B local memory per thread (register spills or local arrays); theoretical occupancy 25% "
                     "(limited by registers), 0.6 waves over 132 SMs; SM clock 1980-1980 MHz"),
      std::nullopt);
  EXPECT_NE(f.digest.find("kernels: 1 own (candidate.so: 1); own 100% of GPU time\nslowest own kernel gemm_tile<128>: 0.812 ms"),
            std::string::npos) << f.digest;
  EXPECT_NE(f.digest.find("- low occupancy (25%), limited by registers"), std::string::npos) << f.digest;
  EXPECT_NE(f.digest.find("- the grid fills 60% of what the SMs hold at once"), std::string::npos) << f.digest;
  EXPECT_NE(f.digest.find("- it uses local memory"), std::string::npos) << f.digest;
  // A full, well-shaped launch gets no advice lines.
  auto good = evaluation_feedback(
      correct_record("kernels: 1 own (candidate.so: 1); own 100% of GPU time; slowest own kernel add: 0.2 ms in 1 launch(es), "
                     "grid 4096x1x1 of 256 threads (256x1x1), 32 registers/thread, 0 B shared, no local memory; theoretical "
                     "occupancy 100% (limited by warps), 3.9 waves over 132 SMs; SM clock 1980-1980 MHz"),
      std::nullopt);
  EXPECT_EQ(good.digest.find("\n- "), std::string::npos) << good.digest;
}

TEST(AgentFeedback, LibraryKernelsAreNoKernelWinAndFailuresKeepTheJudgesMessage) {
  auto library = evaluation_feedback(correct_record("kernels: 0 own, 3 library (libcublasLt.so.13: 3); own 0% of GPU time"), std::nullopt);
  EXPECT_FALSE(library.kernel_win);
  EXPECT_NE(library.digest.find("does not count as a kernel of your own"), std::string::npos) << library.digest;

  EvaluationRecord failed;
  failed.verdict = Verdict::compile_error;
  failed.message = std::string("candidate.cpp:12: error: expected ';'\n") + std::string(10000, 'x');
  auto f = evaluation_feedback(failed, std::nullopt);
  EXPECT_FALSE(f.kernel_win);
  EXPECT_EQ(f.digest.rfind("verdict: compile_error\ncandidate.cpp:12: error: expected ';'", 0), 0u) << f.digest.substr(0, 200);
  EXPECT_NE(f.digest.find("more characters cut]"), std::string::npos);
  EXPECT_LT(f.digest.size(), kDigestMessageChars + 200);

  // On the CPU nothing records kernels: a correct attempt counts as its own.
  EXPECT_TRUE(evaluation_feedback(correct_record("5/5 trials passed"), std::nullopt).kernel_win);
}

}  // namespace
}  // namespace kforge::agent
