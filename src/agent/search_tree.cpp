#include "agent/search_tree.hpp"

namespace kforge::agent {

std::string_view to_string(Role role) {
  switch (role) {
    case Role::coder: return "coder";
    case Role::refiner: return "refiner";
    case Role::debugger: return "debugger";
  }
  return "coder";
}

bool is_correct(const AgentNode& n) { return n.verdict && *n.verdict == "correct" && n.speedup.has_value(); }

bool is_failure(const AgentNode& n) { return n.verdict && !is_correct(n); }

bool ranks_above(const AgentNode& a, const AgentNode& b) {
  if (a.kernel_win != b.kernel_win) return a.kernel_win;
  return *a.speedup > *b.speedup;
}

std::optional<size_t> ProblemSearch::best() const {
  std::optional<size_t> best;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (is_correct(nodes[i]) && (!best || ranks_above(nodes[i], nodes[*best]))) best = i;
  return best;
}

int ProblemSearch::attempts_since_best() const {
  auto b = best();
  return static_cast<int>(b ? nodes.size() - 1 - *b : nodes.size());
}

std::optional<size_t> ProblemSearch::index_of(int64_t node_id) const {
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].id == node_id) return i;
  return std::nullopt;
}

int ProblemSearch::debug_depth(size_t node) const {
  int depth = 0;
  std::optional<size_t> at = node;
  while (at && nodes[*at].role == to_string(Role::debugger)) {
    ++depth;
    at = nodes[*at].parent_id ? index_of(*nodes[*at].parent_id) : std::nullopt;
  }
  return depth;
}

}  // namespace kforge::agent
