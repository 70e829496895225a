#include "support/trust_corpus.hpp"

#include <cstdlib>
#include <optional>
#include <regex>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {

std::vector<TrustCase> load_trust_corpus(const std::string& folder) {
  std::ifstream in(source_path(folder + "/expected.json"));
  auto j = nlohmann::json::parse(in);
  std::vector<TrustCase> out;
  for (const auto& [file, e] : j.items()) {
    TrustCase c;
    c.file = file;
    c.problem = e.at("problem").get<std::string>();
    if (e.at("verdict").is_array()) c.verdicts = e["verdict"].get<std::vector<std::string>>();
    else c.verdicts = {e["verdict"].get<std::string>()};
    if (e.contains("verdict_on_gpu")) {
      const auto& g = e["verdict_on_gpu"];
      c.verdicts_on_gpu = g.is_array() ? g.get<std::vector<std::string>>() : std::vector<std::string>{g.get<std::string>()};
    }
    // A list where the hack races kforge's checks and either may see it first (the case says why).
    if (e.contains("rule") && e["rule"].is_string()) c.rules = {e["rule"].get<std::string>()};
    if (e.contains("rule") && e["rule"].is_array()) c.rules = e["rule"].get<std::vector<std::string>>();
    c.gpu_only = e.value("gpu_only", false);
    if (e.contains("max_speedup") && e["max_speedup"].is_number()) c.max_speedup = e["max_speedup"].get<double>();
    if (e.contains("args")) c.args = e["args"].get<std::vector<std::string>>();
    c.faster = e.value("faster", false);
    c.message = e.value("message", std::string());
    c.message_on_gpu = e.value("message_on_gpu", std::string());
    c.ci = e.value("ci", false);
    out.push_back(std::move(c));
  }
  return out;
}

// KFORGE_CORPUS_CASES=REGEX: only the cases whose file names match (a developer's quick rerun,
// or a device call too short for a whole corpus); the test then says so rather than pass quietly.
std::optional<std::regex> case_filter() {
  const char* text = std::getenv("KFORGE_CORPUS_CASES");
  if (!text || !*text) return std::nullopt;
  return std::regex(text);
}

namespace {

// A result line's speedup; 0 when it has none (a verdict that was not timed).
double speedup_of(const nlohmann::json& line) {
  return line.contains("speedup") && line["speedup"].is_number() ? line["speedup"].get<double>() : 0.0;
}

// The start of every `kforge eval` the corpora run: the store, the device, JSON lines and the bounds.
std::vector<std::string> eval_command(const std::string& db, const std::string& device, const std::string& max_time,
                                      const std::string& timeout) {
  return {"--db", db, "eval", "--device", device, "--json", "--max-time", max_time, "--timeout", timeout};
}

// One case evaluated again on its own (--force: the store holds its first result), in a kforge
// run of its own and so in fresh processes: its result line, none when the run gave none.
std::optional<nlohmann::json> evaluate_again(const TrustCase& c, const std::string& folder, const std::string& device,
                                             const std::string& db, const std::string& max_time,
                                             const std::string& timeout) {
  std::vector<std::string> args = eval_command(db, device, max_time, timeout);
  args.insert(args.end(), {"--force", "--problem", source_path(c.problem)});
  args.insert(args.end(), c.args.begin(), c.args.end());
  args.push_back(source_path(folder + "/" + c.file));
  auto r = run_kforge(args);
  auto got = r.lines_by_candidate();
  auto it = got.find(c.file);
  if (r.exit_code != 0 || it == got.end()) return std::nullopt;
  return it->second;
}

}  // namespace

std::vector<std::string> run_trust_corpus(const std::string& folder, const std::string& device, const std::string& db,
                                          size_t& ran, bool honest, bool ci_only, int timeout_s) {
  // One kforge run per problem and set of extra options.
  std::map<std::pair<std::string, std::vector<std::string>>, std::vector<const TrustCase*>> by_problem;
  auto cases = load_trust_corpus(folder);
  const std::optional<std::regex> only = case_filter();
  for (const auto& c : cases)
    // .cpp candidates are host code (the native CPU format); .cu and gpu_only ones need a GPU.
    if ((device == "cpu" ? !c.gpu_only : !c.file.ends_with(".cpp")) && (!ci_only || c.ci) &&
        (!only || std::regex_search(c.file, *only)))
      by_problem[{c.problem, c.args}].push_back(&c);
  // The groups on built-in problems with no extra options go into one kforge run over a folder
  // in the suite's layout, as a user evaluates a run folder: its builds overlap with the GPU's
  // work, which one run per problem would never show (issue 19), and it takes a fraction of the time.
  std::vector<const TrustCase*> as_folder;
  for (auto it = by_problem.begin(); it != by_problem.end();)
    if (it->first.second.empty() && it->first.first.starts_with("problems/level")) {
      as_folder.insert(as_folder.end(), it->second.begin(), it->second.end());
      it = by_problem.erase(it);
    } else {
      ++it;
    }
  const std::string timeout = std::to_string(timeout_s), max_time = device == "cpu" ? "1" : "3";
  struct Call {
    std::string what;
    std::vector<std::string> args;
    std::vector<const TrustCase*> cases;
  };
  std::vector<Call> calls;
  TempDir layout;
  if (!as_folder.empty()) {
    // level<L>/<problem>/<case file>: kforge eval finds each candidate's problem by its folder.
    const std::filesystem::path root = layout.file("run");
    for (const auto* c : as_folder) {
      const std::filesystem::path problem(c->problem);
      const auto into = root / problem.parent_path().filename() / problem.stem();
      std::filesystem::create_directories(into);
      std::filesystem::copy_file(source_path(folder + "/" + c->file), into / c->file,
                                 std::filesystem::copy_options::overwrite_existing);
    }
    std::vector<std::string> args = eval_command(db, device, max_time, timeout);
    args.push_back(root.string());
    calls.push_back({"the folder of " + std::to_string(as_folder.size()) + " case(s)", args, as_folder});
  }
  for (const auto& [run, group] : by_problem) {
    const auto& [problem, extra] = run;
    // On the GPU the speedups are asserted (faster, max_speedup) and want samples; on the CPU only
    // verdicts are, and the hacks that turn after 12 calls meet their 6th timed pair well within 1 s.
    std::vector<std::string> args = eval_command(db, device, max_time, timeout);
    args.insert(args.end(), {"--problem", source_path(problem)});
    args.insert(args.end(), extra.begin(), extra.end());
    for (const auto* c : group) args.push_back(source_path(folder + "/" + c->file));
    calls.push_back({problem, args, group});
  }
  std::vector<std::string> failures;
  ran = 0;
  for (const auto& [what, args, group] : calls) {
    const auto started = std::chrono::steady_clock::now();
    auto r = run_kforge(args);
    std::cout << folder << ": " << what << ": kforge eval took "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() << " s\n";
    if (r.exit_code != 0) {
      failures.push_back(what + ": kforge exited with " + std::to_string(r.exit_code) + ": " + r.err);
      continue;
    }
    auto got = r.lines_by_candidate();
    for (const auto* c : group) {
      ++ran;
      auto it = got.find(c->file);
      if (it == got.end()) {
        failures.push_back(c->file + ": no result");
        continue;
      }
      const auto& l = it->second;
      std::string verdict = l.at("verdict");
      std::string said = c->file + ": got " + verdict +
                         (l.contains("rule") && l["rule"].is_string() ? " (" + l["rule"].get<std::string>() + ")" : "") +
                         ": " + l.value("message", std::string());
      const auto& deserved = device != "cpu" && !c->verdicts_on_gpu.empty() ? c->verdicts_on_gpu : c->verdicts;
      if (std::find(deserved.begin(), deserved.end(), verdict) == deserved.end()) {
        failures.push_back(said);
        continue;
      }
      if (!c->message.empty() && l.value("message", std::string()).find(c->message) == std::string::npos)
        failures.push_back(said + " [expected the message to say: " + c->message + "]");
      if (device != "cpu") {
        // On a GPU the stream is held while each forward is queued; only a forward that waits on
        // the GPU inside it (the case says so) is timed without the hold.
        const std::string message = l.value("message", std::string());
        const bool not_held = message.find("stream not held") != std::string::npos;
        if (!c->message_on_gpu.empty() && message.find(c->message_on_gpu) == std::string::npos)
          failures.push_back(said + " [expected the message to say: " + c->message_on_gpu + "]");
        if (honest && verdict == "correct" && c->message_on_gpu.empty() && not_held)
          failures.push_back(said + " [timed without the stream hold]");
      }
      if (verdict == "rejected" && !c->rules.empty() &&
          std::find(c->rules.begin(), c->rules.end(), l.value("rule", std::string())) == c->rules.end()) {
        std::string names;
        for (const auto& r : c->rules) names += (names.empty() ? "" : " or ") + r;
        failures.push_back(said + " [expected rule " + names + "]");
      }
      // On the CPU no bound is under 3: on a 2-core development machine honest candidates of the
      // Add+ReLU target timed 1.3-2.1 times their reference's speed (session 17; the build before
      // that session's changes did the same, 1.46-1.85), where the CI machine stayed under 1.3.
      // The hacks these bounds catch inflate 18-24x; on the GPU the file's bound holds.
      const std::optional<double> bound =
          c->max_speedup ? std::optional(device == "cpu" ? std::max(*c->max_speedup, 3.0) : *c->max_speedup) : std::nullopt;
      if (bound && speedup_of(l) > *bound) {
        // On a GPU a problem's speed can be drawn per process: on the H200 level1/83's forward
        // runs at 2.74 or 3.26 ms for a process's life, so an honest identity lands at 1.19 in about
        // 1 run of 8 (docs/benchmarks.md, session 43), and so did this corpus's memory-holding case
        // once, failing a sound defence. A hack that works inflates every run; a draw seldom twice
        // in a row: an overshoot is measured again with fresh processes (on the CPU too, where the
        // bound is far above such noise), and the case fails when the second is over the bound as well.
        // The second run must also give a verdict the case deserves, and a result at all.
        const auto again = evaluate_again(*c, folder, device, db, max_time, timeout);
        const std::string again_verdict = again ? again->value("verdict", std::string("?")) : std::string();
        const std::string again_said =
            again ? again_verdict + " at " + std::to_string(speedup_of(*again)) : std::string("no result");
        std::cout << folder << ": " << c->file << ": speedup " << speedup_of(l) << " above " << *bound
                  << "; measured again in fresh processes: " << again_said << "\n";
        if (!again || std::find(deserved.begin(), deserved.end(), again_verdict) == deserved.end() ||
            speedup_of(*again) > *bound)
          failures.push_back(said + " [speedup " + std::to_string(speedup_of(l)) + " above " + std::to_string(*bound) +
                             ", and again: " + again_said + "]");
      }
      if (c->faster && verdict == "correct" &&
          !(l["speedup_ci"].is_array() && l["speedup_ci"].size() == 2 && l["speedup_ci"][0].get<double>() > 1.0))
        failures.push_back(said + " [expected faster: the speedup interval " + l["speedup_ci"].dump() +
                           " does not lie above 1]");
    }
  }
  return failures;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

void expect_trust_corpus(const std::string& folder, const std::string& device, size_t min_cases, bool honest,
                         bool ci_only, int timeout_s) {
  TempDir dir;
  size_t ran = 0;
  // KFORGE_TRUST_DB=FILE: the store is kept there (a device run brings it back for kforge report).
  const char* keep = std::getenv("KFORGE_TRUST_DB");
  const std::string db = keep && *keep ? std::string(keep) : dir.file("k.db");
  auto failures = run_trust_corpus(folder, device, db, ran, honest, ci_only, timeout_s);
  if (case_filter()) {
    // Reported as skipped only when nothing failed (ctest counts a skipped test's output as a skip).
    ASSERT_GE(ran, 1u) << folder << ": KFORGE_CORPUS_CASES matched no case";
    ASSERT_TRUE(failures.empty()) << joined(failures);
    GTEST_SKIP() << "only the " << ran << " case(s) matching KFORGE_CORPUS_CASES ran, all as expected: not the whole corpus";
  }
  EXPECT_GE(ran, min_cases) << folder;
  EXPECT_TRUE(failures.empty()) << joined(failures);
}

}  // namespace kforge::testing
