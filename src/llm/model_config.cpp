#include "llm/model_config.hpp"

#include <algorithm>

#include <cstdlib>
#include <set>

#include <toml++/toml.h>

#include "common/errors.hpp"

namespace kforge::llm {
namespace {

std::string where(const std::filesystem::path& file, const toml::node& node) {
  const auto& at = node.source().begin;
  return file.string() + ":" + std::to_string(at.line);
}

}  // namespace

std::map<std::string, ModelConfig> load_models(const std::filesystem::path& file) {
  toml::table root;
  try {
    root = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    throw Error(file.string() + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  std::map<std::string, ModelConfig> models;
  const toml::table* tables = root["models"].as_table();
  if (!tables) return models;
  static const std::set<std::string> known = {"api",   "endpoint",  "model",       "key_env",     "max_tokens",
                                              "temperature", "reasoning_effort", "price_in", "price_out",
                                              "concurrency", "timeout",   "retries"};
  for (const auto& [name, node] : *tables) {
    const toml::table* t = node.as_table();
    const std::string model_name(name.str());
    if (!t) throw Error(where(file, node) + ": models." + model_name + " must be a table");
    for (const auto& [key, value] : *t)
      if (!known.count(std::string(key.str())))
        throw Error(where(file, value) + ": models." + model_name + ": unknown key '" + std::string(key.str()) + "'");
    auto text = [&](const char* key, bool required) -> std::string {
      const toml::node* v = t->get(key);
      if (!v) {
        if (required) throw Error(where(file, node) + ": models." + model_name + " lacks '" + key + "'");
        return "";
      }
      if (!v->is_string()) throw Error(where(file, *v) + ": models." + model_name + "." + key + " must be a string");
      return v->as_string()->get();
    };
    auto number = [&](const char* key) -> std::optional<double> {
      const toml::node* v = t->get(key);
      if (!v) return std::nullopt;
      if (auto i = v->value<int64_t>(); i && v->is_integer()) return static_cast<double>(*i);
      if (auto d = v->value<double>(); d && v->is_floating_point()) return *d;
      throw Error(where(file, *v) + ": models." + model_name + "." + key + " must be a number");
    };
    ModelConfig m;
    m.name = model_name;
    m.api = text("api", true);
    if (std::find(std::begin(kProviderApis), std::end(kProviderApis), m.api) == std::end(kProviderApis))
      throw Error(where(file, *t->get("api")) + ": models." + model_name +
                  ".api must be \"openai\", \"anthropic\", \"replay\" or \"scripted\", not \"" + m.api + "\"");
    m.endpoint = text("endpoint", true);
    // A replay reads a store, a scripted model a folder: a relative path is taken from the file's folder.
    if ((m.api == "replay" || m.api == "scripted") && std::filesystem::path(m.endpoint).is_relative())
      m.endpoint = (std::filesystem::absolute(file).parent_path() / m.endpoint).string();
    while (!m.endpoint.empty() && m.endpoint.back() == '/') m.endpoint.pop_back();
    m.model = text("model", true);
    m.key_env = text("key_env", false);
    m.reasoning_effort = text("reasoning_effort", false);
    if (auto v = number("max_tokens")) m.max_tokens = static_cast<int>(*v);
    m.temperature = number("temperature");
    if (auto v = number("price_in")) m.price_in_per_mtok = *v;
    if (auto v = number("price_out")) m.price_out_per_mtok = *v;
    if (auto v = number("concurrency")) m.concurrency = std::max(1, static_cast<int>(*v));
    if (auto v = number("timeout")) m.timeout_s = *v;
    if (auto v = number("retries")) m.retries = std::max(0, static_cast<int>(*v));
    models[model_name] = m;
  }
  return models;
}

std::string api_key(const ModelConfig& model) {
  if (model.key_env.empty()) return "";
  const char* value = std::getenv(model.key_env.c_str());
  if (!value || !*value)
    throw Error("model " + model.name + ": its key is read from $" + model.key_env + ", which is not set");
  return value;
}

double cost_usd(const ModelConfig& model, int64_t input_tokens, int64_t output_tokens) {
  return (static_cast<double>(input_tokens) * model.price_in_per_mtok +
          static_cast<double>(output_tokens) * model.price_out_per_mtok) /
         1e6;
}

}  // namespace kforge::llm
