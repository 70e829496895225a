#pragma once
// A multi-rank problem's job (issue 24, docs/notes/multi-rank-judge.md): one worker per rank, each
// evaluating its rank in lockstep with the others (worker/rank_group.hpp), its reference and its
// candidate in processes of their own as for any job; the ranks' outcomes merged into one.
#include <chrono>
#include <vector>

#include "pool/job_runner.hpp"
#include "pool/worker_process.hpp"
#include "protocol/messages.hpp"

namespace kforge {

// Runs `job` on `world_size` fresh workers made from `base` (one log each, "-rank<r>" added to its
// name) and merges what they said (merge_rank_outcomes). The ranks meet through a fresh folder of
// kforge's (the references' group in one part, the candidates' in another that only they and the
// workers may write), and the candidates in a private network held for the job; all of it is
// removed before this returns.
JobOutcome run_rank_job(const protocol::EvalJob& job, int world_size, const WorkerConfig& base, std::chrono::seconds deadline);

// The job's outcome from its ranks' (in rank order): every rank correct gives rank 0's (its times
// are the slowest rank's already), its message naming the ranks; otherwise the first rank that
// failed of its own, named ("rank 1: ..."), before ranks that failed only because another did
// (their collectives broke, or they stopped when the ranks agreed to). Several ranks out of time
// are all named: a hung rank and one waiting for it look the same from outside.
JobOutcome merge_rank_outcomes(const std::vector<JobOutcome>& ranks);

}  // namespace kforge
