#include "cli/model_choice.hpp"

#include <algorithm>

#include "common/errors.hpp"

namespace kforge::cli {

std::map<std::string, llm::ModelConfig> declared_models(const std::string& config, const std::string& db,
                                                        std::filesystem::path* file) {
  const std::filesystem::path path =
      config.empty() ? std::filesystem::absolute(db).parent_path() / "kforge.toml" : std::filesystem::path(config);
  if (!std::filesystem::exists(path))
    throw UsageError("no " + path.string() + ": declare the models there ([models.NAME]; docs/generation.md), or give --config");
  if (file) *file = path;
  return llm::load_models(path);
}

const llm::ModelConfig& declared_model(const std::map<std::string, llm::ModelConfig>& models, const std::string& name,
                                       const std::filesystem::path& file) {
  auto it = models.find(name);
  if (it != models.end()) return it->second;
  std::string known;
  for (const auto& [n, m] : models) known += (known.empty() ? "" : ", ") + n;
  throw UsageError("unknown model '" + name + "': " + file.string() + " declares " + (known.empty() ? std::string("none") : known));
}

std::vector<Problem> chosen_problems(const std::vector<int>& levels, const std::vector<std::string>& problems,
                                     const std::string& suite, const std::string& nothing) {
  SuiteLoad load = load_suite(suite.empty() ? builtin_suite_dir() : std::filesystem::path(suite));
  std::vector<Problem> chosen;
  for (const auto& p : load.problems)
    if (std::find(levels.begin(), levels.end(), p.level) != levels.end()) chosen.push_back(p);
  for (const auto& spec : problems)
    for (auto& p : resolve_problems(spec, load)) chosen.push_back(std::move(p));
  if (chosen.empty()) throw UsageError(nothing);
  return chosen;
}

}  // namespace kforge::cli
