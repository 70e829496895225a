#include "worker/phase_trace.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace kforge::worker {

bool PhaseTrace::wanted() {
  static const bool wanted = std::getenv("KFORGE_WORKER_PHASE_TRACE") != nullptr;
  return wanted;
}

PhaseTrace& PhaseTrace::current() {
  static PhaseTrace trace;
  return trace;
}

void PhaseTrace::reset() {
  std::lock_guard lock(mutex_);
  parts_.clear();
}

void PhaseTrace::add(std::string_view part, double ms) {
  std::lock_guard lock(mutex_);
  for (Part& p : parts_)
    if (p.name == part) {
      p.ms += ms;
      ++p.count;
      return;
    }
  parts_.push_back({std::string(part), ms, 1});
}

std::string PhaseTrace::describe() const {
  std::lock_guard lock(mutex_);
  std::string out;
  char buf[96];
  for (const Part& p : parts_) {
    std::string name = p.name;
    std::replace(name.begin(), name.end(), ' ', '_');  // one field per part
    std::snprintf(buf, sizeof buf, "%s%s=%.1f/%d", out.empty() ? "" : " ", name.c_str(), p.ms, p.count);
    out += buf;
  }
  return out;
}

}  // namespace kforge::worker
