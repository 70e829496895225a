// One model call against a real HTTP server on loopback (tests/support/fake_model_server.hpp):
// both dialects streamed, retries with Retry-After and backoff, and every failure a user meets,
// each with its kind, the partial answer kept, and the key never in the message.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "llm/provider.hpp"
#include "support/fake_model_server.hpp"

namespace kforge::llm {
namespace {

using testing::FakeModelServer;
using testing::ScriptedReply;

const std::string kKey = "sk-test-0123456789";

ModelConfig model_at(const FakeModelServer& server, const std::string& api = "openai") {
  ModelConfig m;
  m.name = "test";
  m.api = api;
  m.endpoint = server.endpoint();
  m.model = "test-model";
  m.max_tokens = 1000;
  m.price_in_per_mtok = 2.0;
  m.price_out_per_mtok = 8.0;
  m.timeout_s = 5;
  m.retries = 2;
  return m;
}

struct Waits {
  std::vector<double> seconds;
  CallOptions options() {
    CallOptions o;
    o.wait = [this](double s) { seconds.push_back(s); };
    return o;
  }
};

const ChatRequest kRequest{"You write CUDA.", "Make ReLU fast."};

TEST(Provider, OpenAiStreamAssembledWithTokensAndCost) {
  FakeModelServer server;
  server.script(FakeModelServer::openai_stream("```python\nprint(1)\n```", 4, 1000, 500));
  auto c = complete(model_at(server), kKey, kRequest);
  ASSERT_TRUE(c.ok()) << c.error_kind << ": " << c.error;
  EXPECT_EQ(c.text, "```python\nprint(1)\n```");
  EXPECT_EQ(c.input_tokens, 1000);
  EXPECT_EQ(c.output_tokens, 500);
  EXPECT_DOUBLE_EQ(c.cost_usd, (1000 * 2.0 + 500 * 8.0) / 1e6);
  EXPECT_EQ(c.stop_reason, "stop");
  EXPECT_EQ(c.attempts, 1);
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].path, "/v1/chat/completions");
  EXPECT_EQ(requests[0].headers.at("Authorization"), "Bearer " + kKey);
  EXPECT_EQ(requests[0].body.at("model"), "test-model");
  EXPECT_EQ(requests[0].body.at("stream"), true);
  EXPECT_EQ(requests[0].body.at("messages")[0].at("role"), "system");
  EXPECT_EQ(requests[0].body.at("messages")[1].at("content"), "Make ReLU fast.");
}

TEST(Provider, AnthropicStreamAssembledWithTokens) {
  FakeModelServer server;
  server.script(FakeModelServer::anthropic_stream("a kernel", 3, 1200, 300));
  auto c = complete(model_at(server, "anthropic"), kKey, kRequest);
  ASSERT_TRUE(c.ok()) << c.error_kind << ": " << c.error;
  EXPECT_EQ(c.text, "a kernel");
  EXPECT_EQ(c.input_tokens, 1200);
  EXPECT_EQ(c.output_tokens, 300);
  EXPECT_EQ(c.stop_reason, "end_turn");
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].path, "/v1/messages");
  EXPECT_EQ(requests[0].headers.at("x-api-key"), kKey);
  EXPECT_EQ(requests[0].headers.count("anthropic-version"), 1u);
  EXPECT_EQ(requests[0].body.at("system"), "You write CUDA.");
  EXPECT_EQ(requests[0].body.at("max_tokens"), 1000);
}

TEST(Provider, RateLimitHonoursRetryAfterThenSucceeds) {
  FakeModelServer server;
  server.script(FakeModelServer::error(429, "slow down", {{"Retry-After", "3"}}));
  server.script(FakeModelServer::error(503, "overloaded"));
  server.script(FakeModelServer::openai_stream("done"));
  Waits waits;
  auto c = complete(model_at(server), kKey, kRequest, waits.options());
  ASSERT_TRUE(c.ok()) << c.error;
  EXPECT_EQ(c.text, "done");
  EXPECT_EQ(c.attempts, 3);
  ASSERT_EQ(waits.seconds.size(), 2u);
  EXPECT_DOUBLE_EQ(waits.seconds[0], 3.0);  // Retry-After
  EXPECT_GE(waits.seconds[1], 1.0);         // backoff for the second retry: 2 s with jitter in [0.5, 1)
  EXPECT_LT(waits.seconds[1], 2.0);
}

TEST(Provider, ServerErrorsExhaustTheRetries) {
  FakeModelServer server;
  for (int i = 0; i < 3; ++i) server.script(FakeModelServer::error(500, "internal"));
  Waits waits;
  auto c = complete(model_at(server), kKey, kRequest, waits.options());
  EXPECT_EQ(c.error_kind, "server");
  EXPECT_EQ(c.attempts, 3);  // the first try and two retries
  EXPECT_EQ(waits.seconds.size(), 2u);
  EXPECT_NE(c.error.find("HTTP 500: internal"), std::string::npos) << c.error;
}

TEST(Provider, ARefusedKeyIsNotRetriedAndNeverEchoed) {
  FakeModelServer server;
  server.script(FakeModelServer::error(401, "Incorrect API key provided: " + kKey));
  Waits waits;
  auto c = complete(model_at(server), kKey, kRequest, waits.options());
  EXPECT_EQ(c.error_kind, "auth");
  EXPECT_EQ(c.attempts, 1);
  EXPECT_EQ(c.error.find(kKey), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("[key]"), std::string::npos) << c.error;
}

TEST(Provider, ContextLengthIsItsOwnKind) {
  FakeModelServer server;
  server.script(FakeModelServer::error(400, "This model's maximum context length is 8192 tokens"));
  auto c = complete(model_at(server), kKey, kRequest);
  EXPECT_EQ(c.error_kind, "context_length");
  EXPECT_EQ(c.attempts, 1);
}

TEST(Provider, AStreamWithoutItsEndIsTruncatedAndKeepsTheText) {
  FakeModelServer server;
  auto reply = FakeModelServer::openai_stream("half of an answer", 2);
  reply.chunks.pop_back();  // no [DONE]
  reply.chunks.pop_back();  // no usage
  reply.cut_off = true;
  server.script(reply);
  auto c = complete(model_at(server), kKey, kRequest);
  EXPECT_EQ(c.error_kind, "truncated") << c.error;
  EXPECT_EQ(c.text, "half of an answer");
  EXPECT_EQ(c.attempts, 1);
}

TEST(Provider, MalformedJsonInTheStreamIsAStreamError) {
  FakeModelServer server;
  ScriptedReply reply;
  reply.chunks = {"data: {\"choices\": [{\"delta\": {\"content\": \"ok\"}}]}\n\n", "data: {not json\n\n",
                  "data: [DONE]\n\n"};
  server.script(reply);
  auto c = complete(model_at(server), kKey, kRequest);
  EXPECT_EQ(c.error_kind, "stream_error");
  EXPECT_NE(c.error.find("malformed JSON"), std::string::npos) << c.error;
  EXPECT_EQ(c.text, "ok");
}

TEST(Provider, NoServerIsAConnectionErrorAfterRetries) {
  ModelConfig m;
  {
    FakeModelServer gone;
    m = model_at(gone);
  }  // the port is closed now
  Waits waits;
  auto c = complete(m, kKey, kRequest, waits.options());
  EXPECT_EQ(c.error_kind, "connection") << c.error;
  EXPECT_EQ(c.attempts, 3);
}

TEST(Provider, ASlowStreamTimesOut) {
  FakeModelServer server;
  auto reply = FakeModelServer::openai_stream("slow answer", 5);
  reply.pause_ms = 400;
  server.script(reply);
  auto m = model_at(server);
  m.timeout_s = 1;
  m.retries = 0;
  auto c = complete(m, kKey, kRequest);
  EXPECT_EQ(c.error_kind, "timeout") << c.error;
  EXPECT_LT(c.latency_s, 4.0);
}

TEST(Provider, CancellationStopsAStreamAndKeepsWhatCame) {
  FakeModelServer server;
  auto reply = FakeModelServer::openai_stream("a b c d e f g h", 8);
  reply.pause_ms = 200;
  server.script(reply);
  std::atomic<bool> cancel{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    cancel = true;
  });
  CallOptions options;
  options.cancel = &cancel;
  auto c = complete(model_at(server), kKey, kRequest, options);
  stopper.join();
  EXPECT_EQ(c.error_kind, "cancelled");
  EXPECT_FALSE(c.text.empty());
  EXPECT_LT(c.text.size(), std::string("a b c d e f g h").size());
}

TEST(Provider, EveryApiOfKforgeTomlHasAProvider) {
  for (const char* api : kProviderApis) {
    ModelConfig m;
    m.name = "m";
    m.api = api;
    m.endpoint = "/nonexistent/kforge-provider-test";
    try {
      EXPECT_NE(make_provider(m, ""), nullptr) << api;
    } catch (const std::exception& e) {
      // replay and scripted say their store or folder is missing, never that the api is unknown
      EXPECT_EQ(std::string(e.what()).find("no provider"), std::string::npos) << api << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find("/nonexistent/kforge-provider-test"), std::string::npos) << e.what();
    }
  }
  ModelConfig unknown;
  unknown.name = "m";
  unknown.api = "gemini";
  EXPECT_THROW(make_provider(unknown, ""), std::exception);
}

TEST(Provider, HttpCallsTakeThisCallsTemperature) {
  FakeModelServer server;
  server.script(FakeModelServer::openai_stream("fine", 1));
  auto m = model_at(server);
  m.temperature = 0.9;
  CallOptions options;
  options.temperature = 0.1;
  auto provider = make_provider(m, kKey);
  auto c = provider->complete(kRequest, {}, options);
  ASSERT_TRUE(c.ok()) << c.error;
  EXPECT_DOUBLE_EQ(server.requests().at(0).body.at("temperature").get<double>(), 0.1);
}

}  // namespace
}  // namespace kforge::llm
