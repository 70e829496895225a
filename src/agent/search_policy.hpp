#pragma once
// Search policies of kforge agent behind one interface: given one problem's attempts so far, what
// to ask the models for next (each proposal a parent, a role and a direction). A policy is one
// file under policies/ and one line in search_policy.cpp's registry; docs/agent.md describes each.
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "agent/search_tree.hpp"

namespace kforge::agent {

struct Proposal {
  std::optional<size_t> parent;  // an index into ProblemSearch::nodes; none for a fresh start
  Role role = Role::coder;
  std::string direction;  // what to try, in words the prompt quotes; empty: the role's own task
};

struct PolicyOptions {
  int width = 4;        // proposals per round (metr, beam), or chains (chains)
  int seeds = 4;        // fresh starts before any refinement (metr)
  int beam = 2;         // parents kept (beam)
  int debug_limit = 3;  // fixes in a row on one line before going back to the best (or a fresh start)
};

class SearchPolicy {
 public:
  virtual ~SearchPolicy() = default;
  // The next round's proposals for `search` (may be empty: nothing more to try).
  virtual std::vector<Proposal> propose(const ProblemSearch& search, std::mt19937_64& rng) const = 0;
};

// serial | metr | beam | chains. Throws kforge::UsageError naming the known ones otherwise.
std::unique_ptr<SearchPolicy> make_policy(const std::string& name, const PolicyOptions& options);
std::vector<std::string> policy_names();

// What every policy does with one chosen parent: fix it if it failed (unless its line has been
// fixed `debug_limit` times in a row: then the best so far, or a fresh start), else make it faster.
// A parent without a candidate (no code, a failed call) gets a fresh start instead.
Proposal follow_up(const ProblemSearch& search, size_t parent, const PolicyOptions& options, std::string direction = "");

}  // namespace kforge::agent
