// scripted: answers from a folder of files, one file per call in name order, then from the first
// again. A problem may have answers of its own, in the folder's subfolder named as the problem is
// shown (`answers/level1/19_ReLU/`); the others get the folder's own files. No network, no tokens,
// no cost: a loop's own speed (bench/agent_throughput.sh) and a user's dry run of a search are
// measured with it.
#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "llm/providers/providers.hpp"

namespace kforge::llm {
namespace {

// The files of one folder, in name order.
std::vector<std::string> answers_in(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<std::string> out;
  for (const auto& f : files) out.push_back(read_file(f));
  return out;
}

class ScriptedProvider final : public Provider {
 public:
  explicit ScriptedProvider(const ModelConfig& model) : model_(model) {
    std::error_code ec;
    if (!std::filesystem::is_directory(model.endpoint, ec))
      throw Error("model " + model.name + " is scripted from " + model.endpoint + ", which is not a folder");
    if (std::filesystem::is_empty(model.endpoint, ec))
      throw Error("model " + model.name + " is scripted from " + model.endpoint + ", which holds no file");
  }

  Completion complete(const ChatRequest&, const CallSubject& subject, const CallOptions& options) override {
    Completion c;
    c.attempts = 1;
    if (options.cancel && *options.cancel) {
      c.error_kind = c.error = "cancelled";
      return c;
    }
    std::lock_guard lock(mutex_);
    Script& script = script_for(subject.problem_name);
    if (script.answers.empty()) {
      c.error_kind = "not_recorded";
      c.error = model_.endpoint + " holds no answer for " + (subject.problem_name.empty() ? "this call" : subject.problem_name);
      return c;
    }
    c.text = script.answers[script.next++ % script.answers.size()];
    c.stop_reason = "stop";
    return c;
  }

 private:
  struct Script {
    std::vector<std::string> answers;
    size_t next = 0;
  };
  Script& script_for(const std::string& problem) {
    const std::filesystem::path own = std::filesystem::path(model_.endpoint) / problem;
    std::error_code ec;
    const std::string key = !problem.empty() && std::filesystem::is_directory(own, ec) ? problem : "";
    auto it = scripts_.find(key);
    if (it == scripts_.end())
      it = scripts_.emplace(key, Script{answers_in(key.empty() ? std::filesystem::path(model_.endpoint) : own), 0}).first;
    return it->second;
  }
  ModelConfig model_;
  std::map<std::string, Script> scripts_;  // by problem; "" for the folder's own files
  std::mutex mutex_;
};

}  // namespace

std::unique_ptr<Provider> make_scripted_provider(const ModelConfig& model) {
  return std::make_unique<ScriptedProvider>(model);
}

}  // namespace kforge::llm
