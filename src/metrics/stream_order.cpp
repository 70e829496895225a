#include "metrics/stream_order.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace kforge::census {
namespace {

// For each stream, how many of its operations something is ordered after (a vector clock).
using Clock = std::map<uint64_t, uint64_t>;

void merge(Clock& into, const Clock& from) {
  for (const auto& [stream, count] : from) into[stream] = std::max(into[stream], count);
}

bool covers(const Clock& clock, uint64_t stream, uint64_t position) {
  auto it = clock.find(stream);
  return it != clock.end() && it->second >= position;
}

}  // namespace

std::vector<uint32_t> unjoined_launches(const std::vector<StreamOp>& ops, uint64_t caller,
                                        const std::function<bool(uint64_t)>& blocking) {
  std::map<uint64_t, Clock> streams;  // what each stream's next operation is ordered after
  std::map<uint64_t, uint64_t> issued;  // operations issued per stream
  std::map<uint64_t, Clock> events;   // what a wait on each event orders after
  Clock host;                         // what the host has waited for
  std::vector<std::pair<uint32_t, std::pair<uint64_t, uint64_t>>> launches;  // id, (stream, position)

  // An operation on `s`: first the legacy stream's implicit waits, then it takes its place.
  auto issue = [&](uint64_t s) -> Clock& {
    Clock& clock = streams[s];
    if (s == kLegacyStream) {
      for (const auto& [other, c] : streams)
        if (other != kLegacyStream && blocking(other)) merge(clock, c);
    } else if (blocking(s)) {
      merge(clock, streams[kLegacyStream]);
    }
    clock[s] = ++issued[s];
    return clock;
  };

  for (const StreamOp& op : ops) {
    switch (op.kind) {
      case StreamOp::Kind::launch:
        issue(op.stream);
        launches.push_back({op.launch_id, {op.stream, issued[op.stream]}});
        break;
      case StreamOp::Kind::record:
        events[op.event] = issue(op.stream);
        break;
      case StreamOp::Kind::wait:
        if (auto e = events.find(op.event); e != events.end()) merge(streams[op.stream], e->second);
        break;
      case StreamOp::Kind::sync_stream:
        merge(host, issue(op.stream));
        break;
      case StreamOp::Kind::sync_event:
        if (auto e = events.find(op.event); e != events.end()) merge(host, e->second);
        break;
      case StreamOp::Kind::sync_device:
        for (const auto& [s, c] : streams) merge(host, c);
        break;
    }
  }
  const Clock after = issue(caller);  // the caller's next operation, as it reads the outputs
  std::vector<uint32_t> out;
  for (const auto& [id, at] : launches)
    if (!covers(after, at.first, at.second) && !covers(host, at.first, at.second)) out.push_back(id);
  return out;
}

}  // namespace kforge::census
