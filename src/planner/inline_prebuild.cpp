#include "planner/inline_prebuild.hpp"

#include <cctype>
#include <cstdlib>
#include <filesystem>

#include "common/files.hpp"
#include "common/parallel.hpp"
#include "planner/build_order.hpp"
#include "pool/worker_paths.hpp"
#include "pool/worker_process.hpp"

namespace kforge {
namespace {

// load_inline goes through kforge's build cache (python/kforge_inline.py), as in the worker. The
// import runs the candidate's module-level code: inside the candidate sandbox (reads, writes,
// signals, network; worker/candidate_reads.hpp), entered once torch and kforge's modules are
// loaded, in an environment without credentials (pool/worker_process.hpp). Unconfined, a
// candidate's import read kforge's whole environment and could rewrite the store.
constexpr const char* kImportScript =
    "import importlib.util, os, sys\n"
    "sys.path.insert(0, sys.argv[2])\n"
    "import torch, kforge_inline, _kforge_worker\n"
    "kforge_inline.install()\n"
    "_kforge_worker.enter_prebuild_sandbox([sys.argv[1]])\n"
    "spec = importlib.util.spec_from_file_location('kforge_prebuild_' + str(abs(hash(sys.argv[1]))), sys.argv[1])\n"
    "try:\n"
    "    spec.loader.exec_module(importlib.util.module_from_spec(spec))\n"
    "finally:\n"
    "    import json\n"
    "    for r in kforge_inline.results: print('kforge-inline-result', json.dumps(r), flush=True)\n";

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
  std::vector<std::string> env = sandboxed_environment(scratch);
  env.push_back("CUDA_VISIBLE_DEVICES=");  // a build needs no GPU
  std::vector<std::string> sources;
  for (const auto& f : files) {
    std::error_code ec;
    sources.push_back(std::filesystem::is_regular_file(f, ec) ? read_file(f) : std::string());
  }
  const std::vector<size_t> order = header_makers_first(sources);
  parallel_for(files.size(), jobs, [&](size_t k) {
    const size_t i = order[k];
    results[i] = build::run_process({python, "-c", kImportScript, files[i], module_dir}, timeout, 1 << 20,
                                    scratch.string(), {}, &env);
    if (on_done) on_done(i);
  });
  std::error_code ignored;
  std::filesystem::remove_all(scratch, ignored);
  return results;
}

std::vector<nlohmann::json> inline_build_reports(const build::ProcessResult& prebuild) {
  std::vector<nlohmann::json> reports;
  constexpr std::string_view kTag = "kforge-inline-result ";
  size_t at = 0;
  while ((at = prebuild.output.find(kTag, at)) != std::string::npos) {
    size_t eol = prebuild.output.find('\n', at);
    std::string line = prebuild.output.substr(at + kTag.size(), eol == std::string::npos ? std::string::npos : eol - at - kTag.size());
    try {
      reports.push_back(nlohmann::json::parse(line));
    } catch (...) {  // a candidate printed something that looks like it: not a report
    }
    at = eol == std::string::npos ? prebuild.output.size() : eol;
  }
  return reports;
}

}  // namespace kforge
