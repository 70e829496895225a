#pragma once
// `kforge build-inline` run as a child on one load_inline spec, by a process that runs no
// candidate code and may write the build cache (the worker for its candidates,
// worker/build_broker.hpp; kforge's prebuild, planner/inline_prebuild.hpp), its compilers
// confined to their build's folder and to `readable` (build/compilers.hpp).
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kforge::build {

// Its answer: {"ok", "cached", "library", "diagnostics", "seconds", "strategy", "why_whole",
// "key"}; a build that could not run (no binary, a spec file that could not be written, a crash,
// the deadline) is answered as a failed one, its reason in "diagnostics". `spec_file`: where the
// spec is written for it (a folder no candidate's process may write), removed after. `env`: the
// child's environment, to which KFORGE_COMPILE_READABLE=`readable` (colon-separated) is added.
// The answer of a build that did not run, for `why`.
nlohmann::json failed_build(const std::string& why, double seconds = 0);

nlohmann::json build_inline_in_child(const nlohmann::json& spec, const std::filesystem::path& spec_file,
                                     std::vector<std::string> env, const std::string& readable,
                                     std::chrono::seconds timeout);

}  // namespace kforge::build
