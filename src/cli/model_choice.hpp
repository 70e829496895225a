#pragma once
// What kforge generate, run and agent share: the models' file and the problems asked for.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "llm/model_config.hpp"
#include "suite/problem.hpp"

namespace kforge::cli {

// The models of `config` (default: kforge.toml beside the database `db`). UsageError when the file
// is missing.
std::map<std::string, llm::ModelConfig> declared_models(const std::string& config, const std::string& db,
                                                        std::filesystem::path* file = nullptr);
// `name` among them; UsageError naming the declared ones otherwise.
const llm::ModelConfig& declared_model(const std::map<std::string, llm::ModelConfig>& models, const std::string& name,
                                       const std::filesystem::path& file);

// Every problem of `levels`, then each of `problems` (ids or files), from `suite` (default: the
// built-in one). UsageError `nothing` when none is asked for.
std::vector<Problem> chosen_problems(const std::vector<int>& levels, const std::vector<std::string>& problems,
                                     const std::string& suite, const std::string& nothing);

}  // namespace kforge::cli
