#pragma once
// The prompt of one attempt: a coder's is kforge generate's (the problem, the format, the rules);
// a refiner's and a debugger's add the parent's source and its feedback digest, through the
// templates prompts/agent_refine.md and prompts/agent_debug.md, and the optional planner's asks
// for a plan in words (prompts/agent_plan.md). `kforge prompt --role` shows each.
#include <string>

#include "agent/search_tree.hpp"
#include "generate/prompt_builder.hpp"

namespace kforge::agent {

// The fence a format's code is written in (python, cuda, cpp).
std::string code_fence(const std::string& format);

// The planner's prompt (prompts/agent_plan.md): the task, the correct parent and its digest, and
// a request for the next optimisation plan in words, which the refiner is then given to follow.
generate::Prompt plan_prompt(const Problem& problem, const generate::PromptOptions& options, const std::string& direction,
                             const std::string& parent_source, const std::string& digest);

// `parent_source` and `digest` are ignored for Role::coder.
generate::Prompt attempt_prompt(const Problem& problem, const generate::PromptOptions& options, Role role,
                                const std::string& direction, const std::string& parent_source, const std::string& digest);

}  // namespace kforge::agent
