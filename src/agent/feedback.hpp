#pragma once
// The feedback an attempt's evaluation gives the next prompt, as a compact digest a model can act
// on: the verdict and the judge's own message (compiler diagnostics, the first differing output,
// the rule a hack broke), and for a correct attempt its speedup and interval against PyTorch eager
// and, where the store has the baseline, torch.compile, which kernels ran, and how near the memory
// speed of light it runs.
#include <optional>
#include <string>

#include "core/evaluation.hpp"

namespace kforge::agent {

struct Feedback {
  std::string digest;
  bool kernel_win = false;           // correct, and its own kernels did most of the GPU's work
  std::optional<double> own_share;   // of the GPU time in its own kernels (0-1), where recorded
  std::optional<double> sol_share;   // of the memory speed of light reached (0-1), where known
};

// `compile_ms`: the problem's torch.compile baseline on this device, when the store has it.
Feedback evaluation_feedback(const EvaluationRecord& record, std::optional<double> compile_ms);

// For an answer that was never evaluated: no code, the wrong language, a failed call.
Feedback answer_feedback(const std::string& outcome, const std::string& message);

// From this share of the memory speed of light on, a digest calls the attempt bandwidth-bound.
inline constexpr double kBandwidthBoundShare = 0.6;

// The memory speed-of-light share a digest of evaluation_feedback's states, where it states one:
// what the stopping rule and the beam policy read back from a stored node.
std::optional<double> sol_share_in_digest(const std::string& digest);

// Messages longer than this are cut (head kept: compilers say the first error first).
inline constexpr size_t kDigestMessageChars = 4000;

}  // namespace kforge::agent
