#include "core/verdict.hpp"

#include <array>
#include <utility>

namespace kforge {
namespace {
constexpr std::array<std::pair<Verdict, std::string_view>, 8> kNames{{
    {Verdict::correct, "correct"},
    {Verdict::incorrect, "incorrect"},
    {Verdict::rejected, "rejected"},
    {Verdict::compile_error, "compile_error"},
    {Verdict::load_error, "load_error"},
    {Verdict::runtime_error, "runtime_error"},
    {Verdict::timeout, "timeout"},
    {Verdict::crashed, "crashed"},
}};
}  // namespace

std::string_view to_string(Verdict v) {
  for (const auto& [verdict, name] : kNames)
    if (verdict == v) return name;
  return "unknown";
}

std::optional<Verdict> verdict_from_string(std::string_view s) {
  for (const auto& [verdict, name] : kNames)
    if (name == s) return verdict;
  return std::nullopt;
}

}  // namespace kforge
