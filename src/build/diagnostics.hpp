#pragma once
// Compiler output a model can act on: the first errors, with line numbers in the candidate's own
// file, duplicates folded, capped in length; and the per-kernel resource report of ptxas -v.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kforge::build {

// `log` is the full compiler output; `source_path` the file as the compiler saw it, shown as
// `display_name`. Keeps at most `max_errors` distinct errors (each with the next note lines) and
// `max_chars` in all; says how many more there were.
std::string condense_diagnostics(const std::string& log, const std::string& source_path,
                                 const std::string& display_name, size_t max_errors = 8, size_t max_chars = 2000);

struct KernelResources {
  std::string kernel;  // mangled name as ptxas reports it
  int registers = 0;
  int shared_bytes = 0;       // static shared memory
  int spill_store_bytes = 0;
  int spill_load_bytes = 0;
  int stack_bytes = 0;
};
// Parses `ptxas info` lines of `nvcc -Xptxas -v` output.
std::vector<KernelResources> parse_ptxas_resources(const std::string& log);
nlohmann::json to_json(const std::vector<KernelResources>& kernels);

}  // namespace kforge::build
