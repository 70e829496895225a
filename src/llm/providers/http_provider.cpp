// openai and anthropic: a chat API over HTTP, streamed, with retries (llm/provider.cpp's complete
// in the model's dialect, llm/chat_api.hpp).
#include "llm/providers/providers.hpp"

namespace kforge::llm {
namespace {

class HttpProvider final : public Provider {
 public:
  HttpProvider(ModelConfig model, std::string key) : model_(std::move(model)), key_(std::move(key)) {}
  Completion complete(const ChatRequest& request, const CallSubject&, const CallOptions& options) override {
    return llm::complete(model_, key_, request, options);
  }

 private:
  ModelConfig model_;
  std::string key_;
};

}  // namespace

std::unique_ptr<Provider> make_http_provider(const ModelConfig& model, const std::string& key) {
  return std::make_unique<HttpProvider>(model, key);
}

}  // namespace kforge::llm
