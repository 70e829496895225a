#pragma once
// One rank's worker in a multi-rank evaluation (issue 24, docs/notes/multi-rank-judge.md): the
// references' group it joined, and the control group on which the ranks' workers agree on each
// decision taken from a measurement, so that every rank takes the same branch and no collective
// waits for a rank that went elsewhere (python/kforge_rank_control.py).
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "protocol/messages.hpp"

namespace kforge::worker {

namespace py = pybind11;

class RankGroup {
 public:
  // Joins both groups (a file in the job's references folder); throws a Failure (runtime_error)
  // when the other ranks do not come within the job's timeout.
  RankGroup(const protocol::RankPlace& place, bool cuda);
  ~RankGroup();  // leaves the groups
  RankGroup(const RankGroup&) = delete;
  RankGroup& operator=(const RankGroup&) = delete;

  int rank() const { return place_.rank; }
  const protocol::RankPlace& place() const { return place_; }

  // get_inputs(rank, world_size)'s arguments.
  py::tuple input_arguments() const { return py::make_tuple(place_.rank, place_.world_size); }

  void barrier() const;
  bool any(bool flag) const;                                      // true when any rank's is
  std::vector<double> max(const std::vector<double>& values) const;  // element by element
  bool rank_zero_says(bool flag) const;                            // rank 0's flag, on every rank

 private:
  protocol::RankPlace place_;
  py::module_ control_;
};

}  // namespace kforge::worker
