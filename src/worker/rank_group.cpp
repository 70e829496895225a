#include "worker/rank_group.hpp"

#include <pybind11/stl.h>

#include "worker/failure.hpp"
#include "worker/python_bridge.hpp"

namespace kforge::worker {

RankGroup::RankGroup(const protocol::RankPlace& place, bool cuda)
    : place_(place), control_(py::module_::import("kforge_rank_control")) {
  guarded(Verdict::runtime_error, "rank " + std::to_string(place_.rank) + ": joining the references' group", [&] {
    control_.attr("join_references")(place_.references_store(), place_.rank, place_.world_size, cuda, place_.timeout_s);
    return 0;
  });
}

RankGroup::~RankGroup() {
  try {
    control_.attr("leave")();
  } catch (...) {
    // A group that broke (a rank died) leaves with the process; nothing else depends on it.
  }
}

void RankGroup::barrier() const {
  guarded(Verdict::runtime_error, "the ranks' barrier", [&] {
    control_.attr("barrier")();
    return 0;
  });
}

bool RankGroup::any(bool flag) const {
  return guarded(Verdict::runtime_error, "the ranks' agreement", [&] { return control_.attr("any_all")(flag).cast<bool>(); });
}

std::vector<double> RankGroup::max(const std::vector<double>& values) const {
  return guarded(Verdict::runtime_error, "the ranks' slowest times",
                 [&] { return control_.attr("max_all")(values).cast<std::vector<double>>(); });
}

bool RankGroup::rank_zero_says(bool flag) const {
  return guarded(Verdict::runtime_error, "the ranks' agreement",
                 [&] { return control_.attr("from_rank_zero")(flag ? 1 : 0).cast<int>() != 0; });
}

}  // namespace kforge::worker
