#include "serve/remote_worker.hpp"

#include <unistd.h>

#include "common/errors.hpp"
#include "protocol/frame.hpp"
#include "serve/serve_messages.hpp"

namespace kforge::serve {

RemoteWorker::~RemoteWorker() { hang_up(); }

void RemoteWorker::hang_up() {
  if (fd_ >= 0) ::close(fd_);  // ends the lease; the next ensure_started() leases again
  fd_ = -1;
}

const protocol::WorkerInfo& RemoteWorker::ensure_started() {
  if (fd_ >= 0) return info_;
  fd_ = connect_to(socket_);
  try {
    token_ = read_serve_token(socket_);
  } catch (const Error&) {
    hang_up();
    throw;
  }
  if (!protocol::write_frame(fd_, {{"type", "lease"}, {"token", token_}}))
    throw Error("the kforge serve at " + socket_.string() + " hung up before leasing a worker");
  auto reply = protocol::read_frame(fd_);  // waits while every worker is leased to other clients
  if (reply.status != protocol::ReadStatus::ok)
    throw Error("the kforge serve at " + socket_.string() + " hung up before leasing a worker (it was stopped?)");
  if (reply.message.value("type", "") != "leased")
    throw Error("the kforge serve at " + socket_.string() + " has no worker for us: " +
                reply.message.value("message", reply.message.dump()));
  label_ = reply.message.value("label", "");
  info_ = reply.message.at("worker").get<protocol::WorkerInfo>();
  return info_;
}

JobOutcome RemoteWorker::run(const protocol::EvalJob& job, std::chrono::seconds deadline) {
  ensure_started();
  JobOutcome outcome;
  outcome.failure = JobFailure::crashed;
  if (!protocol::write_frame(fd_, {{"type", "run"}, {"job", job}, {"deadline_s", deadline.count()}, {"token", token_}})) {
    outcome.detail = "the kforge serve at " + socket_.string() + " hung up before taking the job";
    hang_up();
    return outcome;
  }
  // The server enforces the deadline (it kills the worker); a minute on top covers a worker's
  // restart after a crash before the server answers.
  auto reply = protocol::read_frame(fd_, std::chrono::steady_clock::now() + deadline + std::chrono::seconds(60));
  if (reply.status != protocol::ReadStatus::ok) {
    outcome.detail = "the kforge serve at " + socket_.string() +
                     (reply.status == protocol::ReadStatus::timed_out ? " did not answer within the job's deadline"
                                                                      : " hung up during the job (it was stopped?)");
    hang_up();  // a late answer must not be read as the next job's
    return outcome;
  }
  try {
    return outcome_from_json(reply.message);
  } catch (const nlohmann::json::exception& e) {
    outcome.failure = JobFailure::protocol;
    outcome.detail = std::string("the kforge serve's answer was not an outcome: ") + e.what();
    hang_up();
    return outcome;
  }
}

}  // namespace kforge::serve
