#pragma once
// The prompt for one problem in one target format, from the templates in prompts/ (editable;
// --prompts points at another folder): the problem's source, the format, the device as measured
// and stored, one worked example, and the rules the candidate is judged by.
#include <filesystem>
#include <optional>
#include <string>

#include "store/store.hpp"
#include "suite/problem.hpp"

namespace kforge::generate {

struct PromptOptions {
  std::string format = "cuda";  // cuda | kernelbench | triton | cpp
  std::string fallback = "mixed";
  int trials = 5;
  std::filesystem::path prompts_dir;   // empty: the shipped prompts/
  std::optional<DevicePeaks> device;   // the device's measured rates, when the store has them
};

struct Prompt {
  std::string system;
  std::string user;
};

std::filesystem::path builtin_prompts_dir();  // $KFORGE_PROMPTS, else the source tree's prompts/

// Throws kforge::Error for an unknown format, a missing template, or a template with an
// unknown variable.
Prompt build_prompt(const Problem& problem, const PromptOptions& options);

}  // namespace kforge::generate
