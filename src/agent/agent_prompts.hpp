#pragma once
// The prompt of one attempt: a coder's is kforge generate's (the problem, the format, the rules);
// a refiner's and a debugger's add the parent's source and its feedback digest, through the
// templates prompts/agent_refine.md and prompts/agent_debug.md (`kforge prompt --role` shows them).
#include <string>

#include "agent/search_tree.hpp"
#include "generate/prompt_builder.hpp"

namespace kforge::agent {

// The fence a format's code is written in (python, cuda, cpp).
std::string code_fence(const std::string& format);

// `parent_source` and `digest` are ignored for Role::coder.
generate::Prompt attempt_prompt(const Problem& problem, const generate::PromptOptions& options, Role role,
                                const std::string& direction, const std::string& parent_source, const std::string& digest);

}  // namespace kforge::agent
