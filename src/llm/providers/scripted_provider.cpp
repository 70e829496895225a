// scripted: answers from a folder of files, one file per call in name order, then from the first
// again. No network, no tokens, no cost: a loop's own speed (bench/agent_throughput.sh) and a
// user's dry run of a search are measured with it.
#include <algorithm>
#include <mutex>
#include <vector>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "llm/providers/providers.hpp"

namespace kforge::llm {
namespace {

class ScriptedProvider final : public Provider {
 public:
  explicit ScriptedProvider(const ModelConfig& model) {
    std::error_code ec;
    if (!std::filesystem::is_directory(model.endpoint, ec))
      throw Error("model " + model.name + " is scripted from " + model.endpoint + ", which is not a folder");
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(model.endpoint))
      if (entry.is_regular_file()) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) answers_.push_back(read_file(f));
    if (answers_.empty()) throw Error("model " + model.name + " is scripted from " + model.endpoint + ", which holds no file");
  }

  Completion complete(const ChatRequest&, const CallSubject&, const CallOptions& options) override {
    Completion c;
    c.attempts = 1;
    if (options.cancel && *options.cancel) {
      c.error_kind = c.error = "cancelled";
      return c;
    }
    std::lock_guard lock(mutex_);
    c.text = answers_[next_++ % answers_.size()];
    c.stop_reason = "stop";
    return c;
  }

 private:
  std::vector<std::string> answers_;
  std::mutex mutex_;
  size_t next_ = 0;
};

}  // namespace

std::unique_ptr<Provider> make_scripted_provider(const ModelConfig& model) {
  return std::make_unique<ScriptedProvider>(model);
}

}  // namespace kforge::llm
