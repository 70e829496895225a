// serial: one deep refinement chain (Kevin-32B found serial turns beat parallel samples at equal
// compute). One proposal a round: follow the latest attempt, unless it was a correct regression,
// in which case go on from the best instead.
#include "agent/policies/policies.hpp"

namespace kforge::agent {
namespace {

class SerialPolicy final : public SearchPolicy {
 public:
  explicit SerialPolicy(PolicyOptions options) : options_(options) {}

  std::vector<Proposal> propose(const ProblemSearch& search, std::mt19937_64&) const override {
    if (search.nodes.empty()) return {{std::nullopt, Role::coder, ""}};
    const size_t last = search.nodes.size() - 1;
    const auto best = search.best();
    if (is_correct(search.nodes[last]) && best && *best != last) return {{*best, Role::refiner, ""}};
    return {follow_up(search, last, options_)};
  }

 private:
  PolicyOptions options_;
};

}  // namespace

std::unique_ptr<SearchPolicy> make_serial_policy(const PolicyOptions& options) {
  return std::make_unique<SerialPolicy>(options);
}

}  // namespace kforge::agent
