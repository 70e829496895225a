// replay: answers from a kforge store's recorded calls. kforge generate's: the latest answer of the
// recorded model for the same problem, format and sample. kforge agent's: the recorded run's k-th
// attempt for the problem, when the recorded model made it, so a replayed search with the same
// policy and seed grows the same tree. No network, no cost.
#include <mutex>

#include "common/errors.hpp"
#include "llm/providers/providers.hpp"
#include "store/store.hpp"

namespace kforge::llm {
namespace {

class ReplayProvider final : public Provider {
 public:
  explicit ReplayProvider(const ModelConfig& model) : model_(model) {
    if (!std::filesystem::exists(model.endpoint))
      throw Error("model " + model.name + " replays " + model.endpoint + ", which does not exist");
    store_ = std::make_unique<Store>(model.endpoint);
  }

  Completion complete(const ChatRequest&, const CallSubject& subject, const CallOptions&) override {
    Completion c;
    c.attempts = 1;
    std::lock_guard lock(mutex_);
    std::optional<std::string> answer;
    if (subject.agent_attempt) {
      if (auto node = store_->recorded_attempt(subject.problem_hash, subject.index); node && node->model == model_.model) {
        answer = node->answer;
        c.input_tokens = node->input_tokens;
        c.output_tokens = node->output_tokens;
      }
    } else if (auto call = store_->recorded_call(model_.model, subject.problem_hash, subject.format, subject.index)) {
      answer = call->answer;
      c.input_tokens = call->input_tokens;
      c.output_tokens = call->output_tokens;
    }
    if (!answer) {
      c.error_kind = "not_recorded";
      c.error = model_.endpoint + " holds no answer of " + model_.model + " for problem " + subject.problem_hash.substr(0, 12) +
                (subject.agent_attempt ? " attempt " : " sample ") + std::to_string(subject.index) + " (" + subject.format + ")";
      return c;
    }
    c.text = *answer;
    c.stop_reason = "stop";
    return c;
  }

 private:
  ModelConfig model_;
  std::unique_ptr<Store> store_;
  std::mutex mutex_;
};

}  // namespace

std::unique_ptr<Provider> make_replay_provider(const ModelConfig& model) {
  return std::make_unique<ReplayProvider>(model);
}

}  // namespace kforge::llm
