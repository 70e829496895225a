#pragma once
// The models kforge can ask for candidates, declared in kforge.toml (beside the database):
//
//   [models.gpt]                     # the name `kforge generate --model gpt` uses
//   api = "openai"                   # openai (chat completions: OpenAI, vLLM, SGLang, llama.cpp,
//                                    #   Ollama, Together, DeepSeek, Fireworks) | anthropic (Messages)
//                                    #   | replay (endpoint: a kforge store; model: the name whose
//                                    #   recorded answers it gives back, for the same prompts' problems)
//                                    #   | scripted (endpoint: a folder whose files are the answers,
//                                    #   given in name order and again from the first: no network, no cost)
//   endpoint = "https://api.openai.com/v1"
//   model = "gpt-5"                  # the provider's own name for it
//   key_env = "OPENAI_API_KEY"       # the environment variable holding the key (the key itself
//                                    #   is never written in the file, a log or the store)
//   max_tokens = 16000
//   temperature = 0.7                # optional
//   reasoning_effort = "high"        # optional: low | medium | high
//   price_in = 1.25                  # dollars per million input tokens
//   price_out = 10.0                 # dollars per million output tokens
//   concurrency = 8                  # calls at once to this model
//   timeout = 600                    # seconds one call may take
//   retries = 5                      # on 429, 5xx and connection errors
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace kforge::llm {

// The `api` values there are providers for (llm/providers/registry.cpp serves each).
inline constexpr const char* kProviderApis[] = {"openai", "anthropic", "replay", "scripted"};

struct ModelConfig {
  std::string name;
  std::string api;       // "openai" | "anthropic" | "replay"
  std::string endpoint;  // base URL, e.g. http://127.0.0.1:8000/v1
  std::string model;
  std::string key_env;   // "" when the server needs no key (a local one)
  int max_tokens = 8192;
  std::optional<double> temperature;
  std::string reasoning_effort;
  double price_in_per_mtok = 0;
  double price_out_per_mtok = 0;
  int concurrency = 4;
  double timeout_s = 600;
  int retries = 5;
};

// Every [models.NAME] table of `file`; throws kforge::Error naming the file, the line and the
// key when one is missing, mistyped or unknown, and when the file does not parse.
std::map<std::string, ModelConfig> load_models(const std::filesystem::path& file);

// The key from the model's environment variable; throws kforge::Error naming the variable (never
// a value) when it is unset or empty. A model without key_env gets "".
std::string api_key(const ModelConfig& model);

// Dollars for a call's tokens at the model's prices.
double cost_usd(const ModelConfig& model, int64_t input_tokens, int64_t output_tokens);

}  // namespace kforge::llm
