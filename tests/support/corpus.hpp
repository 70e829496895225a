#pragma once
// The bad-input corpus of tests/candidates/: each file with the verdict it must get.
#include <map>
#include <string>

namespace kforge::testing {

struct Expectation {
  std::string verdict;
  bool gpu_only = false;
};

// tests/candidates/expected.json, keyed by file name.
std::map<std::string, Expectation> load_corpus_expectations();

}  // namespace kforge::testing
