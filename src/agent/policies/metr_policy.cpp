// metr: METR's KernelAgent search. First `seeds` fresh attempts; then each round `width` children,
// each parent drawn from the correct attempts with probability proportional to its speedup (an
// attempt whose time is mostly library kernels weighs half). With nothing correct yet, parents
// are drawn uniformly from the failed attempts that wrote code, to be fixed.
#include <algorithm>

#include "agent/policies/policies.hpp"

namespace kforge::agent {
namespace {

class MetrPolicy final : public SearchPolicy {
 public:
  explicit MetrPolicy(PolicyOptions options) : options_(options) {}

  std::vector<Proposal> propose(const ProblemSearch& search, std::mt19937_64& rng) const override {
    const int fresh = static_cast<int>(std::count_if(search.nodes.begin(), search.nodes.end(),
                                                     [](const AgentNode& n) { return !n.parent_id; }));
    std::vector<Proposal> out;
    for (int i = fresh; i < options_.seeds && static_cast<int>(out.size()) < options_.width; ++i)
      out.push_back({std::nullopt, Role::coder, ""});
    if (!out.empty()) return out;

    std::vector<size_t> candidates;
    std::vector<double> weights;
    for (size_t i = 0; i < search.nodes.size(); ++i)
      if (is_correct(search.nodes[i])) {
        candidates.push_back(i);
        weights.push_back(std::max(1e-3, *search.nodes[i].speedup) * (search.nodes[i].kernel_win ? 1.0 : 0.5));
      }
    if (candidates.empty())
      for (size_t i = 0; i < search.nodes.size(); ++i)
        if (is_failure(search.nodes[i]) && search.nodes[i].candidate_path) {
          candidates.push_back(i);
          weights.push_back(1.0);
        }
    if (candidates.empty()) return {{std::nullopt, Role::coder, ""}};
    std::discrete_distribution<size_t> draw(weights.begin(), weights.end());
    for (int i = 0; i < options_.width; ++i) out.push_back(follow_up(search, candidates[draw(rng)], options_));
    return out;
  }

 private:
  PolicyOptions options_;
};

}  // namespace

std::unique_ptr<SearchPolicy> make_metr_policy(const PolicyOptions& options) {
  return std::make_unique<MetrPolicy>(options);
}

}  // namespace kforge::agent
