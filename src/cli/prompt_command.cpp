// kforge prompt: the exact prompt kforge generate would send for one problem.
#include <iostream>

#include <nlohmann/json.hpp>

#include "agent/agent_prompts.hpp"
#include "cli/commands.hpp"
#include "common/files.hpp"
#include "common/errors.hpp"
#include "generate/prompt_builder.hpp"
#include "store/store.hpp"

namespace kforge::cli {
namespace {

struct PromptCommandOptions {
  std::string problem;
  std::string suite;
  std::string device_name;
  std::string prompts;
  bool json = false;
  generate::PromptOptions prompt;
  std::string role = "coder";  // kforge agent's roles: coder (kforge generate's prompt), refiner, debugger
  std::string parent;          // refiner, debugger: the earlier attempt's file
  std::string feedback;        // refiner, debugger: a file holding its feedback digest
};

int run_prompt(const PromptCommandOptions& o, const GlobalOptions& global) {
  SuiteLoad builtin = load_suite(o.suite.empty() ? builtin_suite_dir() : std::filesystem::path(o.suite));
  Problem problem = resolve_problem(o.problem, builtin);
  generate::PromptOptions options = o.prompt;
  options.prompts_dir = o.prompts;
  if (std::filesystem::exists(global.db)) {
    Store store(global.db);
    options.device = store.latest_device_peaks(o.device_name);
  }
  if (!o.device_name.empty() && !options.device)
    throw Error("the store (" + global.db + ") has no measured rates of '" + o.device_name +
                "': `kforge problems info --sol` on that device measures them");
  if (o.role == "coder" && (!o.parent.empty() || !o.feedback.empty()))
    throw UsageError("--parent and --feedback belong to --role refiner, debugger or planner");
  const agent::Role role = o.role == "refiner" ? agent::Role::refiner : o.role == "debugger" ? agent::Role::debugger : agent::Role::coder;
  const std::string parent = o.parent.empty() ? "<the earlier attempt's source>" : read_source_file(o.parent);
  const std::string feedback = o.feedback.empty() ? "<kforge's feedback digest on it>" : read_source_file(o.feedback);
  auto p = o.role == "planner" ? agent::plan_prompt(problem, options, "", parent, feedback)
                                : agent::attempt_prompt(problem, options, role, "", parent, feedback);
  if (o.json) {
    std::cout << nlohmann::json{{"problem", problem.display_name()}, {"format", options.format},
                                {"system", p.system}, {"user", p.user}}
                     .dump()
              << '\n';
  } else {
    std::cout << "[system]\n" << p.system << "\n[user]\n" << p.user;
  }
  return 0;
}

}  // namespace

Runner add_prompt_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<PromptCommandOptions>();
  auto* cmd = app.add_subcommand("prompt", "Print the exact prompt (system and user messages) kforge generate, or a role of kforge agent, sends for a problem");
  cmd->add_option("problem", o->problem, "Problem file, or a built-in id such as level1/19")->required();
  cmd->add_option("--suite", o->suite, "Suite folder in the KernelBench layout [default: built-in problems/]");
  cmd->add_option("--format", o->prompt.format,
                  "Target format: cuda (kforge's native .cu), kernelbench (load_inline), triton or cpp")
      ->check(CLI::IsMember({"cuda", "kernelbench", "triton", "cpp"}));
  cmd->add_option("--fallback", o->prompt.fallback, "The PyTorch-fallback policy the rules state")
      ->check(CLI::IsMember({"mixed", "strict"}));
  cmd->add_option("--trials", o->prompt.trials, "Correctness trials the rules state")->check(CLI::Range(1, 1000));
  cmd->add_option("--device-name", o->device_name,
                  "Describe this device's measured rates from the store [default: the most recently measured]");
  cmd->add_option("--prompts", o->prompts, "Folder of prompt templates [default: the shipped prompts/]");
  cmd->add_flag("--json", o->json, "One JSON object: problem, format, system, user");
  cmd->add_option("--role", o->role,
                  "kforge agent's role: coder (the first attempt: kforge generate's prompt), refiner (make a correct "
                  "attempt faster), debugger (fix a failed one) or planner (--planner: the plan a refinement follows)")
      ->check(CLI::IsMember({"coder", "refiner", "debugger", "planner"}));
  cmd->add_option("--parent", o->parent, "refiner, debugger: the earlier attempt's file [default: a placeholder]");
  cmd->add_option("--feedback", o->feedback, "refiner, debugger: a file with the feedback digest [default: a placeholder]");
  return [o, &global] { return run_prompt(*o, global); };
}

}  // namespace kforge::cli
