#include "support/corpus.hpp"

#include <fstream>

#include <nlohmann/json.hpp>

#include "support/command.hpp"

namespace kforge::testing {

std::map<std::string, Expectation> load_corpus_expectations() {
  std::ifstream in(source_path("tests/candidates/expected.json"));
  auto j = nlohmann::json::parse(in);
  std::map<std::string, Expectation> out;
  for (const auto& [file, e] : j.items()) out[file] = {e.at("verdict").get<std::string>(), e.value("gpu_only", false)};
  return out;
}

}  // namespace kforge::testing
