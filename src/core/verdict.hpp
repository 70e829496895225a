#pragma once
// The verdicts of DESIGN.md: every evaluation ends in exactly one of them.
#include <optional>
#include <string>
#include <string_view>

namespace kforge {

enum class Verdict {
  correct,        // ran on every trial, matched the reference, was timed
  incorrect,      // ran, but an output differs (shape, dtype, value, NaN/Inf, type)
  rejected,       // a detected hack; the rule that fired is recorded beside it
  compile_error,  // a build inside the candidate (load_inline) failed
  load_error,     // the candidate (or its problem) could not be imported or constructed
  runtime_error,  // forward raised (including CUDA errors and out-of-memory)
  timeout,        // the job outlived its deadline; the worker was killed
  crashed,        // the worker process died during the job
};

std::string_view to_string(Verdict v);
std::optional<Verdict> verdict_from_string(std::string_view s);

}  // namespace kforge
