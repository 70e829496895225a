#include "agent/feedback.hpp"

#include <cmath>
#include <regex>
#include <string_view>

#include <fmt/format.h>

namespace kforge::agent {
namespace {

// How a digest states the speed-of-light share, written and read back in one wording.
constexpr const char* kSolReached = "% of the memory speed of light reached";

std::optional<double> percent_after(const std::string& text, const std::regex& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, pattern)) return std::nullopt;
  return std::stod(m[1].str()) / 100.0;
}

std::string capped(const std::string& text) {
  if (text.size() <= kDigestMessageChars) return text;
  return text.substr(0, kDigestMessageChars) + fmt::format("\n[... {} more characters cut]", text.size() - kDigestMessageChars);
}

// The census clauses of the judge's message (worker/candidate_host.cpp writes them): "kernels:
// ...; own N% of GPU time", then, where an own kernel ran, "; slowest own kernel NAME: ...".
constexpr std::string_view kSlowest = "; slowest own kernel ";

std::string census_text(const std::string& message) {
  auto at = message.find("kernels: ");
  if (at == std::string::npos) return "";
  auto end = message.find("; SM clock", at);
  if (end == std::string::npos) end = message.find("; ", message.find("of GPU time", at));
  return message.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

std::string kernels_clause(const std::string& message) {
  std::string text = census_text(message);
  return text.substr(0, text.find(kSlowest));
}

// The slowest own kernel's clause, with what its launch shape says a kernel writer could change
// (the part of a profiler's advice that needs no hardware counter).
std::string slowest_kernel_lines(const std::string& message) {
  std::string text = census_text(message);
  auto at = text.find(kSlowest);
  if (at == std::string::npos) return "";
  std::string out = text.substr(at + 2) + "\n";
  static const std::regex occupancy(R"(theoretical occupancy (\d+)% \(limited by ([a-z ]+)\), ([\d.]+) waves)");
  std::smatch m;
  if (std::regex_search(text, m, occupancy)) {
    const double percent = std::stod(m[1].str()), waves = std::stod(m[3].str());
    if (percent < 50)
      out += fmt::format("- low occupancy ({:.0f}%), limited by {}: fewer warps to hide memory and pipeline latency\n",
                         percent, m[2].str());
    if (waves < 1)
      out += fmt::format("- the grid fills {:.0f}% of what the SMs hold at once: more, smaller blocks would use the idle SMs\n",
                         waves * 100);
    else if (waves < 4 && waves - std::floor(waves) > 0 && waves - std::floor(waves) < 0.5)
      out += fmt::format("- {:.1f} waves: the last, partial wave leaves most SMs idle (a tail effect)\n", waves);
  }
  if (text.find("local memory per thread", at) != std::string::npos)
    out += "- it uses local memory: register spills or local arrays, each access a trip to memory\n";
  return out;
}

}  // namespace

Feedback evaluation_feedback(const EvaluationRecord& r, std::optional<double> compile_ms) {
  static const std::regex own(R"(own (\d+(?:\.\d+)?)% of GPU time)");
  static const std::regex sol(R"(\((\d+(?:\.\d+)?)% of it reached\))");
  Feedback f;
  f.own_share = percent_after(r.message, own);
  f.sol_share = percent_after(r.message, sol);
  const bool correct = r.verdict == Verdict::correct && r.speedup;
  if (!correct) {
    f.digest = fmt::format("verdict: {}{}\n{}", to_string(r.verdict), r.rule.empty() ? "" : " (rule " + r.rule + ")",
                           capped(r.message));
    return f;
  }
  f.kernel_win = !f.own_share || *f.own_share >= 0.5;
  std::string d = fmt::format("verdict: correct ({}/{} trials)\n", r.trials_passed, r.trials_total);
  d += fmt::format("speedup over PyTorch eager: {:.3f}x", *r.speedup);
  if (r.speedup_ci) d += fmt::format(" [95% interval {:.3f}, {:.3f}]", r.speedup_ci->low, r.speedup_ci->high);
  if (r.ref_ms && r.cand_ms) d += fmt::format(" (reference {:.4f} ms, yours {:.4f} ms)", *r.ref_ms, *r.cand_ms);
  d += "\n";
  if (compile_ms && r.cand_ms && *r.cand_ms > 0)
    d += fmt::format("speedup over torch.compile: {:.3f}x (its time {:.4f} ms)\n", *compile_ms / *r.cand_ms, *compile_ms);
  if (auto k = kernels_clause(r.message); !k.empty()) d += k + "\n";
  d += slowest_kernel_lines(r.message);
  if (f.own_share && !f.kernel_win)
    d += "most of the GPU time is in library kernels, not yours: this does not count as a kernel of your own\n";
  if (f.sol_share)
    d += fmt::format("{:.0f}{}: {}\n", *f.sol_share * 100, kSolReached,
                     *f.sol_share >= kBandwidthBoundShare ? "bandwidth-bound, little left from memory traffic alone"
                                         : "well below the bandwidth the device has");
  d += "the judge's full message: " + capped(r.message);
  f.digest = d;
  return f;
}

std::optional<double> sol_share_in_digest(const std::string& digest) {
  static const std::regex stated(std::string(R"((\d+(?:\.\d+)?))") + kSolReached);
  return percent_after(digest, stated);
}

Feedback answer_feedback(const std::string& outcome, const std::string& message) {
  Feedback f;
  f.digest = fmt::format("verdict: {} (nothing was evaluated)\n{}", outcome, capped(message));
  return f;
}

}  // namespace kforge::agent
