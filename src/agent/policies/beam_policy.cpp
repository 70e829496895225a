// beam: Meta's KernelAgent shape. The top `beam` correct attempts, each refined in two directions
// chosen from where its time goes (how near the memory speed of light it runs, from its
// feedback); with nothing correct yet, the latest failures are fixed (or fresh attempts made).
#include <algorithm>

#include "agent/feedback.hpp"
#include "agent/policies/policies.hpp"

namespace kforge::agent {
namespace {

// Two bottleneck directions for a correct parent, from its digest's speed-of-light share.
std::vector<std::string> directions(const AgentNode& parent) {
  const auto share = sol_share_in_digest(parent.digest);
  const bool near_bandwidth = share && *share >= kBandwidthBoundShare;
  if (near_bandwidth)
    return {"It already runs near the memory bandwidth: move fewer bytes (fuse passes, keep intermediates in "
            "registers or shared memory, narrower loads where the precision allows).",
            "Cut fixed costs: fewer kernel launches, no extra copies or allocations per call, work per thread sized "
            "to the problem."};
  return {"Raise achieved throughput: coalesced and vectorised memory access, enough parallelism to fill the "
          "device, no serial loops over large extents.",
          "Change the algorithm's shape: fuse the operations into fewer kernels, tile for reuse in shared memory or "
          "registers, use the device's matrix units where the math allows."};
}

class BeamPolicy final : public SearchPolicy {
 public:
  explicit BeamPolicy(PolicyOptions options) : options_(options) {}

  std::vector<Proposal> propose(const ProblemSearch& search, std::mt19937_64&) const override {
    std::vector<size_t> correct;
    for (size_t i = 0; i < search.nodes.size(); ++i)
      if (is_correct(search.nodes[i])) correct.push_back(i);
    std::sort(correct.begin(), correct.end(), [&](size_t a, size_t b) { return ranks_above(search.nodes[a], search.nodes[b]); });
    std::vector<Proposal> out;
    if (!correct.empty()) {
      for (size_t k = 0; k < correct.size() && k < static_cast<size_t>(options_.beam); ++k)
        for (auto& d : directions(search.nodes[correct[k]])) out.push_back({correct[k], Role::refiner, std::move(d)});
      return out;
    }
    // Nothing correct: fix the most recent failures, newest first, one per open line.
    for (size_t i = search.nodes.size(); i-- > 0 && static_cast<int>(out.size()) < options_.width;) {
      const bool has_child = std::any_of(search.nodes.begin(), search.nodes.end(), [&](const AgentNode& n) {
        return n.parent_id && *n.parent_id == search.nodes[i].id;
      });
      if (!has_child && is_failure(search.nodes[i])) out.push_back(follow_up(search, i, options_));
    }
    if (out.empty()) out.push_back({std::nullopt, Role::coder, ""});
    return out;
  }

 private:
  PolicyOptions options_;
};

}  // namespace

std::unique_ptr<SearchPolicy> make_beam_policy(const PolicyOptions& options) {
  return std::make_unique<BeamPolicy>(options);
}

}  // namespace kforge::agent
