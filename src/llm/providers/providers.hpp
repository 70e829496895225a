#pragma once
// The shipped providers (one file each); registry.cpp picks one by the model's `api`.
#include <memory>
#include <string>

#include "llm/provider.hpp"

namespace kforge::llm {

std::unique_ptr<Provider> make_http_provider(const ModelConfig& model, const std::string& key);
std::unique_ptr<Provider> make_scripted_provider(const ModelConfig& model);
std::unique_ptr<Provider> make_replay_provider(const ModelConfig& model);

}  // namespace kforge::llm
