#include "planner/job_queue.hpp"

#include <algorithm>

namespace kforge {

JobQueue::JobQueue(size_t count, const std::function<bool(size_t)>& waits_for_build)
    : ready_(count), taken_(count), untaken_(count) {
  for (size_t i = 0; i < count; ++i) ready_[i] = !(waits_for_build && waits_for_build(i));
}

std::optional<size_t> JobQueue::earliest_untaken(bool ready_only) const {
  for (size_t i = 0; i < ready_.size(); ++i)
    if (!taken_[i] && (ready_[i] || !ready_only)) return i;
  return std::nullopt;
}

std::optional<size_t> JobQueue::take() {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (!builds_ok_ || untaken_ == 0) return std::nullopt;
    if (const std::optional<size_t> i = earliest_untaken(true)) {
      taken_[*i] = 1;
      --untaken_;
      return i;
    }
    became_ready_.wait(lock);
  }
}

std::optional<size_t> JobQueue::next_to_take() {
  std::lock_guard lock(mutex_);
  if (!builds_ok_ || untaken_ == 0) return std::nullopt;
  if (const std::optional<size_t> ready = earliest_untaken(true)) return ready;
  return earliest_untaken(false);
}

void JobQueue::mark_ready(size_t i) {
  std::lock_guard lock(mutex_);
  ready_[i] = 1;
  became_ready_.notify_all();
}

void JobQueue::close(bool builds_ok) {
  std::lock_guard lock(mutex_);
  builds_ok_ = builds_ok;
  std::fill(ready_.begin(), ready_.end(), 1);
  became_ready_.notify_all();
}

}  // namespace kforge
