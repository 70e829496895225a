// The model providers' pure parts: server-sent events from arbitrary chunks, the retry policy,
// kforge.toml's models and their errors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "common/errors.hpp"
#include "llm/model_config.hpp"
#include "llm/retry.hpp"
#include "llm/sse.hpp"
#include "support/temp_dir.hpp"

namespace kforge::llm {
namespace {

std::vector<SseEvent> parse_in_pieces(const std::string& stream, size_t piece) {
  SseParser parser;
  std::vector<SseEvent> events;
  for (size_t at = 0; at < stream.size(); at += piece)
    parser.feed(std::string_view(stream).substr(at, piece), [&](const SseEvent& e) { events.push_back(e); });
  return events;
}

TEST(Sse, EventsSurviveAnyChunking) {
  const std::string stream =
      "event: message_start\r\ndata: {\"a\":1}\r\n\r\n: a comment\n\ndata: line one\ndata: line two\n\ndata: [DONE]\n\n";
  for (size_t piece : {1u, 2u, 7u, 1000u}) {
    auto events = parse_in_pieces(stream, piece);
    ASSERT_EQ(events.size(), 3u) << "piece " << piece;
    EXPECT_EQ(events[0].event, "message_start");
    EXPECT_EQ(events[0].data, "{\"a\":1}");
    EXPECT_EQ(events[1].event, "");
    EXPECT_EQ(events[1].data, "line one\nline two");
    EXPECT_EQ(events[2].data, "[DONE]");
  }
}

TEST(Sse, AnEventCutOffIsPendingNotDelivered) {
  SseParser parser;
  int delivered = 0;
  parser.feed("data: {\"partial\"", [&](const SseEvent&) { ++delivered; });
  EXPECT_EQ(delivered, 0);
  EXPECT_TRUE(parser.pending());
}

TEST(Retry, WhatIsRetried) {
  for (int status : {408, 409, 429, 500, 502, 503, 529}) EXPECT_TRUE(retryable(status, false)) << status;
  for (int status : {400, 401, 403, 404, 413, 422}) EXPECT_FALSE(retryable(status, false)) << status;
  EXPECT_TRUE(retryable(0, true));  // no answer at all
}

TEST(Retry, RetryAfterAndBackoff) {
  EXPECT_EQ(parse_retry_after("7"), 7.0);
  EXPECT_EQ(parse_retry_after("1.5"), 1.5);
  EXPECT_FALSE(parse_retry_after(""));
  EXPECT_FALSE(parse_retry_after("soon"));
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), 0.0);  // a date in the past: now
  EXPECT_DOUBLE_EQ(backoff_seconds(3, 7.0, 0.9), 7.0);       // the server's word wins
  EXPECT_DOUBLE_EQ(backoff_seconds(3, 500.0, 0.9), 60.0);    // within the cap
  EXPECT_DOUBLE_EQ(backoff_seconds(0, std::nullopt, 0.0), 0.5);
  EXPECT_DOUBLE_EQ(backoff_seconds(2, std::nullopt, 0.999999), 4.0 * (0.5 + 0.5 * 0.999999));
  EXPECT_DOUBLE_EQ(backoff_seconds(20, std::nullopt, 0.0), 30.0);  // capped, then jittered
}

std::string write(const testing::TempDir& dir, const std::string& text) {
  const std::string path = dir.file("kforge.toml");
  std::ofstream(path) << text;
  return path;
}

TEST(ModelConfig, ReadsModelsWithTheirDefaults) {
  testing::TempDir dir;
  auto models = load_models(write(dir, R"(
[models.local]
api = "openai"
endpoint = "http://127.0.0.1:8000/v1/"
model = "qwen-coder"

[models.claude]
api = "anthropic"
endpoint = "https://api.anthropic.com/v1"
model = "claude-sonnet"
key_env = "KFORGE_TEST_ANTHROPIC_KEY"
max_tokens = 16000
temperature = 0.5
price_in = 3
price_out = 15.0
concurrency = 2
)"));
  ASSERT_EQ(models.size(), 2u);
  const auto& local = models.at("local");
  EXPECT_EQ(local.endpoint, "http://127.0.0.1:8000/v1");  // the trailing slash dropped
  EXPECT_EQ(local.key_env, "");
  EXPECT_EQ(local.concurrency, 4);
  EXPECT_FALSE(local.temperature);
  const auto& claude = models.at("claude");
  EXPECT_EQ(claude.max_tokens, 16000);
  EXPECT_EQ(claude.temperature, 0.5);
  EXPECT_EQ(claude.concurrency, 2);
  EXPECT_DOUBLE_EQ(cost_usd(claude, 1'000'000, 100'000), 3.0 + 1.5);
}

TEST(ModelConfig, ErrorsNameTheFileLineAndKey) {
  testing::TempDir dir;
  auto error_of = [&](const std::string& text) {
    try {
      load_models(write(dir, text));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of("[models.a]\napi = \"openai\"\nmodel = \"m\"\n").find("kforge.toml:1: models.a lacks 'endpoint'"),
            std::string::npos);
  EXPECT_NE(error_of("[models.a]\napi = \"openai\"\nendpoint = \"x\"\nmodel = \"m\"\ntemprature = 1\n")
                .find(":5: models.a: unknown key 'temprature'"),
            std::string::npos);
  EXPECT_NE(error_of("[models.a]\napi = \"gemini\"\nendpoint = \"x\"\nmodel = \"m\"\n").find("must be \"openai\", \"anthropic\", \"replay\" or \"scripted\", not \"gemini\""),
            std::string::npos);
  EXPECT_NE(error_of("[models.a]\napi = \"openai\"\nendpoint = \"x\"\nmodel = \"m\"\nmax_tokens = \"many\"\n")
                .find("models.a.max_tokens must be a number"),
            std::string::npos);
  EXPECT_NE(error_of("[models.a\n").find("kforge.toml:1"), std::string::npos);
}

TEST(ModelConfig, AMissingKeyNamesTheVariableOnly) {
  ModelConfig m;
  m.name = "claude";
  m.key_env = "KFORGE_TEST_UNSET_KEY";
  ::unsetenv("KFORGE_TEST_UNSET_KEY");
  try {
    api_key(m);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("$KFORGE_TEST_UNSET_KEY, which is not set"), std::string::npos) << e.what();
  }
  ::setenv("KFORGE_TEST_UNSET_KEY", "sk-secret", 1);
  EXPECT_EQ(api_key(m), "sk-secret");
  ::unsetenv("KFORGE_TEST_UNSET_KEY");
}

}  // namespace
}  // namespace kforge::llm
