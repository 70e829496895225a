#pragma once
// What a candidate must leave as it found it, checked after its calls (REFERENCE.md section 5):
//   - the functions of torch, torch.cuda, torch.nn.functional, torch.Tensor, torch.nn.Module and
//     time (timer patching, faked input generators): rule `patched-torch`;
//   - the global precision settings the reference obeys too (TF32, reduced-precision
//     reductions): rule `precision-flag`;
//   - the worker's threads and child processes: work smuggled past the end of forward, rules
//     `thread-injection` and `process-injection`.
// A candidate that breaks one has changed the worker for every later job, so the worker is
// replaced after the verdict.
#include <pybind11/pybind11.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kforge::worker {

namespace py = pybind11;

struct Violation {
  std::string rule;
  std::string message;
};

class IntegrityWatch {
 public:
  IntegrityWatch();  // the snapshot: take it before the candidate is imported

  // Compares with the snapshot. Python threads and child processes are compared from the start;
  // native threads only after settle_native_threads(), since torch starts its own pools lazily
  // on the first calls of both models.
  // A thread or child found is looked for again after 50 ms before it counts.
  std::optional<Violation> check() const;
  void settle_native_threads();

 private:
  // Threads and child processes that were not there at the snapshot.
  std::optional<Violation> new_workers() const;
  // The interpreter's count of running threads that _thread started; nothing if it cannot be read.
  std::optional<long> started_thread_count() const;

  // One module or class: its callables as they were, and (classes) the names its __dict__ had.
  // Read after every call, so kept in Python's own terms: each name an interned str (hashed once)
  // looked up in the owner's real dict, and a class's names a frozenset (a check took 0.6 ms a
  // call on the CPU with the names as C strings, more than a small problem's forward).
  struct Watched {
    py::object owner;
    std::string owner_name;  // "torch.cuda", for messages
    bool is_class = false;
    std::vector<std::pair<py::object, py::object>> callables;  // (name, the callable)
    py::object keys;                                            // a class's names: a frozenset
  };
  std::vector<Watched> watched_;
  std::vector<std::string> flags_;
  std::set<unsigned long> python_threads_;
  // Threads started through _thread (and so threading), counted by the interpreter: the ones
  // without a Python frame are in no list of frames (integrity.cpp, new_workers).
  py::object count_started_threads_;
  long started_threads_ = 0;
  std::set<int> children_;
  std::optional<std::set<int>> native_threads_;
};

}  // namespace kforge::worker
