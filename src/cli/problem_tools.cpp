#include "cli/problem_tools.hpp"

#include <iostream>

#include "build/subprocess.hpp"
#include "common/errors.hpp"
#include "pool/devices.hpp"
#include "pool/worker_paths.hpp"

namespace kforge::cli {

ChosenProblems choose_problems(const std::string& suite_dir, const std::vector<std::string>& specs) {
  ChosenProblems c;
  c.dir = suite_dir.empty() ? builtin_suite_dir() : std::filesystem::path(suite_dir);
  c.suite = load_suite(c.dir);
  if (specs.empty()) c.problems = c.suite.problems;
  for (const auto& spec : specs)
    for (auto& p : resolve_problems(spec, c.suite)) c.problems.push_back(std::move(p));
  if (c.problems.empty()) throw UsageError("no problems in " + c.dir.string());
  return c;
}

void leave_out_multi_rank(std::vector<Problem>& problems, const std::string& what, const std::string& done) {
  const bool any = !problems.empty();
  std::erase_if(problems, [&](const Problem& p) {
    if (p.world_size > 1) std::cerr << "kforge: note: " << multi_rank_unsupported(p, what) << "; not " << done << "\n";
    return p.world_size > 1;
  });
  if (any && problems.empty()) throw UsageError("nothing " + done + ": every problem chosen is a multi-rank one");
}

std::string tool_device(const std::string& asked) {
  if (asked != "auto" && asked != "cpu" && asked != "cuda")
    throw UsageError("--device must be auto, cpu or cuda, not '" + asked + "'");
  if (asked == "cpu") return asked;
  const bool gpu = probe_cuda_devices().count > 0;
  if (asked == "cuda" && !gpu) throw Error("--device cuda: no CUDA device here");
  return gpu ? "cuda" : "cpu";
}

std::vector<nlohmann::json> run_problem_tool(const std::string& script, const std::vector<std::string>& args,
                                             std::chrono::seconds timeout, std::string& failure,
                                             const std::function<void(const nlohmann::json&)>& on_line,
                                             const std::string& key) {
  std::vector<std::string> argv{worker_python().string(), (worker_module_dir() / script).string()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<nlohmann::json> out;
  std::string pending;     // output after the last newline
  std::string last_other;  // the last line that is not a result: a failed tool's exception
  auto take_line = [&](std::string_view line) {
    if (line.empty()) return;
    if (line.front() != '{') {
      last_other = line;
      return;
    }
    auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object() || !j.contains(key) || !j[key].is_string()) return;  // a line of torch's
    if (on_line) on_line(j);
    out.push_back(std::move(j));
  };
  build::ProcessResult run = build::run_process(argv, timeout, size_t{16} << 20, "", [&](std::string_view chunk) {
    pending.append(chunk);
    size_t start = 0;
    for (size_t end; (end = pending.find('\n', start)) != std::string::npos; start = end + 1)
      take_line(std::string_view(pending).substr(start, end - start));
    pending.erase(0, start);
  });
  take_line(pending);  // a last line without a newline
  failure = run.timed_out          ? "timed out"
            : run.exit_code != 0 ? "exit " + std::to_string(run.exit_code) + (last_other.empty() ? "" : ": " + last_other)
                                 : "";
  return out;
}

std::map<std::string, nlohmann::json> by_problem(const std::vector<nlohmann::json>& lines) {
  std::map<std::string, nlohmann::json> out;
  for (const auto& j : lines) out[j.at("problem").get<std::string>()] = j;
  return out;
}

std::string worker_torch_version() { return tool_identity("cpu").torch; }

ToolIdentity tool_identity(const std::string& device) {
  const std::string code = device == "cuda"
                               ? "import torch; print(torch.__version__); print(torch.cuda.get_device_name(0))"
                               : "import torch; print(torch.__version__); print('cpu')";
  auto r = build::run_process({worker_python().string(), "-c", code}, std::chrono::seconds(120));
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t end; (end = r.output.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(r.output.substr(start, end - start));
  if (r.exit_code != 0 || lines.size() < 2)
    throw Error("the worker's Python (" + worker_python().string() + ") cannot import torch or name the device: " +
                r.output);
  return {.hardware = lines.back(), .torch = lines[lines.size() - 2]};
}

}  // namespace kforge::cli
