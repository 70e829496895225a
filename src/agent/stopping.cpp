#include "agent/stopping.hpp"

#include <fmt/format.h>

#include "agent/feedback.hpp"

namespace kforge::agent {

std::optional<std::string> stop_reason(const ProblemSearch& s, const Budgets& budgets) {
  if (static_cast<int>(s.nodes.size()) >= budgets.attempts) return fmt::format("{} attempts", s.nodes.size());
  auto best = s.best();
  if (!best) return std::nullopt;
  if (budgets.plateau > 0 && s.attempts_since_best() >= budgets.plateau)
    return fmt::format("no better attempt in the last {}", budgets.plateau);
  if (budgets.sol_share > 0)
    if (auto share = sol_share_in_digest(s.nodes[*best].digest); share && *share >= budgets.sol_share)
      return fmt::format("{:.0f}% of the memory speed of light", *share * 100);
  return std::nullopt;
}

}  // namespace kforge::agent
