// kforge show: one candidate as the store knows it: the prompt and answer that made it (when a
// model wrote it), its source, and every evaluation of it with its verdict and timings.
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/stored_run.hpp"
#include "common/errors.hpp"
#include "report/formatting.hpp"
#include "report/results_table.hpp"
#include "store/store.hpp"
#include "suite/candidate.hpp"

namespace kforge::cli {
namespace {

struct ShowOptions {
  std::string candidate;
  bool json = false;
  bool wide = false;
};

// The candidate's hash: a file's on disk (its content, as it was stored when evaluated), else
// what the store knows by that path or hash prefix. A prefix that fits several is refused.
std::string resolve_candidate(Store& store, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(what, ec)) {
    try {
      Candidate c = load_candidate_file(what);
      if (store.candidate_source(c.hash)) return c.hash;
    } catch (const Error&) {
      // Unreadable as a candidate (too large, binary): looked up by its path below.
    }
  }
  auto found = store.find_candidates(what);
  // kforge eval stores the canonical path of what it was given.
  if (found.empty())
    if (auto canonical = std::filesystem::weakly_canonical(what, ec); !ec && canonical.string() != what)
      found = store.find_candidates(canonical.string());
  if (found.empty())
    throw UsageError("no stored candidate has the path or hash '" + what +
                     "' (a file is matched by its content, a path as it was given to eval or written by generate)");
  const bool by_path = std::filesystem::path(what).has_extension() || what.find('/') != std::string::npos;
  if (found.size() > 1 && !by_path) {
    std::string list;
    for (const auto& h : found) list += " " + h.substr(0, 12);
    throw UsageError("'" + what + "' is the start of several candidates' hashes:" + list + "; give more of it");
  }
  if (found.size() > 1)
    std::cerr << fmt::format("kforge: {} candidates were stored under {}; the newest is shown\n", found.size(), what);
  return found.front();
}

// The prompt's messages as stored ({"system", "user"}), or the text as is where it is not that.
void print_prompt(const std::string& prompt_json) {
  const auto j = nlohmann::json::parse(prompt_json, nullptr, false);
  if (j.is_object() && j.contains("system") && j.contains("user")) {
    std::cout << "== prompt: system\n" << j["system"].get<std::string>() << "\n";
    std::cout << "== prompt: user\n" << j["user"].get<std::string>() << "\n";
  } else {
    std::cout << "== prompt\n" << prompt_json << "\n";
  }
}

int run_show(const ShowOptions& o, const GlobalOptions& global) {
  require_database(global.db);
  Store store(global.db);
  const std::string hash = resolve_candidate(store, o.candidate);
  const std::string source = store.candidate_source(hash).value_or("");
  const auto origin = store.candidate_origin(hash);
  const auto evaluations = store.candidate_evaluations(hash);
  if (o.json) {
    nlohmann::json out = {{"schema", report::kJsonSchema}, {"candidate_hash", hash}, {"source", source}};
    if (origin)
      out["origin"] = {{"how", origin->how},
                       {"model", origin->model},
                       {"prompt", nlohmann::json::parse(origin->prompt_json, nullptr, false)},
                       {"answer", origin->answer},
                       {"created_at", origin->created_at},
                       {"input_tokens", origin->input_tokens},
                       {"output_tokens", origin->output_tokens},
                       {"cost_usd", origin->cost_usd}};
    out["evaluations"] = nlohmann::json::array();
    for (const auto& r : evaluations) out["evaluations"].push_back(report::evaluation_json(r));
    std::cout << out.dump(2) << '\n';
    return 0;
  }
  std::cout << fmt::format("candidate {}\n", hash);
  if (origin) {
    std::cout << fmt::format("written by {} ({}, {}): {} input and {} output tokens, ${:.4f}\n",
                             report::escaped(origin->model), origin->how, origin->created_at, origin->input_tokens,
                             origin->output_tokens, origin->cost_usd);
    print_prompt(origin->prompt_json);
    std::cout << "== answer\n" << origin->answer << "\n";
  }
  std::cout << "== source\n" << source << (source.empty() || source.back() == '\n' ? "" : "\n");
  std::cout << fmt::format("== evaluations ({}, newest first)\n", evaluations.size());
  if (!evaluations.empty()) report::print_results_table(std::cout, evaluations, o.wide ? 0 : report::output_columns());
  for (const auto& r : evaluations)
    if (r.verdict == Verdict::correct && r.ref_ms && r.cand_ms)
      std::cout << fmt::format("evaluation {} ({}, {}): reference {} ms, candidate {} ms over {} pairs, speedup {}\n", r.id,
                               r.device_name, r.created_at, report::format_ms(r.ref_ms), report::format_ms(r.cand_ms),
                               r.cand_samples_ms.size(), report::format_speedup(r.speedup, r.speedup_ci));
  return 0;
}

}  // namespace

Runner add_show_command(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<ShowOptions>();
  auto* cmd = app.add_subcommand("show", "One candidate from the store: the prompt and answer that made it, its source, "
                                         "and every evaluation of it with its verdict and timings");
  cmd->add_option("candidate", o->candidate,
                  "A candidate file (matched by its content), a path as given to eval or written by generate, or the "
                  "start of its hash (6 hex digits or more)")
      ->required();
  cmd->add_flag("--json", o->json, "JSON instead of text");
  cmd->add_flag("--wide", o->wide, "The evaluations table with every cell whole");
  return [o, &global] { return run_show(*o, global); };
}

}  // namespace kforge::cli
