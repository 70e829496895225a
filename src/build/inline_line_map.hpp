#pragma once
// Compiler errors of a load_inline build, moved from the files torch generates (main.cpp, cuda.cu)
// to the candidate's own .py: that is the file a model edits. The worker's Python side knows where
// each source string begins in both (python/kforge_inline.py) and sends it with the build spec.
// Applied after the cache, like the candidate's name: the same sources at other lines of another
// .py share one cache entry.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kforge::build {

struct SourceSegment {
  std::string label;               // "cpp_sources" or "cuda_sources"
  int first = 1;                   // the generated file's line where this source string begins
  int count = 1;                   // its lines
  std::optional<std::string> py_file;  // the candidate's file, as shown
  std::optional<int> py_line;      // the .py line where the string begins, when it could be found
};

std::vector<SourceSegment> line_map_from_json(const nlohmann::json& j);

// Rewrites `<shown_as> [cpp_sources]:N:` and `[cuda_sources]:N:` locations in condensed
// diagnostics: to `file.py:L [cpp_sources line K]:` when the .py line is known, else to
// `<shown_as> [cpp_sources line K]:`. Lines outside every segment are torch's generated ones
// (its includes, the PYBIND11_MODULE built from functions=) and are named as such.
std::string map_inline_lines(const std::string& diagnostics, const std::string& shown_as,
                             const std::vector<SourceSegment>& segments);

}  // namespace kforge::build
