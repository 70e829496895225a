#include "pool/rank_job.hpp"

#include <sys/stat.h>

#include <array>
#include <filesystem>
#include <memory>
#include <string_view>
#include <thread>

#include "common/errors.hpp"
#include "worker/private_network.hpp"

namespace kforge {
namespace {

// What a rank says when another rank's failure broke the collective it was in (gloo, NCCL): the
// other rank's error is the cause, this one only its echo (as python/kforge_ranks.py reads them).
// Read from the text, since it comes from torch inside the candidate's process; the ranks that
// stopped because the ranks agreed to are flagged (JobResult::another_ranks_failure) instead.
constexpr std::array<std::string_view, 5> kEchoes{"Connection closed by peer", "Connection reset by peer", "timed out",
                                                  "Timed out", "NCCL communicator was aborted"};

// How long a collective of either group may wait (a rank that died): within a job's own timeout.
constexpr double kGroupTimeoutS = 60;

bool failed(const JobOutcome& o) { return o.failure != JobFailure::none || o.result.verdict != Verdict::correct; }

std::string text_of(const JobOutcome& o) { return o.failure != JobFailure::none ? o.detail : o.result.message; }

bool is_echo(const JobOutcome& o) {
  if (o.failure == JobFailure::none && o.result.another_ranks_failure) return true;
  const std::string text = text_of(o);
  for (auto echo : kEchoes)
    if (text.find(echo) != std::string::npos) return true;
  return false;
}

// "rank 1: ..." where the worker did not say which rank it was (a worker that died or timed out).
std::string named(int rank, const std::string& text) {
  const std::string prefix = "rank " + std::to_string(rank) + ": ";
  return text.starts_with(prefix) ? text : prefix + text;
}

JobOutcome failed_to_start(const std::string& why) {
  JobOutcome o;
  o.result.verdict = Verdict::runtime_error;
  o.result.message = why;
  o.result.not_the_candidates = true;  // the machine's, not the candidate's
  return o;
}

}  // namespace

JobOutcome merge_rank_outcomes(const std::vector<JobOutcome>& ranks) {
  if (ranks.empty()) return failed_to_start("a multi-rank job without ranks");
  int cause = -1;
  for (int pass = 0; pass < 2 && cause < 0; ++pass)  // first a rank that failed of its own, then any
    for (size_t r = 0; r < ranks.size() && cause < 0; ++r)
      if (failed(ranks[r]) && (pass == 1 || !is_echo(ranks[r]))) cause = static_cast<int>(r);
  if (cause < 0) {
    JobOutcome merged = ranks.front();
    merged.result.message = std::to_string(ranks.size()) + " ranks, each pair timed as its slowest rank's; " +
                            merged.result.message;
    return merged;
  }
  JobOutcome merged = ranks[static_cast<size_t>(cause)];
  // Ranks that all ran out of time cannot be told apart: one may have hung and the others waited
  // for it in a collective. Each is named, none blamed.
  std::string timed_out;
  int timeouts = 0;
  for (size_t r = 0; r < ranks.size(); ++r)
    if (ranks[r].failure == JobFailure::timeout) {
      timed_out += (timed_out.empty() ? "" : ", ") + std::to_string(r);
      ++timeouts;
    }
  if (merged.failure == JobFailure::timeout && timeouts > 1)
    merged.detail = "ranks " + timed_out + " ran out of time (one may have waited for another in a collective): " +
                    merged.detail;
  else if (merged.failure != JobFailure::none)
    merged.detail = named(cause, merged.detail);
  else
    merged.result.message = named(cause, merged.result.message);
  merged.result.another_ranks_failure = false;
  return merged;
}

JobOutcome run_rank_job(const protocol::EvalJob& job, int world_size, const WorkerConfig& base, std::chrono::seconds deadline) {
  // The meeting folder: a scratch folder (a dead kforge's is removed by the next, as workers' are).
  const std::filesystem::path rendezvous = make_scratch();
  struct Removed {
    std::filesystem::path path;
    ~Removed() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } removed{rendezvous};
  protocol::RankPlace common;
  common.world_size = world_size;
  common.rendezvous = rendezvous.string();
  common.timeout_s = std::min(kGroupTimeoutS, static_cast<double>(deadline.count()));
  std::filesystem::create_directories(common.references_folder());
  std::filesystem::create_directories(common.candidates_folder());
  ::chmod(rendezvous.c_str(), 0700);

  std::unique_ptr<worker::PrivateNetworkHolder> network;
  try {
    network = std::make_unique<worker::PrivateNetworkHolder>();
  } catch (const Error& e) {
    return failed_to_start(std::string("a multi-rank job's candidates need a private network namespace, and this machine "
                                       "gives none: ") +
                           e.what());
  }

  std::vector<JobOutcome> outcomes(static_cast<size_t>(world_size));
  std::vector<std::thread> threads;
  for (int r = 0; r < world_size; ++r)
    threads.emplace_back([&, r] {
      WorkerConfig config = base;
      config.log_path.replace_filename(config.log_path.stem().string() + "-rank" + std::to_string(r) +
                                       config.log_path.extension().string());
      config.rank_references_folder = common.references_folder();
      config.rank_candidates_folder = common.candidates_folder();
      config.rank_user_namespace_fd = network->user_namespace_fd();
      config.rank_network_namespace_fd = network->network_namespace_fd();
      protocol::EvalJob rank_job = job;
      rank_job.rank = common;
      rank_job.rank->rank = r;
      JobOutcome& out = outcomes[static_cast<size_t>(r)];
      try {
        WorkerProcess worker(config);
        worker.ensure_started();
        out = worker.run(rank_job, deadline);
      } catch (const Error& e) {
        out.failure = JobFailure::crashed;
        out.detail = std::string("its worker could not start: ") + e.what();
      }
    });
  for (auto& t : threads) t.join();
  return merge_rank_outcomes(outcomes);
}

}  // namespace kforge
