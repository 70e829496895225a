// kforge merge: several stores (the shards of a study, each from a node of its own) into one, so
// that kforge report over it reads as if one machine had done it all.
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "common/errors.hpp"
#include "store/store.hpp"

namespace kforge::cli {
namespace {

struct MergeOptions {
  std::vector<std::string> sources;
  std::string into;
};

int run_merge(const MergeOptions& o) {
  Store into(o.into);
  int failed = 0;
  for (const auto& source : o.sources) {
    // One store at a time, each in a transaction of its own: a store refused (another schema,
    // another suite) leaves the others merged and itself untouched.
    try {
      const auto added = into.merge_from(source);
      std::cout << fmt::format("{}: {} evaluation(s), {} model call(s), {} agent attempt(s) and {} run(s) added\n",
                               source, added.evaluations, added.model_calls, added.agent_nodes, added.runs);
    } catch (const UsageError&) {
      throw;
    } catch (const Error& e) {
      std::cerr << "kforge: " << e.what() << '\n';
      ++failed;
    }
  }
  std::cout << fmt::format("merged into {}; kforge runs --db {} lists its runs\n", o.into, o.into);
  return failed ? 1 : 0;
}

}  // namespace

Runner add_merge_command(CLI::App& app, const GlobalOptions&) {
  auto o = std::make_shared<MergeOptions>();
  auto* cmd = app.add_subcommand("merge", "Copy stores into one, each row once (merging twice adds nothing): the runs "
                                          "of one --name become one run; refuses stores of another schema or suite");
  cmd->add_option("stores", o->sources, "The stores to merge")->required()->check(CLI::ExistingFile);
  cmd->add_option("--into", o->into, "The store they are merged into (made if missing)")->required();
  return [o] { return run_merge(*o); };
}

}  // namespace kforge::cli
