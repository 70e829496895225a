#include "planner/inline_prebuild.hpp"

#include <cctype>
#include <cstdlib>

#include "common/parallel.hpp"
#include "pool/worker_paths.hpp"

namespace kforge {
namespace {

constexpr const char* kImportScript =
    "import importlib.util, os, sys\n"
    "os.environ['CUDA_VISIBLE_DEVICES'] = ''\n"
    "spec = importlib.util.spec_from_file_location('kforge_prebuild_' + str(abs(hash(sys.argv[1]))), sys.argv[1])\n"
    "spec.loader.exec_module(importlib.util.module_from_spec(spec))\n";

}  // namespace

bool builds_with_load_inline(const std::string& source) { return source.find("load_inline") != std::string::npos; }

std::string torch_arch_list_for(const std::string& arch) {
  std::string digits = arch.starts_with("sm_") ? arch.substr(3) : arch;
  while (!digits.empty() && !std::isdigit(static_cast<unsigned char>(digits.back()))) digits.pop_back();
  if (digits.size() < 2) return "9.0";
  return digits.substr(0, digits.size() - 1) + "." + digits.substr(digits.size() - 1);
}

std::vector<build::ProcessResult> prebuild_load_inline(const std::vector<std::string>& files, const std::string& arch,
                                                       int jobs, std::chrono::seconds timeout) {
  std::vector<build::ProcessResult> results(files.size());
  if (files.empty()) return results;
  // Inherited by the children; the worker, started later with its own environment, is not affected.
  ::setenv("TORCH_CUDA_ARCH_LIST", torch_arch_list_for(arch).c_str(), 0);
  std::string python = worker_python().string();
  parallel_for(files.size(), jobs, [&](size_t i) {
    results[i] = build::run_process({python, "-c", kImportScript, files[i]}, timeout);
  });
  return results;
}

}  // namespace kforge
