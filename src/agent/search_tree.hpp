#pragma once
// One problem's search in kforge agent: the attempts made so far (store/store.hpp's AgentNode, in
// the order they were made) and what the policies and stopping rules read from them.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/store.hpp"
#include "suite/problem.hpp"

namespace kforge::agent {

// coder: a first attempt from the problem alone; refiner: makes a correct parent faster;
// debugger: fixes a parent that failed (lower temperature).
enum class Role { coder, refiner, debugger };
std::string_view to_string(Role role);

bool is_correct(const AgentNode& n);
// Between two correct nodes: a kernel win first, then the higher speedup.
bool ranks_above(const AgentNode& a, const AgentNode& b);
// Evaluated or answered, and not correct: a build, a run or the values failed, or no code came.
bool is_failure(const AgentNode& n);

struct ProblemSearch {
  Problem problem;
  std::vector<AgentNode> nodes;
  bool finished = false;
  std::string stop_reason;  // why the search of this problem ended

  // The best node so far: correct, a kernel win (its own kernels did most of the work), the
  // highest speedup; a correct node that is not a kernel win only when there is no kernel win.
  // A regression never replaces it: it is a maximum over every node.
  std::optional<size_t> best() const;
  // Attempts made since the best one (all of them when there is none).
  int attempts_since_best() const;
  // How many of a node's ancestors, itself included, were made to fix their parent in a row.
  int debug_depth(size_t node) const;
  std::optional<size_t> index_of(int64_t node_id) const;
};

}  // namespace kforge::agent
