#include "worker/build_broker.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "build/subprocess.hpp"
#include "worker/candidate_reads.hpp"

namespace kforge::worker {
namespace {

// A whole build of a template-heavy candidate takes minutes on a loaded machine; the job's own
// deadline (--timeout) ends a longer one with the worker.
constexpr std::chrono::seconds kBuildTimeout{1800};

nlohmann::json failed(const std::string& why) {
  return {{"ok", false}, {"cached", false}, {"library", ""}, {"diagnostics", why}, {"seconds", 0.0},
          {"strategy", ""}, {"why_whole", ""}, {"key", ""}};
}

// What the compilers may read: what the candidate's process may (without this job's files, which
// no build needs), as KFORGE_COMPILE_READABLE.
std::string compile_readable(const std::string& candidate_scratch) {
  static const std::string common = [] {
    std::string list;
    for (const auto& folder : candidate_readable_folders()) list += (list.empty() ? "" : ":") + folder;
    return list;
  }();
  return common + (candidate_scratch.empty() ? "" : ":" + candidate_scratch);
}

// The built library copied into the candidate's scratch folder, which `reply` then names: the
// candidate's process may read that folder and not the cache, where it could load what another
// candidate built as its own.
nlohmann::json with_library_copied(nlohmann::json reply, const std::string& candidate_scratch) {
  const std::string library = reply.value("library", std::string());
  if (!reply.value("ok", false) || library.empty() || candidate_scratch.empty()) return reply;
  static std::atomic<int> copies{0};
  const std::filesystem::path copy = std::filesystem::path(candidate_scratch) / ("kforge-extension-" + std::to_string(copies++) + ".so");
  std::error_code ec;
  std::filesystem::copy_file(library, copy, std::filesystem::copy_options::overwrite_existing, ec);
  if (ec) return failed("kforge built the extension but could not give it to the candidate's process: " + ec.message());
  reply["library"] = copy.string();
  return reply;
}

}  // namespace

nlohmann::json build_for_candidate(const nlohmann::json& spec, const std::string& candidate_scratch) {
  const char* kforge = std::getenv("KFORGE_BINARY");
  const char* scratch = std::getenv("KFORGE_WORKER_SCRATCH");
  if (!kforge || !*kforge || !scratch || !*scratch)
    return failed("kforge cannot build here: the worker has no KFORGE_BINARY or scratch folder");
  // The spec as a file of the worker's (the candidate's process cannot write there).
  static std::atomic<int> counter{0};
  const std::string spec_file =
      std::string(scratch) + "/build-spec-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".json";
  {
    std::ofstream out(spec_file, std::ios::trunc);
    out << spec.dump();
    if (!out) return failed("kforge cannot build here: the build's spec could not be written");
  }
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e)
    if (std::string_view(*e).rfind("KFORGE_COMPILE_READABLE=", 0) != 0) env.emplace_back(*e);
  env.push_back("KFORGE_COMPILE_READABLE=" + compile_readable(candidate_scratch));
  build::ProcessResult r = build::run_process({kforge, "build-inline", "--spec", spec_file}, kBuildTimeout, 1 << 20, "", {}, &env);
  ::unlink(spec_file.c_str());
  if (r.timed_out) return failed("kforge build-inline did not finish in time");
  // Its answer is its last line (a compiler's words on stderr may come before it).
  const size_t last = r.output.rfind("\n{");
  const std::string line = r.output.substr(last == std::string::npos ? 0 : last + 1);
  try {
    nlohmann::json reply = nlohmann::json::parse(line);
    if (reply.is_object() && reply.contains("ok")) return with_library_copied(std::move(reply), candidate_scratch);
  } catch (...) {
  }
  return failed("kforge build-inline failed (exit " + std::to_string(r.exit_code) + "): " +
                r.output.substr(r.output.size() > 2000 ? r.output.size() - 2000 : 0));
}

}  // namespace kforge::worker
