#pragma once
// How a step of an evaluation ends it with a verdict, in either process of the boundary: a
// Failure thrown from inside, caught once at the top (evaluate() in the reference process,
// the request loop in the candidate process) and turned into a plain result record.
#include <c10/util/Exception.h>
#include <pybind11/pybind11.h>

#include <exception>
#include <string>

#include "core/verdict.hpp"
#include "worker/python_bridge.hpp"

namespace kforge::worker {

struct Failure {
  Verdict verdict;
  std::string message;
  std::string rule;  // for rejected: the rule that fired
  // The job met something no candidate could have caused (another process's work on the GPU):
  // its verdict says nothing of the candidate and is not stored as its result.
  bool not_the_candidates = false;
  // A multi-rank job: this rank stopped because another rank failed (protocol::JobResult's field).
  bool another_ranks = false;
};

// Runs `fn` and turns whatever it throws into a Failure with `verdict`, prefixed by `what`.
template <class Fn>
auto guarded(Verdict verdict, const std::string& what, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const Failure&) {
    throw;
  } catch (pybind11::error_already_set& e) {
    PythonError err = describe(e);
    Verdict v = verdict;
    if (err.is_build_failure && verdict == Verdict::load_error) v = Verdict::compile_error;
    // An allocation that failed says so first: torch's wording (an allocator's assert on the CPU)
    // buries it, and for the problem's own steps it means the problem does not fit the device.
    std::string detail = err.is_out_of_memory ? "out of memory: " + err.summary : err.summary;
    if (!err.traceback.empty() && v == Verdict::compile_error) detail += "\n" + err.traceback;
    throw Failure{v, what + ": " + detail, ""};
  } catch (const c10::Error& e) {
    std::string msg = e.what_without_backtrace();
    throw Failure{verdict, what + ": " + msg.substr(0, msg.find('\n')), ""};
  } catch (const std::exception& e) {
    throw Failure{verdict, what + ": " + e.what(), ""};
  }
}

}  // namespace kforge::worker
