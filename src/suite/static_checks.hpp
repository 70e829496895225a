#include "core/rules.hpp"
#pragma once
// Static checks on a candidate's source, before anything runs: only where a static check is
// honest, i.e. where no legitimate kernel has a reason to write the text. They name kforge's
// harness or reach into the process around the candidate: the worker's own modules, the
// process's memory, the garbage collector's view of every live object (where the reference's
// outputs and the harness's state live), the caller's stack frames. Everything else (caching,
// streams, threads, precision) is checked at run time, where a check cannot be talked around by
// spelling. Comments do not count (Python `#`, C/C++ `//` and `/* */`); strings do.
#include <optional>
#include <string>
#include <string_view>

namespace kforge {

struct StaticFinding {
  std::string rule;     // rules::kHarnessAccess
  std::string message;  // what was found, and on which line
};

std::optional<StaticFinding> check_candidate_source(std::string_view source, bool python);

}  // namespace kforge
