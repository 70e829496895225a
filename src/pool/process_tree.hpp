#pragma once
// A process and everything it started, found through each thread's children list
// (/proc/PID/task/TID/children: a child is listed under the thread that forked it), for the bounds
// a candidate's whole tree is held to (pool/task_count.hpp, pool/tree_memory.hpp): a candidate
// can spread threads or memory over child processes its own process never shows.
#include <sys/types.h>

#include <cstdint>
#include <functional>

namespace kforge {

// Calls `visit(pid, threads)` for `root` and each descendant still there, each once, until it
// returns false. False where `root` itself could not be read (gone, or never there).
bool walk_process_tree(pid_t root, const std::function<bool(pid_t pid, int64_t threads)>& visit);

}  // namespace kforge
