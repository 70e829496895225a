#include "generate/prompt_builder.hpp"

#include <cstdlib>
#include <map>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "generate/prompt_template.hpp"

namespace kforge::generate {
namespace {

// One worked example per format: a shipped solution of level1/2_ReLU (level1/7 for cpp), which
// the demo evaluates, so the example is known to pass.
struct Example {
  const char* file;
  const char* fence;
  const char* what;
};
const std::map<std::string, Example> kExamples = {
    {"kernelbench", {"solutions/level1/2_ReLU/cuda_vec4.py", "python", "level1/2_ReLU (ReLU of one fp32 tensor)"}},
    {"cuda", {"solutions/level1/2_ReLU/cuda_native_vec4.cu", "cuda", "level1/2_ReLU (ReLU of one fp32 tensor)"}},
    {"cpp", {"solutions/level1/7_Sum_Dim/cpp_native_rowsum.cpp", "cpp", "level1/7_Sum_Dim (a sum over one dimension)"}},
    {"triton", {nullptr, "python", ""}},
};

std::string read_template(const std::filesystem::path& dir, const std::string& name) {
  const auto path = dir / name;
  try {
    return read_file(path);
  } catch (const Error&) {
    throw Error("no prompt template " + path.string());
  }
}

std::string device_text(const std::optional<DevicePeaks>& d) {
  if (!d) return "Not measured on this machine yet (`kforge problems info --sol` measures and stores its peak rates).";
  std::string rates;
  for (const auto& [precision, rate] : d->matmul_flops_per_s)
    rates += (rates.empty() ? "" : ", ") + fmt::format("{} {:.4g}", precision, rate / 1e12);
  std::string what;
  auto property = [&](const char* key) { auto it = d->properties.find(key); return it == d->properties.end() ? 0.0 : it->second; };
  if (property("sm_count") > 0)
    what = fmt::format(" (compute capability {:.1f}, {:.0f} SMs, {:.0f} MiB of L2, {:.0f} GiB of memory)",
                       property("compute_capability"), property("sm_count"), property("l2_bytes") / (1 << 20),
                       property("memory_bytes") / double(int64_t{1} << 30));
  else if (property("cores") > 0)
    what = fmt::format(" ({:.0f} cores)", property("cores"));
  return fmt::format("{}{}, as measured here: device-to-device copy {:.0f} GB/s (bytes read and written); dense "
                     "matmul {} TFLOP/s (fp32 with TF32 off).",
                     d->device_name, what, d->copy_bytes_per_s / 1e9, rates);
}

// What a training problem adds to the rules (docs/evaluation.md, "Training problems").
constexpr const char* kTrainingRule =
    "- This is a training problem (`mode = \"train\"`): what is judged and timed is a training step. kforge\n"
    "  runs your forward with gradients on, then backward from each floating output with a random\n"
    "  `grad_output` from a secret seed, and compares the outputs, the gradient of each input in\n"
    "  `grad_inputs` (every floating input when the file names none) and the gradient of every\n"
    "  trainable parameter, each gradient at its own scale. Forward and backward are timed together.\n"
    "  Write `torch.autograd.Function`s whose backward runs your own kernels, or a forward of\n"
    "  differentiable ops; keep `Model`'s trainable parameters (same count, order and shapes), since\n"
    "  their gradients are compared one by one. Gradients are cleared before every step: a backward\n"
    "  that skips a gradient, returns an earlier call's, or writes into its `grad_output` is caught.";

std::string tolerance_text(const std::string& precision) {
  return precision == "fp32" ? "1e-4 (fp32)" : "1e-2 (" + precision + ")";
}

}  // namespace

std::filesystem::path builtin_prompts_dir() {
  if (const char* env = std::getenv("KFORGE_PROMPTS"); env && *env) return env;
  return KFORGE_SOURCE_DIR "/prompts";
}

Prompt build_prompt(const Problem& problem, const PromptOptions& o) {
  auto example = kExamples.find(o.format);
  if (example == kExamples.end())
    throw Error("unknown target format '" + o.format + "' (cuda, kernelbench, triton or cpp)");
  const auto dir = o.prompts_dir.empty() ? builtin_prompts_dir() : o.prompts_dir;
  const std::string precision = problem.default_precision();

  std::map<std::string, std::string> rule_values = {
      {"trials", std::to_string(o.trials)},
      {"tolerance", tolerance_text(precision)},
      {"fallback", o.fallback},
      {"fallback_rule", o.fallback == "strict"
                            ? "A forward that launches none of your own kernels (only PyTorch's or a library's) is rejected."
                            : "Forwards that mix your kernels with PyTorch's are accepted; the share of GPU time in your "
                              "own kernels is reported."},
      {"step", problem.training ? kTrainingRule : ""}};
  const std::string rules = render(read_template(dir, "rules.md"), (dir / "rules.md").string(), rule_values);

  std::string example_text;
  if (example->second.file) {
    const std::filesystem::path file = std::filesystem::path(KFORGE_SOURCE_DIR) / example->second.file;
    example_text = fmt::format("A correct and faster candidate for {}:\n\n```{}\n{}```", example->second.what,
                               example->second.fence, read_file(file));
  }
  std::map<std::string, std::string> values = {{"problem_id", problem.display_name()},
                                               {"problem_source", problem.source},
                                               {"precision", precision},
                                               {"device", device_text(o.device)},
                                               {"rules", rules},
                                               {"example", example_text},
                                               {"format", o.format}};
  const std::string name = o.format + ".md";
  Prompt p;
  p.system = render(read_template(dir, "system.md"), (dir / "system.md").string(), values);
  p.user = render(read_template(dir, name), (dir / name).string(), values);
  return p;
}

}  // namespace kforge::generate
