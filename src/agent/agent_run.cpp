#include "agent/agent_run.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <random>
#include <semaphore>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "agent/agent_prompts.hpp"
#include "agent/feedback.hpp"
#include "agent/kernel_profile.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/sha256.hpp"
#include "generate/code_extraction.hpp"
#include "llm/provider.hpp"
#include "planner/inline_prebuild.hpp"
#include "planner/native_builds.hpp"

namespace kforge::agent {
namespace {

using Clock = std::chrono::steady_clock;

std::string extension_of(const std::string& format) {
  if (format == "cuda") return ".cu";
  if (format == "cpp") return ".cpp";
  return ".py";
}

// A proposal of this round, with what its model call made of it.
struct Attempt {
  Proposal proposal;
  size_t model = 0;   // index into options.models
  int k = 0;          // its number in the round
  AgentNode node;     // filled by the call, stored at once
};

// The model call of one attempt: the prompt, the answer, the candidate file. Runs on a pool thread.
void make_attempt(Attempt& a, const ProblemSearch& search, const AgentOptions& o, llm::Provider& provider,
                  llm::Provider* planner, int round, const std::atomic<bool>& cancel) {
  const AgentModel& model = o.models[a.model];
  std::string parent_source, digest;
  AgentNode& n = a.node;
  if (a.proposal.parent) {
    const AgentNode& parent = search.nodes[*a.proposal.parent];
    n.parent_id = parent.id;
    if (parent.candidate_path) try {
        parent_source = read_file(*parent.candidate_path);
      } catch (const Error&) {  // gone from the run folder: the prompt shows the parent's digest alone
      }
    digest = parent.digest;
  }
  n.problem_hash = search.problem.hash;
  n.round = round;
  n.role = std::string(to_string(a.proposal.role));
  n.direction = a.proposal.direction;
  n.model = model.config.name;
  if (planner && a.proposal.role == Role::refiner) {
    // The planner's plan becomes the refiner's direction; its call is paid for by this attempt.
    generate::Prompt ask = plan_prompt(search.problem, o.prompt, a.proposal.direction, parent_source, digest);
    llm::CallOptions call;
    call.cancel = &cancel;
    llm::Completion plan = planner->complete({ask.system, ask.user}, {search.problem.hash, o.prompt.format, 0, false,
                                                                       search.problem.display_name()}, call);
    n.input_tokens += plan.input_tokens;
    n.output_tokens += plan.output_tokens;
    n.cost_usd += plan.cost_usd;
    n.latency_s += plan.latency_s;
    if (plan.ok() && !plan.text.empty()) {
      a.proposal.direction = "A plan to follow, from a reviewer who read the figures:\n" + plan.text;
      n.direction = a.proposal.direction;
    }
  }
  generate::Prompt prompt =
      attempt_prompt(search.problem, o.prompt, a.proposal.role, a.proposal.direction, parent_source, digest);
  n.prompt_json = nlohmann::json{{"system", prompt.system}, {"user", prompt.user}}.dump();
  llm::CallOptions call;
  call.cancel = &cancel;
  if (a.proposal.role == Role::debugger) call.temperature = o.debugger_temperature;
  // The problem's k-th attempt: what a replay of this run answers it with.
  const llm::CallSubject subject{search.problem.hash, o.prompt.format, static_cast<int>(search.nodes.size()) + a.k, true,
                                 search.problem.display_name()};
  llm::Completion c = provider.complete({prompt.system, prompt.user}, subject, call);
  n.answer = c.text;
  n.input_tokens += c.input_tokens;
  n.output_tokens += c.output_tokens;
  n.cost_usd += c.cost_usd;
  n.latency_s += c.latency_s;
  if (!c.ok()) {
    n.outcome = c.error_kind;
    n.verdict = c.error_kind == "cancelled" ? std::nullopt : std::optional<std::string>("call_failed");
    n.digest = answer_feedback(c.error_kind, c.error).digest;
    return;
  }
  generate::Extraction e = generate::extract_code(c.text, o.prompt.format);
  n.outcome = e.outcome;
  if (!e.code) {
    n.verdict = e.outcome;
    n.digest = answer_feedback(e.outcome, e.message).digest;
    return;
  }
  const auto path = attempt_path(o.out_dir, search.problem, round, a.k, model.config.name, o.prompt.format);
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << *e.code;
  n.candidate_path = path.string();
  n.candidate_hash = sha256_hex(*e.code);
}

PlannedEval plan_node(const ProblemSearch& search, const AgentNode& n, const std::filesystem::path& out_dir) {
  std::error_code ec;
  std::string name = std::filesystem::relative(*n.candidate_path, out_dir, ec).string();
  if (ec || name.empty()) name = *n.candidate_path;
  PlannedEval e = plan_candidate(search.problem, *n.candidate_path, name);
  e.format = build::format_of(name).value_or(build::Format::kernelbench);
  return e;
}

// Builds and evaluates `plan` on the run's workers; the records in plan order.
std::vector<EvaluationRecord> evaluate(std::vector<PlannedEval>& plan, const EvalSettings& settings,
                                      const AgentOptions& o, Store& store, int64_t run_id, const std::string& arch) {
  // Each candidate and its problem were stored with its node (the node's foreign keys need them).
  Prepare prepare;
  prepare.waits = [](const PlannedEval& e) { return builds_natively(e); };
  prepare.run = [&](const std::function<void(size_t)>& ready, std::mutex& store_mutex) {
    if (std::any_of(plan.begin(), plan.end(), builds_natively))
      build_native_candidates(plan, arch, &store, 0, ready, &store_mutex);
  };
  ExecutorConfig workers = o.workers;
  if (plan.size() < workers.worker_devices.size()) workers.worker_devices.resize(plan.size());  // leases: no more than jobs
  return execute_plan(plan, settings, workers, store, run_id, prepare, {}, {});
}

std::string verdict_text(const AgentNode& n) {
  if (!n.verdict) return "not evaluated";
  if (n.speedup && *n.verdict == "correct")
    return fmt::format("correct {:.3f}x{}", *n.speedup, n.kernel_win ? "" : " (library kernels)");
  return *n.verdict;
}

// What an evaluation makes of its node: verdict, speedup, kernel win and digest, stored.
void judge(AgentNode& n, const EvaluationRecord& r, Store& store) {
  std::optional<double> compile_ms;
  const std::string device = r.device == "cpu" ? "cpu" : r.device_name;
  if (auto b = store.find_baseline(r.problem_hash, "compile", device, r.torch_version); b && b->median_ms && !b->error)
    compile_ms = b->median_ms;
  Feedback f = evaluation_feedback(r, compile_ms);
  n.evaluation_id = r.id;
  n.verdict = std::string(to_string(r.verdict));
  n.speedup = r.verdict == Verdict::correct ? r.speedup : std::nullopt;
  n.kernel_win = f.kernel_win;
  n.digest = f.digest;
  store.finish_agent_node(n);
}

std::string attempt_line(const ProblemSearch& s, const AgentNode& n) {
  std::string parent = n.parent_id ? fmt::format(", parent #{}", *n.parent_id) : "";
  return fmt::format("round {} {} attempt #{} ({}{}, {}): {}", n.round, s.problem.display_name(), n.id, n.role, parent,
                     n.model, verdict_text(n));
}

}  // namespace

void finish_searches(const std::vector<ProblemSearch>& searches, const AgentOptions& o, Store& store, int64_t run_id,
                     const std::function<void(const std::string&)>& on_line) {
  std::vector<PlannedEval> plan;
  std::vector<const AgentNode*> bests;
  std::vector<const ProblemSearch*> owners;
  for (const auto& s : searches)
    if (auto best = s.best()) {
      plan.push_back(plan_node(s, s.nodes[*best], o.out_dir));
      bests.push_back(&s.nodes[*best]);
      owners.push_back(&s);
    }
  if (plan.empty()) return;
  std::vector<EvaluationRecord> again;
  if (o.reverify) {
    EvalSettings fresh = o.eval;
    fresh.force = true;  // new secret seeds: a candidate tuned to the inputs it was shown fails here
    const std::string arch = resolve_arch(o.eval.arch, o.workers.cuda && o.prompt.format == "cuda");
    again = evaluate(plan, fresh, o, store, run_id, arch);
  }
  for (size_t k = 0; k < plan.size(); ++k) {
    const AgentNode& n = *bests[k];
    std::string held = "not re-verified";
    if (k < again.size()) {
      const EvaluationRecord& r = again[k];
      if (r.verdict != Verdict::correct) {
        on_line(fmt::format("{}: best attempt #{} did not hold on fresh inputs: {} ({})", owners[k]->problem.display_name(),
                            n.id, to_string(r.verdict), r.message.substr(0, 200)));
        continue;
      }
      held = r.speedup ? fmt::format("re-verified at {:.3f}x", *r.speedup) : "re-verified";
    }
    const auto to = o.out_dir / "best" / owners[k]->problem.display_name() /
                    ("best" + std::filesystem::path(*n.candidate_path).extension().string());
    std::filesystem::create_directories(to.parent_path());
    std::filesystem::copy_file(*n.candidate_path, to, std::filesystem::copy_options::overwrite_existing);
    on_line(fmt::format("{}: best attempt #{} {}, {}; written to {}", owners[k]->problem.display_name(), n.id,
                        verdict_text(n), held, to.string()));
  }
}

std::filesystem::path attempt_path(const std::filesystem::path& out_dir, const Problem& problem, int round, int k,
                                   const std::string& model, const std::string& format) {
  return out_dir / problem.display_name() / fmt::format("attempt{}_{}_{}{}", round, k, model, extension_of(format));
}

AgentSummary run_agent(std::vector<ProblemSearch>& searches, const AgentOptions& o, const std::filesystem::path& db,
                       int64_t run_id, const std::atomic<bool>& cancel,
                       const std::function<void(const std::string&)>& on_line) {
  if (o.models.empty()) throw UsageError("kforge agent needs at least one model");
  (void)make_policy(o.policy, o.policy_options);  // an unknown name fails before any thread starts
  const auto started = Clock::now();
  const bool cuda = o.workers.cuda;
  const std::string arch = resolve_arch(o.eval.arch, cuda && o.prompt.format == "cuda");
  if (cuda && (o.prompt.format == "cuda" || o.prompt.format == "kernelbench")) export_torch_arch_list(arch);

  // What the whole run shares: the dollars spent (a resumed run's too), the models' call slots,
  // the turn of the models, the summary and the output lines.
  std::mutex mutex;
  AgentSummary summary;
  double spent = 0;
  int64_t tokens = 0;
  size_t model_turn = 0;
  for (const auto& s : searches)
    for (const auto& n : s.nodes) {
      spent += n.cost_usd;
      tokens += n.input_tokens + n.output_tokens;
      ++model_turn;
    }
  std::vector<std::unique_ptr<llm::Provider>> providers;
  for (const auto& m : o.models) providers.push_back(llm::make_provider(m.config, m.key));
  std::unique_ptr<llm::Provider> planner = o.planner ? llm::make_provider(o.planner->config, o.planner->key) : nullptr;
  std::vector<std::unique_ptr<std::counting_semaphore<1024>>> slots;
  for (const auto& m : o.models)
    slots.push_back(std::make_unique<std::counting_semaphore<1024>>(std::clamp(m.config.concurrency, 1, 1024)));
  auto say = [&](const std::string& line) {
    std::lock_guard lock(mutex);
    on_line(line);
  };

  // One search per problem, side by side: while one waits for its models, another's candidates
  // are evaluated (the warm workers' leases keep one candidate per GPU at a time).
  auto search_problem = [&](ProblemSearch& s) {
    Store store(db);  // a connection of its own: searches store concurrently
    auto policy = make_policy(o.policy, o.policy_options);
    std::mt19937_64 rng(o.seed ^ std::hash<std::string>{}(s.problem.hash));
    int round = 0;
    std::vector<size_t> pending;  // nodes answered but not yet evaluated (a killed run's too)
    for (size_t j = 0; j < s.nodes.size(); ++j) {
      round = std::max(round, s.nodes[j].round);
      if (!s.nodes[j].verdict && s.nodes[j].candidate_path) pending.push_back(j);
    }
    auto stop = [&](const std::string& why) {
      s.finished = true;
      s.stop_reason = why;
      auto best = s.best();
      say(fmt::format("{}: stopped ({}); best {}", s.problem.display_name(), why,
                      best ? fmt::format("attempt #{} {}", s.nodes[*best].id, verdict_text(s.nodes[*best])) : "none"));
    };
    auto check_stops = [&] {
      if (auto why = stop_reason(s, o.budgets)) stop(*why);
    };
    if (pending.empty()) check_stops();
    // Where it pays (issue 20): a round that found a new best kernel win has its slowest own
    // kernel profiled; the attempts refined from it read the digest. `before`: the best's id
    // before the round.
    auto profile_new_best = [&](std::optional<int64_t> before) {
      auto best = s.best();
      if (o.ncu.empty() || cancel || !best) return;
      AgentNode& n = s.nodes[*best];
      if (n.id == before || !n.kernel_win || !n.candidate_path) return;  // best() is correct already
      if (o.workers.server.empty()) {
        say(fmt::format("{}: attempt #{} not profiled: no warm workers to lease a GPU from", s.problem.display_name(), n.id));
        return;
      }
      KernelProfile p = profile_slowest_kernel(o.workers.server, o.ncu, s.problem.path, *n.candidate_path, n.digest,
                                               o.profile_confined, o.profile_timeout);
      {
        std::lock_guard lock(mutex);
        summary.profiles++;
        summary.profile_s += p.seconds;
      }
      if (!p.ok) {
        say(fmt::format("{}: attempt #{} not profiled ({:.0f} s): {}", s.problem.display_name(), n.id, p.seconds,
                        p.error.substr(0, 400)));
        return;
      }
      n.digest += "\n" + p.lines;
      store.finish_agent_node(n);
      say(fmt::format("{}: attempt #{} profiled with Nsight Compute in {:.0f} s", s.problem.display_name(), n.id, p.seconds));
    };
    auto best_id = [&]() -> std::optional<int64_t> {
      auto best = s.best();
      return best ? std::optional<int64_t>(s.nodes[*best].id) : std::nullopt;
    };

    while (!s.finished && !cancel) {
      std::vector<Attempt> attempts;
      if (pending.empty()) {
        bool out_of_time = false, out_of_money = false, out_of_tokens = false;
        {
          std::lock_guard lock(mutex);
          if (o.budgets.wall_s > 0 && std::chrono::duration<double>(Clock::now() - started).count() >= o.budgets.wall_s)
            out_of_time = summary.out_of_time = true;
          if (o.budgets.usd > 0 && spent >= o.budgets.usd) out_of_money = summary.budget_exhausted = true;
          if (o.budgets.tokens > 0 && tokens >= o.budgets.tokens) out_of_tokens = summary.budget_exhausted = true;
        }
        if (out_of_time) return stop("the run's wall-time budget");
        if (out_of_money) return stop("the run's dollar budget");
        if (out_of_tokens) return stop("the run's token budget");
        double own = 0;
        for (const auto& n : s.nodes) own += n.cost_usd;
        if (o.budgets.problem_usd > 0 && own >= o.budgets.problem_usd) return stop("its dollar budget");
        ++round;
        auto proposals = policy->propose(s, rng);
        const size_t room = static_cast<size_t>(std::max(0, o.budgets.attempts - static_cast<int>(s.nodes.size())));
        if (proposals.size() > room) proposals.resize(room);
        if (proposals.empty()) return stop("the policy has nothing more to try");
        for (auto& p : proposals) {
          Attempt a;
          a.proposal = std::move(p);
          {
            std::lock_guard lock(mutex);
            a.model = model_turn++ % o.models.size();
          }
          a.k = static_cast<int>(attempts.size()) + 1;
          attempts.push_back(std::move(a));
        }
        // The round's attempts, each on a thread of its own: its model call (holding one of its
        // model's slots), then, stored in attempt order (a replay's k-th attempt is this run's
        // k-th), its evaluation on a leased warm worker at once, while slower calls still run.
        std::vector<std::thread> calls;
        std::mutex order_mutex;
        std::condition_variable turn;
        size_t next_to_store = 0;
        std::vector<char> evaluated(attempts.size(), 0);
        // What went wrong after an attempt's model call (the store refusing a write, a worker
        // lost): never past its thread, where it would end kforge and strand the attempts queued
        // behind its turn. The search stops after the round with the first, and --resume goes on.
        std::vector<std::string> failures(attempts.size());
        auto attempt_body = [&](size_t i) {
            Attempt& a = attempts[i];
            slots[a.model]->acquire();
            try {
              make_attempt(a, s, o, *providers[a.model], planner.get(), round, cancel);
            } catch (const std::exception& e) {
              a.node.outcome = "error";
              a.node.verdict = "call_failed";
              a.node.digest = answer_feedback("error", e.what()).digest;
            }
            slots[a.model]->release();
            const bool answered = a.node.outcome != "cancelled";  // else nothing answered: not an attempt
            {
              std::unique_lock lock(order_mutex);
              turn.wait(lock, [&] { return next_to_store == i; });
              // The next attempt's turn comes whether or not this one could be stored.
              struct NextTurn {
                size_t& next;
                std::condition_variable& turn;
                ~NextTurn() {
                  ++next;
                  turn.notify_all();
                }
              } next_turn{next_to_store, turn};
              if (answered) {
                a.node.run_id = run_id;
                store.put_problem(s.problem);
                if (a.node.candidate_path) store.put_candidate(load_candidate_file(*a.node.candidate_path));
                a.node.id = store.insert_agent_node(a.node);
                if (!a.node.candidate_path) store.finish_agent_node(a.node);  // its verdict is its outcome
              }
            }
            if (!answered) return;
            {
              std::lock_guard lock(mutex);
              summary.attempts++;
              summary.input_tokens += a.node.input_tokens;
              summary.output_tokens += a.node.output_tokens;
              summary.cost_usd += a.node.cost_usd;
              spent += a.node.cost_usd;
              tokens += a.node.input_tokens + a.node.output_tokens;
            }
            if (!a.node.candidate_path) {
              say(fmt::format("round {} {} attempt #{} ({}, {}): {}", a.node.round, s.problem.display_name(), a.node.id,
                              a.node.role, a.node.model, a.node.outcome));
              return;
            }
            if (cancel) return;  // answered and stored: --resume evaluates it
            Store own(db);        // the evaluation's connection: the round's attempts evaluate side by side
            std::vector<PlannedEval> plan{plan_node(s, a.node, o.out_dir)};
            auto records = evaluate(plan, o.eval, o, own, run_id, arch);
            if (records.empty()) return;
            judge(a.node, records.front(), own);
            say(attempt_line(s, a.node));
            evaluated[i] = 1;
        };
        for (size_t i = 0; i < attempts.size(); ++i)
          calls.emplace_back([&, i] {
            try {
              attempt_body(i);
            } catch (const std::exception& e) {
              failures[i] = e.what();
            }
          });
        for (auto& t : calls) t.join();
        const auto best_before = best_id();
        for (size_t i = 0; i < attempts.size(); ++i) {
          if (attempts[i].node.outcome == "cancelled" || attempts[i].node.id == 0) continue;  // not stored
          s.nodes.push_back(attempts[i].node);
          if (attempts[i].node.candidate_path && !evaluated[i]) pending.push_back(s.nodes.size() - 1);
        }
        for (size_t i = 0; i < attempts.size(); ++i)
          if (!failures[i].empty())
            throw Error(fmt::format("attempt {} of round {}: {} (what was stored is kept: `kforge agent --resume {}` goes on)",
                                    attempts[i].k, round, failures[i], run_id));
        if (cancel) break;
        profile_new_best(best_before);
        check_stops();
        continue;
      }

      // Nodes answered but never evaluated (a killed run's): built and evaluated together.
      std::vector<PlannedEval> plan;
      for (size_t j : pending) plan.push_back(plan_node(s, s.nodes[j], o.out_dir));
      std::vector<EvaluationRecord> records;
      if (!plan.empty()) records = evaluate(plan, o.eval, o, store, run_id, arch);
      const auto best_before = best_id();
      for (size_t k = 0; k < pending.size() && k < records.size(); ++k) {
        AgentNode& n = s.nodes[pending[k]];
        judge(n, records[k], store);
        say(attempt_line(s, n));
      }
      pending.clear();
      profile_new_best(best_before);
      check_stops();
    }
  };

  std::vector<std::thread> threads;
  std::vector<std::string> errors(searches.size());
  for (size_t i = 0; i < searches.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        search_problem(searches[i]);
      } catch (const std::exception& e) {
        errors[i] = e.what();
        say(fmt::format("{}: its search failed: {}", searches[i].problem.display_name(), e.what()));
      }
    });
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (!e.empty()) throw Error("kforge agent: " + e);
  summary.cancelled = cancel;
  return summary;
}

}  // namespace kforge::agent
