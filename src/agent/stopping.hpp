#pragma once
// kforge agent's budgets, and the rules that end one problem's search by them: the attempts made,
// a plateau without a new best, the best reaching a share of the memory speed of light. The run's
// own limits (dollars, tokens, wall time) are checked where the calls are made (agent_run.cpp).
#include <cstdint>
#include <optional>
#include <string>

#include "agent/search_tree.hpp"

namespace kforge::agent {

struct Budgets {
  int attempts = 8;        // per problem
  double usd = 0;          // for the whole run (0: no limit)
  int64_t tokens = 0;      // input and output tokens for the whole run (0: no limit)
  double problem_usd = 0;  // per problem (0: no limit)
  double wall_s = 0;       // for the whole run (0: no limit)
  int plateau = 0;         // stop a problem after this many attempts without a new best (0: never)
  double sol_share = 0;    // stop a problem once its best reaches this share of the memory speed of light (0: never)
};

// Why the search of `s` ends now by the per-problem budgets, as the run prints and stores it
// ("8 attempts", "no better attempt in the last 3", "92% of the memory speed of light"); nothing
// while it goes on. The speed-of-light share is the one the best node's feedback digest states
// (feedback.hpp), so a resumed run stops on what it stored.
std::optional<std::string> stop_reason(const ProblemSearch& s, const Budgets& budgets);

}  // namespace kforge::agent
