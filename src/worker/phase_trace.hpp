#pragma once
// Where one evaluation's wall time goes, finer than the three phases a result carries (load,
// correctness, timing): named parts (the reference's load, the candidate's request, its stop, the
// drain probe...) summed over the evaluation. Issue 18's cost of the process boundary is spread
// thin over hundreds of small steps; this says which of them add up.
//   KFORGE_WORKER_PHASE_TRACE=1: one line per evaluation in the worker log,
//   "kforge worker: phase trace: <problem>: <verdict>: <phases>: part=ms/count ..." (spaces in a
//   part's name written as _; bench/boundary_cost.sh reads them).
// Always on (a clock read per part, a few hundred per evaluation); printed only when asked.
#include <chrono>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace kforge::worker {

class PhaseTrace {
 public:
  static bool wanted();
  // The trace of the evaluation running in this process (one at a time per worker).
  static PhaseTrace& current();

  void reset();
  void add(std::string_view part, double ms);
  // "part=ms/count" for each part in the order first seen.
  std::string describe() const;

 private:
  struct Part {
    std::string name;
    double ms = 0;
    int count = 0;
  };
  // The reference twins' threads (worker/reference_twin.cpp) add their parts beside the main one's:
  // a part's sum then counts the time of every thread that ran it.
  mutable std::mutex mutex_;
  std::vector<Part> parts_;
};

// Adds the wall time of its scope to `part` of the current trace.
class TracedPart {
 public:
  explicit TracedPart(std::string_view part) : part_(part), t0_(std::chrono::steady_clock::now()) {}
  ~TracedPart() {
    PhaseTrace::current().add(part_, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count());
  }
  TracedPart(const TracedPart&) = delete;
  TracedPart& operator=(const TracedPart&) = delete;

 private:
  std::string_view part_;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace kforge::worker
