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
#include "planner/builds_ahead.hpp"
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
    // Gone from the run folder: the prompt shows the parent's digest alone.
    if (parent.candidate_path) parent_source = read_file_if_readable(*parent.candidate_path).value_or("");
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
  ExecutorConfig workers = o.workers;
  if (plan.size() < workers.worker_devices.size()) workers.worker_devices.resize(plan.size());  // leases: no more than jobs
  // A round's builds run ahead of its evaluations on the build cores, load_inline ones too on a
  // GPU: built inside a leased worker, each held that GPU from every search for its whole build.
  const Prepare prepare = builds_ahead(plan, arch, workers.cuda, workers.worker_devices.size(), store,
                                       {.announce = false, .inline_even_when_few = true});
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

namespace {

// What the searches of one run share, each behind the mutex: the dollars and tokens spent (a
// resumed run's too), the models' providers and call slots, the turn of the models, the summary
// and the output lines.
class RunShared {
 public:
  RunShared(const std::vector<ProblemSearch>& searches, const AgentOptions& o,
            const std::function<void(const std::string&)>& on_line)
      : o_(o), on_line_(on_line), started_(Clock::now()) {
    for (const auto& s : searches)
      for (const auto& n : s.nodes) {
        spent_ += n.cost_usd;
        tokens_ += n.input_tokens + n.output_tokens;
        ++model_turn_;
      }
    for (const auto& m : o.models) {
      providers_.push_back(llm::make_provider(m.config, m.key));
      slots_.push_back(std::make_unique<std::counting_semaphore<1024>>(std::clamp(m.config.concurrency, 1, 1024)));
    }
    if (o.planner) planner_ = llm::make_provider(o.planner->config, o.planner->key);
  }

  void say(const std::string& line) {
    std::lock_guard lock(mutex_);
    on_line_(line);
  }
  // The model an attempt goes to: each in turn, over every problem's attempts.
  size_t next_model() {
    std::lock_guard lock(mutex_);
    return model_turn_++ % o_.models.size();
  }
  // The run-wide budget a new round of `s` would overrun (wall time, dollars, tokens), else its own
  // dollar budget; the summary says which of the run's ran out.
  std::optional<std::string> exhausted_budget(const ProblemSearch& s) {
    bool out_of_time = false, out_of_money = false, out_of_tokens = false;
    {
      std::lock_guard lock(mutex_);
      if (o_.budgets.wall_s > 0 && std::chrono::duration<double>(Clock::now() - started_).count() >= o_.budgets.wall_s)
        out_of_time = summary_.out_of_time = true;
      if (o_.budgets.usd > 0 && spent_ >= o_.budgets.usd) out_of_money = summary_.budget_exhausted = true;
      if (o_.budgets.tokens > 0 && tokens_ >= o_.budgets.tokens) out_of_tokens = summary_.budget_exhausted = true;
    }
    if (out_of_time) return "the run's wall-time budget";
    if (out_of_money) return "the run's dollar budget";
    if (out_of_tokens) return "the run's token budget";
    double own = 0;
    for (const auto& n : s.nodes) own += n.cost_usd;
    if (o_.budgets.problem_usd > 0 && own >= o_.budgets.problem_usd) return "its dollar budget";
    return std::nullopt;
  }
  void count_attempt(const AgentNode& n) {
    std::lock_guard lock(mutex_);
    summary_.attempts++;
    summary_.input_tokens += n.input_tokens;
    summary_.output_tokens += n.output_tokens;
    summary_.cost_usd += n.cost_usd;
    spent_ += n.cost_usd;
    tokens_ += n.input_tokens + n.output_tokens;
  }
  void count_profile(double seconds) {
    std::lock_guard lock(mutex_);
    summary_.profiles++;
    summary_.profile_s += seconds;
  }
  llm::Provider& provider(size_t model) { return *providers_[model]; }
  llm::Provider* planner() { return planner_.get(); }
  std::counting_semaphore<1024>& slot(size_t model) { return *slots_[model]; }
  AgentSummary summary() const { return summary_; }  // after every search's thread has joined

 private:
  const AgentOptions& o_;
  const std::function<void(const std::string&)>& on_line_;
  const Clock::time_point started_;
  std::mutex mutex_;
  AgentSummary summary_;
  double spent_ = 0;
  int64_t tokens_ = 0;
  size_t model_turn_ = 0;
  std::vector<std::unique_ptr<llm::Provider>> providers_;
  std::unique_ptr<llm::Provider> planner_;
  std::vector<std::unique_ptr<std::counting_semaphore<1024>>> slots_;
};

// One problem's search, on a thread of its own: rounds of attempts (each a model call, then an
// evaluation at once on a leased warm worker) until a stopping rule or a budget ends it. A resumed
// run first evaluates the attempts its predecessor answered but never evaluated.
class SearchRunner {
 public:
  SearchRunner(ProblemSearch& s, RunShared& shared, const AgentOptions& o, const std::filesystem::path& db,
               int64_t run_id, const std::atomic<bool>& cancel, const std::string& arch)
      : s_(s), shared_(shared), o_(o), db_(db), run_id_(run_id), cancel_(cancel), arch_(arch), store_(db),
        policy_(make_policy(o.policy, o.policy_options)), rng_(o.seed ^ std::hash<std::string>{}(s.problem.hash)) {
    for (size_t j = 0; j < s_.nodes.size(); ++j) {
      round_ = std::max(round_, s_.nodes[j].round);
      if (!s_.nodes[j].verdict && s_.nodes[j].candidate_path) pending_.push_back(j);
    }
  }

  void run() {
    if (pending_.empty()) check_stops();
    while (!s_.finished && !cancel_) {
      const auto best_before = best_id();
      if (!pending_.empty()) {
        evaluate_pending();
      } else {
        if (auto why = shared_.exhausted_budget(s_)) return stop(*why);
        std::vector<Attempt> attempts = propose_round();
        if (attempts.empty()) return stop("the policy has nothing more to try");
        run_round(attempts);
        if (cancel_) break;
      }
      profile_new_best(best_before);
      check_stops();
    }
  }

 private:
  void stop(const std::string& why) {
    s_.finished = true;
    s_.stop_reason = why;
    auto best = s_.best();
    shared_.say(fmt::format("{}: stopped ({}); best {}", s_.problem.display_name(), why,
                            best ? fmt::format("attempt #{} {}", s_.nodes[*best].id, verdict_text(s_.nodes[*best])) : "none"));
  }
  void check_stops() {
    if (auto why = stop_reason(s_, o_.budgets)) stop(*why);
  }
  std::optional<int64_t> best_id() const {
    auto best = s_.best();
    return best ? std::optional<int64_t>(s_.nodes[*best].id) : std::nullopt;
  }

  // Nodes answered but never evaluated (a killed run's): built and evaluated together.
  void evaluate_pending() {
    std::vector<PlannedEval> plan;
    for (size_t j : pending_) plan.push_back(plan_node(s_, s_.nodes[j], o_.out_dir));
    std::vector<EvaluationRecord> records;
    if (!plan.empty()) records = evaluate(plan, o_.eval, o_, store_, run_id_, arch_);
    for (size_t k = 0; k < pending_.size() && k < records.size(); ++k) {
      AgentNode& n = s_.nodes[pending_[k]];
      judge(n, records[k], store_);
      shared_.say(attempt_line(s_, n));
    }
    pending_.clear();
  }

  // The next round's attempts as the policy proposes them, within the attempts budget.
  std::vector<Attempt> propose_round() {
    ++round_;
    auto proposals = policy_->propose(s_, rng_);
    const size_t room = static_cast<size_t>(std::max(0, o_.budgets.attempts - static_cast<int>(s_.nodes.size())));
    if (proposals.size() > room) proposals.resize(room);
    std::vector<Attempt> attempts;
    for (auto& p : proposals) {
      Attempt a;
      a.proposal = std::move(p);
      a.model = shared_.next_model();
      a.k = static_cast<int>(attempts.size()) + 1;
      attempts.push_back(std::move(a));
    }
    return attempts;
  }

  // The round's attempts, each on a thread of its own: its model call (holding one of its model's
  // slots), then, stored in attempt order (a replay's k-th attempt is this run's k-th), its
  // evaluation on a leased warm worker at once, while slower calls still run. What went wrong
  // after an attempt's model call (the store refusing a write, a worker lost) never passes its
  // thread, where it would end kforge and strand the attempts queued behind its turn: the search
  // stops after the round with the first, and --resume goes on.
  void run_round(std::vector<Attempt>& attempts) {
    RoundOrder order;
    std::vector<char> evaluated(attempts.size(), 0);
    std::vector<std::string> failures(attempts.size());
    std::vector<std::thread> calls;
    for (size_t i = 0; i < attempts.size(); ++i)
      calls.emplace_back([&, i] {
        try {
          evaluated[i] = attempt(attempts[i], i, order);
        } catch (const std::exception& e) {
          failures[i] = e.what();
        }
      });
    for (auto& t : calls) t.join();
    for (size_t i = 0; i < attempts.size(); ++i) {
      if (attempts[i].node.outcome == "cancelled" || attempts[i].node.id == 0) continue;  // not stored
      s_.nodes.push_back(attempts[i].node);
      if (attempts[i].node.candidate_path && !evaluated[i]) pending_.push_back(s_.nodes.size() - 1);
    }
    for (size_t i = 0; i < attempts.size(); ++i)
      if (!failures[i].empty())
        throw Error(fmt::format("attempt {} of round {}: {} (what was stored is kept: `kforge agent --resume {}` goes on)",
                                attempts[i].k, round_, failures[i], run_id_));
  }

  // The turns in which a round's attempts are stored: the i-th waits for the (i-1)-th.
  struct RoundOrder {
    std::mutex mutex;
    std::condition_variable turn;
    size_t next = 0;
  };

  // One attempt of a round, on its own thread: the model call, the node stored in its turn, its
  // evaluation. True once it is evaluated.
  bool attempt(Attempt& a, size_t i, RoundOrder& order) {
    shared_.slot(a.model).acquire();
    try {
      make_attempt(a, s_, o_, shared_.provider(a.model), shared_.planner(), round_, cancel_);
    } catch (const std::exception& e) {
      a.node.outcome = "error";
      a.node.verdict = "call_failed";
      a.node.digest = answer_feedback("error", e.what()).digest;
    }
    shared_.slot(a.model).release();
    const bool answered = a.node.outcome != "cancelled";  // else nothing answered: not an attempt
    {
      std::unique_lock lock(order.mutex);
      order.turn.wait(lock, [&] { return order.next == i; });
      // The next attempt's turn comes whether or not this one could be stored.
      struct NextTurn {
        RoundOrder& order;
        ~NextTurn() {
          ++order.next;
          order.turn.notify_all();
        }
      } next_turn{order};
      if (answered) {
        a.node.run_id = run_id_;
        store_.put_problem(s_.problem);
        if (a.node.candidate_path) store_.put_candidate(load_candidate_file(*a.node.candidate_path));
        a.node.id = store_.insert_agent_node(a.node);
        if (!a.node.candidate_path) store_.finish_agent_node(a.node);  // its verdict is its outcome
      }
    }
    if (!answered) return false;
    shared_.count_attempt(a.node);
    if (!a.node.candidate_path) {
      shared_.say(fmt::format("round {} {} attempt #{} ({}, {}): {}", a.node.round, s_.problem.display_name(), a.node.id,
                              a.node.role, a.node.model, a.node.outcome));
      return false;
    }
    if (cancel_) return false;  // answered and stored: --resume evaluates it
    Store own(db_);             // the evaluation's connection: the round's attempts evaluate side by side
    std::vector<PlannedEval> plan{plan_node(s_, a.node, o_.out_dir)};
    auto records = evaluate(plan, o_.eval, o_, own, run_id_, arch_);
    if (records.empty()) return false;
    judge(a.node, records.front(), own);
    shared_.say(attempt_line(s_, a.node));
    return true;
  }

  // Where it pays (issue 20): a round that found a new best kernel win has its slowest own kernel
  // profiled; the attempts refined from it read the digest. `before`: the best's id before the round.
  void profile_new_best(std::optional<int64_t> before) {
    auto best = s_.best();
    if (o_.ncu.empty() || cancel_ || !best) return;
    AgentNode& n = s_.nodes[*best];
    if (n.id == before || !n.kernel_win || !n.candidate_path) return;  // best() is correct already
    if (o_.workers.server.empty()) {
      shared_.say(fmt::format("{}: attempt #{} not profiled: no warm workers to lease a GPU from", s_.problem.display_name(),
                              n.id));
      return;
    }
    KernelProfile p = profile_slowest_kernel(o_.workers.server, o_.ncu, s_.problem.path, *n.candidate_path, n.digest,
                                             o_.profile_confined, o_.profile_timeout);
    shared_.count_profile(p.seconds);
    if (!p.ok) {
      shared_.say(fmt::format("{}: attempt #{} not profiled ({:.0f} s): {}", s_.problem.display_name(), n.id, p.seconds,
                              p.error.substr(0, 400)));
      return;
    }
    n.digest += "\n" + p.lines;
    store_.finish_agent_node(n);
    shared_.say(
        fmt::format("{}: attempt #{} profiled with Nsight Compute in {:.0f} s", s_.problem.display_name(), n.id, p.seconds));
  }

  ProblemSearch& s_;
  RunShared& shared_;
  const AgentOptions& o_;
  const std::filesystem::path& db_;
  const int64_t run_id_;
  const std::atomic<bool>& cancel_;
  const std::string& arch_;
  Store store_;  // a connection of its own: searches store concurrently
  std::unique_ptr<SearchPolicy> policy_;
  std::mt19937_64 rng_;
  int round_ = 0;
  std::vector<size_t> pending_;  // nodes answered but not yet evaluated (a killed run's too)
};

}  // namespace

AgentSummary run_agent(std::vector<ProblemSearch>& searches, const AgentOptions& o, const std::filesystem::path& db,
                       int64_t run_id, const std::atomic<bool>& cancel,
                       const std::function<void(const std::string&)>& on_line) {
  if (o.models.empty()) throw UsageError("kforge agent needs at least one model");
  (void)make_policy(o.policy, o.policy_options);  // an unknown name fails before any thread starts
  const bool cuda = o.workers.cuda;
  const std::string arch = resolve_arch(o.eval.arch, cuda && o.prompt.format == "cuda");
  if (cuda && (o.prompt.format == "cuda" || o.prompt.format == "kernelbench")) export_torch_arch_list(arch);
  RunShared shared(searches, o, on_line);

  // One search per problem, side by side: while one waits for its models, another's candidates
  // are evaluated (the warm workers' leases keep one candidate per GPU at a time).
  std::vector<std::thread> threads;
  std::vector<std::string> errors(searches.size());
  for (size_t i = 0; i < searches.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        SearchRunner(searches[i], shared, o, db, run_id, cancel, arch).run();
      } catch (const std::exception& e) {
        errors[i] = e.what();
        shared.say(fmt::format("{}: its search failed: {}", searches[i].problem.display_name(), e.what()));
      }
    });
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (!e.empty()) throw Error("kforge agent: " + e);
  AgentSummary summary = shared.summary();
  summary.cancelled = cancel;
  return summary;
}

}  // namespace kforge::agent
