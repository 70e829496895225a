// chains: a population of serial chains (several deep refinement chains side by side). The first
// rounds start `width` chains, one fresh attempt each; then every round each chain takes one serial
// step from its own latest attempt (fix it if it failed, refine it if it is correct, back to the
// chain's best after a regression). A chain whose line has been fixed `debug_limit` times in a row
// without success starts afresh in its place.
#include <map>

#include "agent/policies/policies.hpp"

namespace kforge::agent {
namespace {

class ChainsPolicy final : public SearchPolicy {
 public:
  explicit ChainsPolicy(PolicyOptions options) : options_(options) {}

  std::vector<Proposal> propose(const ProblemSearch& search, std::mt19937_64&) const override {
    // Each node's chain is its root; a chain's latest node and best correct node.
    std::map<size_t, size_t> latest, best;
    for (size_t i = 0; i < search.nodes.size(); ++i) {
      const size_t root = root_of(search, i);
      latest[root] = i;
      const AgentNode& n = search.nodes[i];
      if (is_correct(n) && (!best.count(root) || ranks_above(n, search.nodes[best[root]]))) best[root] = i;
    }
    std::vector<Proposal> out;
    for (const auto& [root, last] : latest) {
      if (static_cast<int>(out.size()) >= options_.width) break;
      const AgentNode& n = search.nodes[last];
      if (is_correct(n) && best.count(root) && best[root] != last) {
        out.push_back({best[root], Role::refiner, ""});
        continue;
      }
      Proposal p = follow_up(search, last, options_);
      // follow_up's way out of a stuck line is the problem's best; a chain keeps to its own.
      if (p.parent && root_of(search, *p.parent) != root) p = {std::nullopt, Role::coder, ""};
      out.push_back(p);
    }
    for (size_t chains = latest.size(); static_cast<int>(out.size()) < options_.width && chains < static_cast<size_t>(options_.width); ++chains)
      out.push_back({std::nullopt, Role::coder, ""});
    return out;
  }

 private:
  static size_t root_of(const ProblemSearch& search, size_t i) {
    while (search.nodes[i].parent_id)
      if (auto parent = search.index_of(*search.nodes[i].parent_id))
        i = *parent;
      else
        break;
    return i;
  }
  PolicyOptions options_;
};

}  // namespace

std::unique_ptr<SearchPolicy> make_chains_policy(const PolicyOptions& options) {
  return std::make_unique<ChainsPolicy>(options);
}

}  // namespace kforge::agent
