#pragma once
// A worker of a `kforge serve` on this machine, leased over its Unix socket for as long as this
// object lives. The executor uses it exactly as a WorkerProcess of its own.
#include <filesystem>
#include <string>

#include "pool/job_runner.hpp"

namespace kforge::serve {

class RemoteWorker : public JobRunner {
 public:
  explicit RemoteWorker(std::filesystem::path socket) : socket_(std::move(socket)) {}
  ~RemoteWorker() override;
  RemoteWorker(const RemoteWorker&) = delete;  // owns a connection
  RemoteWorker& operator=(const RemoteWorker&) = delete;

  // Connects and leases a worker (waiting while the server's workers are all leased).
  const protocol::WorkerInfo& ensure_started() override;
  // A server that goes away mid-job is a crashed job, said as such.
  JobOutcome run(const protocol::EvalJob& job, std::chrono::seconds deadline) override;
  std::string device_label() const override { return label_; }

 private:
  void hang_up();

  std::filesystem::path socket_;
  int fd_ = -1;
  std::string label_;
  std::string token_;  // the server's, read at each lease (serve_messages.hpp)
  protocol::WorkerInfo info_;
};

}  // namespace kforge::serve
