#include "planner/result_sink.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "report/results_table.hpp"

namespace kforge {

ResultSink::ResultSink(Store& store, int64_t run_id, std::vector<EvaluationRecord>& records, const OnFinished& on_finished)
    : store_(store), run_id_(run_id), records_(records), on_finished_(on_finished) {}

bool ResultSink::save(Unsaved& u) {
  try {
    if (u.insert) {
      records_[u.index].id = store_.insert_evaluation(records_[u.index]);
      // Stored: if joining the run is what the store refuses, the retry only joins it (it
      // inserted the evaluation a second time: a -j2 test run once stored 5 evaluations of 4 results).
      u.insert = false;
    }
    store_.add_to_run(run_id_, records_[u.index]);
    return true;
  } catch (const Error& e) {
    if (store_error_.empty())
      std::fprintf(stderr, "kforge: the store refused a result (%s); finished results are kept and written when it can\n",
                   e.what());
    store_error_ = e.what();
    return false;
  }
}

bool ResultSink::flush_unsaved() {
  size_t k = 0;
  while (k < unsaved_.size() && save(unsaved_[k])) ++k;
  unsaved_.erase(unsaved_.begin(), unsaved_.begin() + static_cast<std::ptrdiff_t>(k));
  return unsaved_.empty();
}

void ResultSink::finish(size_t i, EvaluationRecord record, bool store_it, bool join_run) {
  records_[i] = std::move(record);
  if (store_it || join_run) {
    Unsaved u{i, store_it};
    if (!flush_unsaved() || !save(u)) unsaved_.push_back(u);
  }
  ++done_;
  if (on_finished_) on_finished_(records_[i], done_, records_.size());
}

void ResultSink::flush_or_keep_in_file(std::chrono::seconds give_up) {
  for (auto until = std::chrono::steady_clock::now() + give_up; !flush_unsaved();) {
    if (std::chrono::steady_clock::now() >= until) {
      const auto file = std::filesystem::path(store_.path().string() + ".unsaved-" +
                                              std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                                                  std::chrono::system_clock::now().time_since_epoch()).count()) +
                                              ".jsonl");
      std::ofstream out(file);
      for (const Unsaved& u : unsaved_) out << report::evaluation_json(records_[u.index]).dump() << "\n";
      throw Error(fmt::format("the store could not take {} finished result(s) ({}); they are in {}", unsaved_.size(),
                              store_error_, out ? file.string() : std::string("no file either (cannot write beside the store)")));
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

}  // namespace kforge
