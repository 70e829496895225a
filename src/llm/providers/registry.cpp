// Which provider serves a model, by its `api` (model_config.hpp's kProviderApis names the same).
#include "common/errors.hpp"
#include "llm/providers/providers.hpp"

namespace kforge::llm {

std::unique_ptr<Provider> make_provider(const ModelConfig& model, const std::string& key) {
  if (model.api == "openai" || model.api == "anthropic") return make_http_provider(model, key);
  if (model.api == "scripted") return make_scripted_provider(model);
  if (model.api == "replay") return make_replay_provider(model);
  throw Error("model " + model.name + ": no provider for api \"" + model.api + "\"");
}

}  // namespace kforge::llm
