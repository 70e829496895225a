#include "agent/search_policy.hpp"

#include <functional>
#include <map>

#include "agent/policies/policies.hpp"
#include "common/errors.hpp"

namespace kforge::agent {
namespace {

using Factory = std::function<std::unique_ptr<SearchPolicy>(const PolicyOptions&)>;

// The registry: a new policy adds its line here.
const std::map<std::string, Factory>& registry() {
  static const std::map<std::string, Factory> policies = {
      {"serial", make_serial_policy},
      {"metr", make_metr_policy},
      {"beam", make_beam_policy},
      {"chains", make_chains_policy},
  };
  return policies;
}

}  // namespace

std::unique_ptr<SearchPolicy> make_policy(const std::string& name, const PolicyOptions& options) {
  auto it = registry().find(name);
  if (it == registry().end()) {
    std::string known;
    for (const auto& n : policy_names()) known += (known.empty() ? "" : ", ") + n;
    throw UsageError("unknown search policy '" + name + "' (" + known + ")");
  }
  return it->second(options);
}

std::vector<std::string> policy_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : registry()) names.push_back(name);
  return names;
}

Proposal follow_up(const ProblemSearch& search, size_t parent, const PolicyOptions& options, std::string direction) {
  const AgentNode& p = search.nodes[parent];
  if (is_correct(p)) return {parent, Role::refiner, std::move(direction)};
  // Nothing to fix where nothing was written (no code, a failed call): start afresh.
  if (!p.candidate_path) return {std::nullopt, Role::coder, ""};
  if (search.debug_depth(parent) < options.debug_limit) return {parent, Role::debugger, ""};
  if (auto best = search.best()) return {*best, Role::refiner, std::move(direction)};
  return {std::nullopt, Role::coder, ""};
}

}  // namespace kforge::agent
