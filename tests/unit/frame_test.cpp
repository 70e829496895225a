#include "protocol/frame.hpp"
#include "protocol/messages.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <stdexcept>
#include <thread>

namespace kforge::protocol {
namespace {

struct Pipe {
  int read_end = -1, write_end = -1;
  Pipe() {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    read_end = fds[0];
    write_end = fds[1];
  }
  ~Pipe() {
    if (read_end >= 0) ::close(read_end);
    if (write_end >= 0) ::close(write_end);
  }
  void close_write() {
    ::close(write_end);
    write_end = -1;
  }
};

TEST(Frame, RoundTripsAJob) {
  Pipe p;
  EvalJob job;
  job.problem_path = "/p/level1/1_A.py";
  job.candidate_path = "/c/x.py";
  job.device = DeviceKind::cuda;
  job.candidate_format = CandidateFormat::cuda;
  job.precision = Precision::bf16;
  job.fallback = census::FallbackPolicy::strict;
  job.atol = 1e-3;
  job.trial_seeds = {1, 2, 3};
  job.timing.max_samples = 77;
  job.next_job_same_problem = false;
  ASSERT_TRUE(write_frame(p.write_end, {{"type", "eval"}, {"job", job}}));
  auto r = read_frame(p.read_end, std::chrono::steady_clock::now() + std::chrono::seconds(5));
  ASSERT_EQ(r.status, ReadStatus::ok);
  auto back = r.message.at("job").get<EvalJob>();
  EXPECT_EQ(back.problem_path, job.problem_path);
  EXPECT_EQ(back.device, DeviceKind::cuda);
  EXPECT_EQ(back.candidate_format, CandidateFormat::cuda);
  EXPECT_EQ(back.precision, Precision::bf16);
  EXPECT_EQ(back.fallback, census::FallbackPolicy::strict);
  EXPECT_EQ(back.atol, 1e-3);
  EXPECT_FALSE(back.rtol.has_value());
  EXPECT_EQ(back.trial_seeds, job.trial_seeds);
  EXPECT_EQ(back.timing.max_samples, 77);
  EXPECT_EQ(back.next_job_same_problem, std::optional<bool>(false));
  EXPECT_FALSE(nlohmann::json(EvalJob{}).get<EvalJob>().next_job_same_problem.has_value());  // unknown stays unknown
}

// A job naming a precision (or format, device, policy) this build does not know is refused whole,
// never run with a default in its place.
TEST(Frame, AJobWithAnUnknownKindIsRefused) {
  nlohmann::json j = EvalJob{};
  j["precision"] = "fp8";
  EXPECT_THROW(j.get<EvalJob>(), std::invalid_argument);
  j["precision"] = "bf16";
  EXPECT_EQ(j.get<EvalJob>().precision, Precision::bf16);
  j["fallback"] = "lenient";
  EXPECT_THROW(j.get<EvalJob>(), std::invalid_argument);
}

TEST(Frame, RoundTripsAResult) {
  Pipe p;
  JobResult res;
  res.verdict = Verdict::rejected;
  res.rule = "input-mutation";
  res.max_abs_error = 0.5;
  res.cand_ms = {1.0, 2.0};
  ASSERT_TRUE(write_frame(p.write_end, {{"type", "result"}, {"result", res}}));
  auto r = read_frame(p.read_end);
  ASSERT_EQ(r.status, ReadStatus::ok);
  auto back = r.message.at("result").get<JobResult>();
  EXPECT_EQ(back.verdict, Verdict::rejected);
  EXPECT_EQ(back.rule, "input-mutation");
  EXPECT_EQ(back.max_abs_error, 0.5);
  EXPECT_FALSE(back.max_rel_error.has_value());
  EXPECT_EQ(back.cand_ms, res.cand_ms);
  EXPECT_FALSE(back.not_the_candidates);
  res.not_the_candidates = true;  // another process's GPU work ended the job: the executor stores nothing
  EXPECT_TRUE(nlohmann::json(res).get<JobResult>().not_the_candidates);
}

TEST(Frame, ReportsClosedPeer) {
  Pipe p;
  p.close_write();
  EXPECT_EQ(read_frame(p.read_end).status, ReadStatus::closed);
}

TEST(Frame, TimesOut) {
  Pipe p;
  auto t0 = std::chrono::steady_clock::now();
  auto r = read_frame(p.read_end, t0 + std::chrono::milliseconds(100));
  EXPECT_EQ(r.status, ReadStatus::timed_out);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(90));
}

TEST(Frame, RejectsOversizedLength) {
  Pipe p;
  unsigned char header[4] = {0xff, 0xff, 0xff, 0x7f};
  ASSERT_EQ(::write(p.write_end, header, 4), 4);
  auto r = read_frame(p.read_end);
  EXPECT_EQ(r.status, ReadStatus::malformed);
  EXPECT_NE(r.error.find("exceeds"), std::string::npos);
}

TEST(Frame, AReaderMaySetALowerSizeLimit) {
  Pipe p;
  const std::string payload = R"({"type": "done", "pad": ")" + std::string(2000, 'x') + R"("})";
  ASSERT_TRUE(write_frame(p.write_end, nlohmann::json::parse(payload)));
  auto r = read_frame(p.read_end, std::nullopt, 1024);
  EXPECT_EQ(r.status, ReadStatus::malformed);
  EXPECT_NE(r.error.find("exceeds"), std::string::npos);
}

TEST(Frame, RejectsInvalidJson) {
  Pipe p;
  unsigned char header[4] = {3, 0, 0, 0};
  ASSERT_EQ(::write(p.write_end, header, 4), 4);
  ASSERT_EQ(::write(p.write_end, "{{{", 3), 3);
  EXPECT_EQ(read_frame(p.read_end).status, ReadStatus::malformed);
}

// Writes `payload` as one frame and reads it back.
ReadResult round_trip(const std::string& payload) {
  Pipe p;
  const uint32_t n = static_cast<uint32_t>(payload.size());
  unsigned char header[4] = {static_cast<unsigned char>(n & 0xff), static_cast<unsigned char>((n >> 8) & 0xff),
                             static_cast<unsigned char>((n >> 16) & 0xff), static_cast<unsigned char>(n >> 24)};
  std::thread writer([&] {
    EXPECT_EQ(::write(p.write_end, header, 4), 4);
    EXPECT_EQ(::write(p.write_end, payload.data(), payload.size()), static_cast<ssize_t>(payload.size()));
  });
  ReadResult r = read_frame(p.read_end);
  writer.join();
  return r;
}

TEST(Frame, RefusesNestingDeeperThanTheLimitBeforeParsing) {
  const std::string deep = std::string(kMaxFrameDepth + 1, '[') + std::string(kMaxFrameDepth + 1, ']');
  ReadResult r = round_trip(deep);
  EXPECT_EQ(r.status, ReadStatus::malformed);
  EXPECT_NE(r.error.find("nests deeper than 64"), std::string::npos) << r.error;
  // At the limit it parses; objects count as arrays do.
  const std::string at_limit = std::string(kMaxFrameDepth - 1, '[') + "{}" + std::string(kMaxFrameDepth - 1, ']');
  EXPECT_EQ(round_trip(at_limit).status, ReadStatus::ok);
}

TEST(Frame, BracketsInsideStringsDoNotCountAsNesting) {
  // 200 brackets inside a string, one with escaped quotes and backslashes before it.
  const std::string text = R"({"message": "a \"quoted\" \\ )" + std::string(200, '[') + R"(", "n": [1, [2]]})";
  ReadResult r = round_trip(text);
  ASSERT_EQ(r.status, ReadStatus::ok) << r.error;
  EXPECT_EQ(r.message["n"][1][0], 2);
  EXPECT_EQ(r.message["message"].get<std::string>().size(), std::string(R"(a "quoted" \ )").size() + 200);
}

TEST(Frame, UnknownVerdictIsAnError) {
  nlohmann::json j = {{"verdict", "great"}};
  EXPECT_THROW(j.get<JobResult>(), std::exception);
}

}  // namespace
}  // namespace kforge::protocol
