#pragma once
// Where a plan's finished results go (planner/executor.hpp), in finishing order: into the store,
// into the run, then to the caller's callback. A result the store refuses (another writer holding
// it past its busy timeout, a full disk) is kept and written when it can, before the next result
// and at the end; nothing a worker computed is lost to the store, and no store error ends a
// worker's thread.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "core/evaluation.hpp"
#include "store/store.hpp"

namespace kforge {

class ResultSink {
 public:
  using OnFinished = std::function<void(const EvaluationRecord&, size_t done, size_t total)>;

  // `records` is the plan's, one slot per job (`total` of them).
  ResultSink(Store& store, int64_t run_id, std::vector<EvaluationRecord>& records, const OnFinished& on_finished);

  // Guards the store, the records and the callbacks: finish() and every other use of the store
  // while workers run (a stored result's lookup, the builds' records) hold it.
  std::mutex& mutex() { return mutex_; }

  // Job i's record: stored as a new evaluation (`store_it`) and/or joined to the run (`join_run`),
  // then reported. Call with mutex() held.
  void finish(size_t i, EvaluationRecord record, bool store_it, bool join_run = true);

  // At the end, with every worker done: what the store still refuses is tried for `give_up`, then
  // written to a file beside the store and thrown as an Error naming it.
  void flush_or_keep_in_file(std::chrono::seconds give_up);

 private:
  struct Unsaved {
    size_t index;
    bool insert;  // false: a stored result only joins the run
  };
  bool save(Unsaved& u);
  bool flush_unsaved();  // in order, stopping at the first the store still refuses

  Store& store_;
  int64_t run_id_;
  std::vector<EvaluationRecord>& records_;
  OnFinished on_finished_;
  std::mutex mutex_;
  size_t done_ = 0;
  std::vector<Unsaved> unsaved_;
  std::string store_error_;  // the last refusal's
};

}  // namespace kforge
