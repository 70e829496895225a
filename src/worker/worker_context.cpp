#include "worker/worker_context.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "common/environment_says.hpp"
#include "worker/failure.hpp"

namespace kforge::worker {
namespace {

// A CUDA context takes a second or two; more means a machine in trouble.
constexpr auto kReady = std::chrono::seconds(120);

// Whether a spare became ready; false, said in the log, when something killed it while it waited
// (the OOM killer, an operator): not a candidate's doing, and the caller drops it.
bool spare_ready(CandidateProcess& spare) {
  try {
    spare.wait_ready(kReady);
    return true;
  } catch (const Failure& f) {
    std::fprintf(stderr, "kforge worker: a spare candidate process was lost (%s)\n", f.message.c_str());
    return false;
  }
}

}  // namespace

size_t spare_processes(bool cuda) {
  return static_cast<size_t>(environment_integer("KFORGE_WORKER_SPARE_COUNT", 2, 8).value_or(cuda ? 6 : 3));
}

void start_spare(WorkerContext& context) {
  if (context.spares_held_back) return;
  try {
    while (context.spares.size() < spare_processes(context.cuda))
      context.spares.push_back(std::make_unique<CandidateProcess>(*context.zygote, context.zygote->spawn()));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kforge worker: no spare candidate process: %s\n", e.what());
  }
}

size_t end_spares(WorkerContext& context) {
  const size_t count = context.spares.size();
  // All killed first, then each waited for: their contexts are torn down side by side.
  for (auto& spare : context.spares) spare->end(std::chrono::milliseconds(0));
  for (auto& spare : context.spares) spare->end(std::chrono::seconds(5));
  context.spares.clear();
  return count;
}

void settle_spare(WorkerContext& context) {
  std::erase_if(context.spares, [](const std::unique_ptr<CandidateProcess>& spare) { return !spare_ready(*spare); });
}

CandidateProcess* oldest_ready_spare(WorkerContext& context) {
  while (!context.spares.empty()) {
    if (spare_ready(*context.spares.front())) return context.spares.front().get();
    context.spares.erase(context.spares.begin());
  }
  return nullptr;
}

SparesPaused::SparesPaused(WorkerContext& context, bool settle_if_asked) : context_(context) {
  if (settle_if_asked && environment_says("KFORGE_WORKER_SPARES", "settle")) settle_spare(context);
  else
    for (auto& spare : context.spares) spare->pause_start();
}

SparesPaused::~SparesPaused() {
  for (auto& spare : context_.spares) spare->continue_start();
}

std::unique_ptr<CandidateProcess> take_candidate_process(WorkerContext& context) {
  // The oldest spare whose start is over: those started together (three after each new problem's
  // load) finish in any order, and one ready need not wait behind an older one still making its
  // CUDA context (on the H200 a job waited for its spares a median 145 ms over level 1, session
  // 50). Where none is over, the oldest, waited for, not the others: they may still be making
  // their CUDA contexts (stopped where they are while anything is timed: SparesPaused), and
  // waiting for all cost every job 0.17 s on the H200 (session 31, with two). One that died is
  // dropped and the choice made again. KFORGE_WORKER_SPARE_TAKE=oldest always takes the oldest,
  // as before session 51.
  static const bool oldest_only = environment_says("KFORGE_WORKER_SPARE_TAKE", "oldest");
  while (!context.spares.empty()) {
    auto it = oldest_only ? context.spares.end()
                          : std::find_if(context.spares.begin(), context.spares.end(),
                                         [](const std::unique_ptr<CandidateProcess>& spare) { return spare->start_over(); });
    if (it == context.spares.end()) it = context.spares.begin();
    if (!spare_ready(**it)) {
      context.spares.erase(it);
      continue;
    }
    auto process = std::move(*it);
    context.spares.erase(it);
    return process;
  }
  auto process = std::make_unique<CandidateProcess>(*context.zygote, context.zygote->spawn());
  process->wait_ready(kReady);
  return process;
}

std::unique_ptr<CandidateProcess> rank_process(WorkerContext& context) {
  // The namespaces of the job's private network, inherited from kforge (pool/worker_process.cpp:
  // KFORGE_WORKER_RANK_NETWORK=USER,NET, USER -1 where the holder made no user namespace). The
  // zygote's child joins them right after its fork; they stay open for the worker's next spawn.
  const char* fds = std::getenv("KFORGE_WORKER_RANK_NETWORK");
  int user = -1, net = -1;
  struct stat net_stat {};
  if (!fds || std::sscanf(fds, "%d,%d", &user, &net) != 2 || net < 0 || ::fstat(net, &net_stat) != 0)
    throw Failure{Verdict::runtime_error, "this worker was given no private network for its candidates", "", true};
  Zygote::RankNetwork network{user, net};
  auto process = std::make_unique<CandidateProcess>(*context.zygote, context.zygote->spawn(&network));
  process->expect_network(static_cast<uint64_t>(net_stat.st_ino));
  process->wait_ready(kReady);
  return process;
}

}  // namespace kforge::worker
