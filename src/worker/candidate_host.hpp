#pragma once
// The candidate process's side of the boundary (docs/evaluation.md, "The boundary"): a process
// forked from the zygote (python/kforge_zygote.py) for one candidate, which imports that candidate
// and nothing of the judge's, and answers the reference process's requests on one socket:
//   calibrate  time an empty call (before any candidate code exists: the reference process's
//              measure of what the request itself costs);
//   arena      map the exchange arena (worker/exchange_arena.hpp);
//   load       import the problem (for get_init_inputs) and the candidate; build ModelNew (or the
//              native library's entry point) seeded with 42, as the reference is;
//   call       run forward on the inputs in the arena, optionally timed (the same Timer the
//              reference uses), copy the outputs into the arena, say where they are.
// Whatever it answers is the candidate's word: the reference process checks every output
// itself, bounds every timing by its own clock, and trusts nothing else it says. The checks run
// here (the integrity watch, the kernel census) report what an honest process sees; a candidate
// that silences them has gained nothing the boundary does not already deny it.
#include <cstdint>
#include <string>
#include <vector>

namespace kforge::worker {

// The file in its scratch folder that a candidate process's stdout and stderr go to.
inline constexpr const char* kCandidateLog = "output.log";

// The scratch folder of candidate process `pid` inside the worker's scratch folder.
inline std::string candidate_scratch(const std::string& worker_scratch, int pid) {
  return worker_scratch + "/candidate-" + std::to_string(pid);
}

// Serves requests on `socket_fd` until it closes or says shutdown; returns the exit status.
// `protected_pids`: the zygote, the reference process and kforge, which the sandbox forbids
// this process to signal. `private_apart_from`: for a rank of a multi-rank job, the network
// namespace the zygote lives in, which this process left for its job's private network (worker/
// private_network.hpp): its sandbox then allows sockets, there only, and its "ready" frame names
// the namespace it is in (kforge's code, before any of the candidate's runs). 0 for a candidate.
int serve_candidate(int socket_fd, const std::vector<int>& protected_pids, uint64_t private_apart_from = 0);

// A load_inline build asked of the reference process (worker/build_broker.hpp), from inside one
// of its requests: the spec and the answer as JSON text. Whether this process can ask (it serves a
// reference process); python/kforge_inline.py asks only then.
bool asks_reference_for_builds();
std::string build_through_reference(const std::string& spec);

}  // namespace kforge::worker
