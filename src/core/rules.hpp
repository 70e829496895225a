#pragma once
// The rules a `rejected` verdict names: one registry, so a rule has one spelling, the reference
// process can refuse a rule a candidate's process makes up, and docs/evaluation.md's verdict table
// is tested against it (tests/unit/rules_test.cpp). To add a rule: a constant and a row here, the
// check that throws it, and its name in docs/evaluation.md.
#include <string_view>

namespace kforge::rules {

inline constexpr std::string_view kHarnessAccess = "harness-access";
inline constexpr std::string_view kInputMutation = "input-mutation";
inline constexpr std::string_view kTensorSubclass = "tensor-subclass";
inline constexpr std::string_view kPrecisionDowncast = "precision-downcast";
inline constexpr std::string_view kPytorchFallback = "pytorch-fallback";
inline constexpr std::string_view kTimingRecheck = "timing-recheck";
inline constexpr std::string_view kSpeedOfLight = "speed-of-light";
inline constexpr std::string_view kPatchedTorch = "patched-torch";
inline constexpr std::string_view kPrecisionFlag = "precision-flag";
inline constexpr std::string_view kThreadInjection = "thread-injection";
inline constexpr std::string_view kProcessInjection = "process-injection";
inline constexpr std::string_view kForgedResult = "forged-result";
inline constexpr std::string_view kUndrainedWork = "undrained-work";
inline constexpr std::string_view kUnjoinedStream = "unjoined-stream";
inline constexpr std::string_view kRanWhileStopped = "ran-while-stopped";

struct Rule {
  std::string_view name;
  std::string_view checks;  // what it catches, in a few words
};

inline constexpr Rule kAll[] = {
    {kHarnessAccess, "source text that reaches into kforge or the process (static check)"},
    {kInputMutation, "an input changed in place where the reference leaves it"},
    {kTensorSubclass, "an output that is not a plain torch.Tensor"},
    {kPrecisionDowncast, "an fp32 result much farther from fp64 than the reference's"},
    {kPytorchFallback, "--fallback strict: no kernel of its own launched"},
    {kTimingRecheck, "a timed call's output differs from the reference's on the same inputs"},
    {kSpeedOfLight, "faster than the device can move the bytes or do the FLOPs"},
    {kPatchedTorch, "torch, time or their classes patched in its process"},
    {kPrecisionFlag, "TF32 or reduced-precision reductions switched on"},
    {kThreadInjection, "a thread still running, or launching kernels, after forward returned"},
    {kProcessInjection, "a child process still running after forward returned, or more than 128 under its process"},
    {kForgedResult, "something kforge never sends on a result channel"},
    {kUndrainedWork, "GPU work left running more than 100 ms after a call"},
    {kUnjoinedStream, "GPU work on a stream the caller's stream does not wait for when forward returns"},
    {kRanWhileStopped, "its process, or one under it, ran while kforge had it stopped (it resumed itself, or a system call held a thread past 3 s)"},
};

constexpr bool known(std::string_view name) {
  for (const Rule& r : kAll)
    if (r.name == name) return true;
  return false;
}

}  // namespace kforge::rules
