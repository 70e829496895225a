#include "worker/spare_processes.hpp"

#include <chrono>
#include <cstdio>
#include <exception>

#include "worker/failure.hpp"
#include "worker/phase_trace.hpp"

namespace kforge::worker {
namespace {

constexpr size_t kSpares = 2;
// A CUDA context takes a second or two; more means a machine in trouble.
constexpr auto kReady = std::chrono::seconds(120);
// The warm-up takes a fraction of a second.
constexpr auto kWarm = std::chrono::seconds(60);

}  // namespace

void SpareProcesses::top_up() {
  while (zygote_ && spares_.size() < kSpares) {
    try {
      spares_.push_back(std::make_unique<CandidateProcess>(*zygote_, zygote_->spawn()));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "kforge worker: no spare candidate process: %s\n", e.what());
      return;
    }
  }
}

bool SpareProcesses::settle(CandidateProcess& process) {
  try {
    process.wait_ready(kReady);
    return true;
  } catch (const Failure& f) {
    // Something killed it while it waited: not a candidate's doing.
    std::fprintf(stderr, "kforge worker: a spare candidate process was lost (%s)\n", f.message.c_str());
    return false;
  }
}

std::unique_ptr<CandidateProcess> SpareProcesses::take() {
  while (!spares_.empty()) {
    std::unique_ptr<CandidateProcess> process = std::move(spares_.front());
    spares_.pop_front();
    if (!settle(*process)) continue;
    try {
      process->finish_warm(kWarm);
    } catch (const Failure& f) {
      std::fprintf(stderr, "kforge worker: a spare candidate process failed its warm-up (%s)\n", f.message.c_str());
      continue;
    }
    return process;
  }
  if (!zygote_) throw Failure{Verdict::runtime_error, "no zygote to start a candidate process", ""};
  auto process = std::make_unique<CandidateProcess>(*zygote_, zygote_->spawn());
  process->wait_ready(kReady);
  return process;
}

void SpareProcesses::warm_ready() {
  for (auto& process : spares_)
    if (process->ready()) process->begin_warm();
}

std::unique_ptr<CandidateProcess> SpareProcesses::lend() {
  while (!spares_.empty()) {
    std::unique_ptr<CandidateProcess> process = std::move(spares_.front());
    spares_.pop_front();
    if (settle(*process)) return process;
  }
  return nullptr;
}

void SpareProcesses::give_back(std::unique_ptr<CandidateProcess> process) {
  if (process) spares_.push_front(std::move(process));
}

void SpareProcesses::quiet() {
  TracedPart part("spare settle");
  for (auto it = spares_.begin(); it != spares_.end();) {
    if (!settle(**it)) {
      it = spares_.erase(it);
      continue;
    }
    (*it)->pause();
    ++it;
  }
}

void SpareProcesses::resume() {
  for (auto& process : spares_) process->unpause();
}

}  // namespace kforge::worker
