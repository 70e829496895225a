#include "planner/inline_prebuild.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "build/build_inline_child.hpp"
#include "common/files.hpp"
#include "common/parallel.hpp"
#include "common/remove_tree.hpp"
#include "planner/build_order.hpp"
#include "planner/plan.hpp"
#include "pool/resource_watch.hpp"
#include "pool/task_count.hpp"
#include "pool/worker_paths.hpp"
#include "pool/worker_process.hpp"

namespace kforge {
namespace {

// What an import may write in its scratch folder, and so its largest file: a candidate's default
// (--scratch-disk), since the prebuild runs before any job and its settings.
constexpr int64_t kMostImportFileBytes = static_cast<int64_t>(kDefaultScratchDiskGib * double(int64_t{1} << 30));

// The import runs the candidate's module-level code: inside the candidate sandbox (reads, writes,
// signals, network; worker/candidate_reads.hpp), entered once torch and kforge's modules are
// loaded, in an environment without credentials (pool/worker_process.hpp). Unconfined, a
// candidate's import read kforge's whole environment and could rewrite the store. Its load_inline
// calls are recorded, not built (python/kforge_inline.py, record_only): a process that runs
// candidate code may not write the build cache (docs/notes/build-cache-trust.md). Before the
// candidate is imported it says what a candidate's process may read, which its builds' compilers
// may read too.
constexpr const char* kImportScript =
    "import importlib.util, json, os, sys\n"
    "sys.path.insert(0, sys.argv[2])\n"
    "import torch, kforge_inline, _kforge_worker\n"
    "kforge_inline.install()\n"
    "kforge_inline.record_only()\n"
    "print('kforge-compile-readable', json.dumps(_kforge_worker.candidate_readable_folders()), flush=True)\n"
    "_kforge_worker.enter_prebuild_sandbox([sys.argv[1]])\n"
    "spec = importlib.util.spec_from_file_location('kforge_prebuild_' + str(abs(hash(sys.argv[1]))), sys.argv[1])\n"
    "try:\n"
    "    spec.loader.exec_module(importlib.util.module_from_spec(spec))\n"
    "finally:\n"
    "    for s in kforge_inline.recorded: print('kforge-inline-spec', json.dumps(s), flush=True)\n";

constexpr std::string_view kReadableTag = "kforge-compile-readable ";
constexpr std::string_view kSpecTag = "kforge-inline-spec ";
// kforge's own result lines go after the import's output, which the candidate's code wrote: their
// tag carries a token of this process's that no import can know, or a line the candidate printed
// would stand as a build's result in `kforge build`'s table (before session 46, "cached" for a
// candidate that built nothing).
const std::string& result_tag() {
  static const std::string tag = [] {
    std::random_device entropy;
    char token[17];
    std::snprintf(token, sizeof token, "%08x%08x", entropy(), entropy());
    return "kforge-inline-result-" + std::string(token) + " ";
  }();
  return tag;
}

// The JSON after each line of `output` that starts with `tag`.
std::vector<nlohmann::json> tagged_lines(const std::string& output, std::string_view tag) {
  std::vector<nlohmann::json> out;
  for (size_t at = 0; at < output.size();) {
    size_t eol = output.find('\n', at);
    if (eol == std::string::npos) eol = output.size();
    if (std::string_view(output).substr(at, eol - at).starts_with(tag)) try {
        out.push_back(nlohmann::json::parse(output.substr(at + tag.size(), eol - at - tag.size())));
      } catch (...) {  // a candidate printed something that looks like it: not ours
      }
    at = eol + 1;
  }
  return out;
}

// Builds the specs one import recorded (`import`'s output) with `kforge build-inline`, its
// compilers confined (build/compilers.hpp) to what the import's first line said a candidate's
// process may read, and the scratch folder its `load` sources may be in. Each build's answer is
// added to the import's output as a result line (inline_build_reports); the result is the import's,
// or, where it recorded builds, whether they all built.
void build_recorded(build::ProcessResult& import, const std::filesystem::path& scratch,
                    const std::filesystem::path& specs_folder, const std::vector<std::string>& env, size_t index,
                    std::chrono::seconds timeout) {
  const std::vector<nlohmann::json> specs = tagged_lines(import.output, kSpecTag);
  if (specs.empty()) return;
  // Its first line, printed before any candidate code ran: a later one would be the candidate's.
  const std::vector<nlohmann::json> readable_said = tagged_lines(import.output, kReadableTag);
  std::string readable = scratch.string();
  if (!readable_said.empty() && readable_said.front().is_array())
    for (const auto& folder : readable_said.front())
      if (folder.is_string()) readable += ":" + folder.get<std::string>();
  bool all_built = true;
  for (size_t k = 0; k < specs.size(); ++k) {
    nlohmann::json report = build::build_inline_in_child(
        specs[k], specs_folder / (std::to_string(index) + "-" + std::to_string(k) + ".json"), env, readable, timeout);
    report["name"] = specs[k].value("name", std::string("?"));
    all_built = all_built && report.value("ok", false);
    import.output += "\n" + result_tag() + report.dump() + "\n";
  }
  import.exit_code = all_built ? 0 : 1;
}

}  // namespace

bool builds_with_load_inline(const std::string& source) { return source.find("load_inline") != std::string::npos; }

std::string torch_arch_list_for(const std::string& arch) {
  std::string digits = arch.starts_with("sm_") ? arch.substr(3) : arch;
  while (!digits.empty() && !std::isdigit(static_cast<unsigned char>(digits.back()))) digits.pop_back();
  if (digits.size() < 2) return "9.0";
  return digits.substr(0, digits.size() - 1) + "." + digits.substr(digits.size() - 1);
}

void export_torch_arch_list(const std::string& arch) {
  ::setenv("TORCH_CUDA_ARCH_LIST", torch_arch_list_for(arch).c_str(), 0);  // a user's setting wins
}

std::vector<build::ProcessResult> prebuild_load_inline(const std::vector<std::string>& files, const std::string& arch,
                                                       int jobs, std::chrono::seconds timeout,
                                                       const std::function<void(size_t)>& on_done) {
  std::vector<build::ProcessResult> results(files.size());
  if (files.empty()) return results;
  export_torch_arch_list(arch);
  std::string python = worker_python().string();
  std::string module_dir = worker_module_dir().string();
  const std::filesystem::path scratch = make_scratch();
  const std::filesystem::path specs_folder = make_owned_folder(scratch.parent_path(), "prebuild-specs");  // not the imports' to write
  std::vector<std::string> sources;
  for (const auto& f : files) {
    std::error_code ec;
    sources.push_back(std::filesystem::is_regular_file(f, ec) ? read_file(f) : std::string());
  }
  const std::vector<size_t> order = header_makers_first(sources);
  parallel_for(files.size(), jobs, [&](size_t k) {
    const size_t i = order[k];
    // The import runs the candidate's module-level code, bounded as a candidate process is: in a
    // scratch folder of its own (its working directory, TMPDIR and the one place its sandbox lets
    // it write), so what it holds there is its own to answer for, and with its tasks counted (a
    // bomb there filled the machine's task table while the build went on).
    const std::filesystem::path mine = scratch / ("import-" + std::to_string(i));
    std::error_code made;
    std::filesystem::create_directories(mine, made);
    std::vector<std::string> env = sandboxed_environment(mine);
    env.push_back("CUDA_VISIBLE_DEVICES=");  // a build needs no GPU
    std::optional<ResourceWatch> watch;
    build::Confinement limits;
    limits.most_file_bytes = kMostImportFileBytes;
    limits.on_started = [&watch, &mine](pid_t pid) {
      ResourceBounds bounds;
      bounds.most_tasks = most_candidate_tasks();
      bounds.folder = mine.string();
      bounds.folder_bytes = kMostImportFileBytes;
      bounds.folder_bound_source = "a candidate import's own, before any job's --scratch-disk";
      watch.emplace(pid, bounds);
    };
    results[i] = build::run_process({python, "-c", kImportScript, files[i], module_dir}, timeout, 1 << 20,
                                    mine.string(), {}, &env, limits);
    if (watch) watch->look_at_folder_now();
    if (watch && watch->tripped() != ResourceWatch::Tripped::none)
      results[i].output += "\nkforge: the import's " + watch->what_passed() + "; its process group was killed\n";
    watch.reset();
    if (!results[i].timed_out) build_recorded(results[i], mine, specs_folder, env, i, timeout);
    remove_tree(mine.string());
    if (on_done) on_done(i);
  });
  std::error_code ignored;
  std::filesystem::remove_all(scratch, ignored);
  std::filesystem::remove_all(specs_folder, ignored);
  return results;
}

std::vector<nlohmann::json> inline_build_reports(const build::ProcessResult& prebuild) {
  return tagged_lines(prebuild.output, result_tag());
}

}  // namespace kforge
