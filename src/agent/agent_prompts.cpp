#include "agent/agent_prompts.hpp"

#include "common/errors.hpp"
#include "common/files.hpp"
#include "generate/prompt_template.hpp"

namespace kforge::agent {

std::string code_fence(const std::string& format) {
  if (format == "cuda") return "cuda";
  if (format == "cpp") return "cpp";
  return "python";
}

namespace {

// The task's prompt followed by `name`'s template, filled with the parent and its feedback.
generate::Prompt with_parent(const Problem& problem, const generate::PromptOptions& options, const std::string& name,
                             const std::string& direction, const std::string& parent_source, const std::string& digest) {
  generate::Prompt base = generate::build_prompt(problem, options);
  const auto dir = options.prompts_dir.empty() ? generate::builtin_prompts_dir() : options.prompts_dir;
  std::string text;
  try {
    text = read_file(dir / name);
  } catch (const Error&) {
    throw Error("no prompt template " + (dir / name).string());
  }
  generate::Prompt p;
  p.system = base.system;
  p.user = generate::render(text, (dir / name).string(),
                            {{"task", base.user},
                             {"fence", code_fence(options.format)},
                             {"parent_source", parent_source},
                             {"digest", digest},
                             {"direction", direction}});
  return p;
}

}  // namespace

generate::Prompt plan_prompt(const Problem& problem, const generate::PromptOptions& options, const std::string& direction,
                             const std::string& parent_source, const std::string& digest) {
  return with_parent(problem, options, "agent_plan.md", direction, parent_source, digest);
}

generate::Prompt attempt_prompt(const Problem& problem, const generate::PromptOptions& options, Role role,
                                const std::string& direction, const std::string& parent_source, const std::string& digest) {
  if (role == Role::coder) return generate::build_prompt(problem, options);
  return with_parent(problem, options, role == Role::debugger ? "agent_debug.md" : "agent_refine.md", direction,
                     parent_source, digest);
}

}  // namespace kforge::agent
