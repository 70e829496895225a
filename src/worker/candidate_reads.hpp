#pragma once
// What a process that runs candidate code may read, besides its writable folders and the
// candidate's own files: what common/system_reads.hpp allows of the system (its program folders,
// a list of /etc's files, not /run), the interpreter and every folder on its sys.path
// (torch among them), kforge's binary folder with the checkout's include/ and .deps/, and the
// host compilers' folders (Triton builds launchers inside the process). Both such processes use
// it: the candidate process of an evaluation (worker/candidate_host.cpp) and the load_inline
// prebuild, which imports a candidate to build its extensions (planner/inline_prebuild.cpp).
#include <cstdint>
#include <string>
#include <vector>

namespace kforge::worker {

// Needs the interpreter (it reads sys.prefix and sys.path).
std::vector<std::string> candidate_readable_folders();

// The load_inline prebuild's sandbox, entered before the candidate is imported: the candidate
// sandbox (worker/sandbox.hpp) with reads confined to candidate_readable_folders() and `files`,
// writes to candidate_writable_folders(), and kforge (the parent) protected from signals. Returns the
// sandbox's one-line description; throws std::runtime_error where its seccomp filter could not be
// installed (no candidate code runs unconfined). `kforge profile` enters it too, with
// `reads_build_cache`: it loads the libraries kforge built for its candidate from the cache. The
// prebuild only records its load_inline calls and reads none of it (other candidates' libraries).
std::string enter_prebuild_sandbox(const std::vector<std::string>& files, bool reads_build_cache = false);

// A rank of a multi-rank candidate (issue 24; docs/notes/multi-rank-judge.md), once it joined its
// job's private network: the candidate sandbox with reads confined to candidate_readable_folders(),
// writes to `writable`, its sockets allowed only because it left `private_apart_from` (the
// network namespace it was forked in). Returns the description; throws std::runtime_error where
// the filter could not be installed or the process is still in that namespace.
std::string enter_rank_sandbox(const std::vector<std::string>& writable, uint64_t private_apart_from);

}  // namespace kforge::worker
