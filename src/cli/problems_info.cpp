#include "cli/problems_info.hpp"

#include <iostream>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/problem_tools.hpp"
#include "common/errors.hpp"
#include "metrics/speed_of_light.hpp"
#include "store/store.hpp"
#include "suite/problem.hpp"

namespace kforge::cli {
namespace {

// Runs python/kforge_metadata.py over `problems` and returns what it said, by path.
std::map<std::string, nlohmann::json> derive(const std::vector<const Problem*>& problems) {
  std::vector<std::string> paths;
  for (const auto* p : problems) paths.push_back(p->path.string());
  std::string failure;
  auto out = by_problem(run_problem_tool("kforge_metadata.py", paths,
                                         std::chrono::seconds(60 + 30 * static_cast<long>(problems.size())), failure));
  for (const auto& path : paths)
    if (!out.count(path)) out[path] = {{"error", "the metadata process gave no result (" + failure + ")"}};
  return out;
}

std::optional<int64_t> optional_int(const nlohmann::json& j, const char* key) {
  if (j.contains(key) && j[key].is_number_integer()) return j[key].get<int64_t>();
  return std::nullopt;
}

std::string shapes(const std::string& outputs_json) {
  std::string out;
  for (const auto& o : nlohmann::json::parse(outputs_json)) {
    std::string dims;
    for (const auto& d : o.at("shape")) dims += (dims.empty() ? "" : "x") + std::to_string(d.get<int64_t>());
    out += (out.empty() ? "" : ", ") + (dims.empty() ? std::string("scalar") : dims) + " " + o.value("dtype", "");
  }
  return out;
}

// The device's peak rates: from the store, else measured now (python/kforge_peaks.py) and stored.
DevicePeaks device_peaks(Store& store, const std::string& device, const ToolIdentity& id, bool refresh) {
  if (!refresh)
    if (auto stored = store.find_device_peaks(id.hardware, id.torch)) {
      if (stored->complete(device == "cuda")) return *stored;
      std::cerr << "kforge: the stored peak rates of " << id.hardware
                << " lack the TF32 rate or the device properties (an older kforge measured them)\n";
    }
  std::cerr << "kforge: measuring " << id.hardware << "'s peak rates (copy, matmul per precision), once\n";
  std::string failure;
  auto lines = run_problem_tool("kforge_peaks.py", {"--device", device}, std::chrono::seconds(300), failure, {},
                                "hardware");
  if (!failure.empty() || lines.empty() || !lines.back().contains("copy_bytes_per_s"))
    throw Error("measuring the device's peak rates failed (" + (failure.empty() ? std::string("no result") : failure) +
                ")");
  const nlohmann::json& j = lines.back();
  DevicePeaks p;
  p.device_name = j.value("hardware", id.hardware);
  p.torch_version = j.value("torch", id.torch);
  p.copy_bytes_per_s = j.at("copy_bytes_per_s").get<double>();
  p.matmul_flops_per_s = j.at("matmul_flops_per_s").get<std::map<std::string, double>>();
  if (j.contains("properties")) p.properties = j.at("properties").get<std::map<std::string, double>>();
  store.put_device_peaks(p);
  return p;
}

}  // namespace

std::optional<stats::SpeedOfLight> problem_speed_of_light(const ProblemMetadata& m, const DevicePeaks& peaks) {
  if (m.error || !m.flops || !m.input_bytes || !m.param_bytes || !m.output_bytes) return std::nullopt;
  auto rate = peaks.matmul_flops_per_s.find(m.precision);
  if (rate == peaks.matmul_flops_per_s.end()) return std::nullopt;
  auto tf32 = peaks.matmul_flops_per_s.find("tf32");
  const bool cudnn_on_tf32 = m.precision == "fp32" && tf32 != peaks.matmul_flops_per_s.end();
  return stats::speed_of_light(*m.flops, *m.input_bytes + *m.param_bytes + *m.output_bytes, rate->second,
                               peaks.copy_bytes_per_s, cudnn_on_tf32 ? m.tf32_flops.value_or(0) : 0,
                               cudnn_on_tf32 ? tf32->second : 0);
}

int run_problems_info(const ProblemsInfoOptions& o, const GlobalOptions& global) {
  auto [dir, suite, chosen] = choose_problems(o.suite, o.problems);
  leave_out_multi_rank(chosen, "derive metadata of", "derived");

  const std::string device = o.sol ? tool_device(o.device) : "";
  std::optional<ToolIdentity> identity;
  if (o.sol) identity = tool_identity(device);
  const std::string torch = identity ? identity->torch : worker_torch_version();
  Store store(global.db);
  std::optional<DevicePeaks> peaks;
  if (identity) peaks = device_peaks(store, device, *identity, o.refresh);
  std::vector<ProblemMetadata> found(chosen.size());
  std::vector<const Problem*> missing;
  for (size_t i = 0; i < chosen.size(); ++i) {
    auto stored = o.refresh ? std::nullopt
                            : store.find_problem_metadata(chosen[i].hash, torch, chosen[i].default_precision());
    if (stored) found[i] = *stored;
    else missing.push_back(&chosen[i]);
  }
  if (!missing.empty()) {
    auto derived = derive(missing);
    for (size_t i = 0; i < chosen.size(); ++i) {
      auto it = derived.find(chosen[i].path.string());
      if (it == derived.end() || found[i].problem_hash == chosen[i].hash) continue;
      const auto& j = it->second;
      ProblemMetadata m;
      m.problem_hash = chosen[i].hash;
      m.torch_version = torch;
      m.precision = chosen[i].default_precision();
      m.flops = optional_int(j, "flops");
      m.tf32_flops = optional_int(j, "tf32_flops");
      m.input_bytes = optional_int(j, "input_bytes");
      m.param_count = optional_int(j, "param_count");
      m.param_bytes = optional_int(j, "param_bytes");
      m.output_bytes = optional_int(j, "output_bytes");
      m.outputs_json = j.contains("outputs") ? j["outputs"].dump() : "[]";
      if (j.contains("error") && j["error"].is_string()) m.error = j["error"].get<std::string>();
      store.put_problem(chosen[i]);
      store.put_problem_metadata(m);
      found[i] = m;
    }
  }

  auto sol_of = [&](const ProblemMetadata& m) -> std::optional<stats::SpeedOfLight> {
    return peaks ? problem_speed_of_light(m, *peaks) : std::nullopt;
  };
  if (peaks && !o.json)
    std::cout << fmt::format("peak rates of {} (torch {}): copy {:.4g} GB/s; matmul {}\n", peaks->device_name,
                             peaks->torch_version, peaks->copy_bytes_per_s / 1e9, [&] {
                               std::string s;
                               for (const auto& [precision, rate] : peaks->matmul_flops_per_s)
                                 s += (s.empty() ? "" : ", ") + fmt::format("{} {:.4g} TFLOP/s", precision, rate / 1e12);
                               return s;
                             }());
  if (!o.json)
    std::cout << fmt::format("{:<48} {:<5} {:>10} {:>9} {:>9} {:>9} {:>8}{}  {}\n", "problem", "prec", "GFLOP", "MB in",
                             "MB params", "MB out", "FLOP/B", peaks ? fmt::format(" {:>10}", "SOL ms") : "", "outputs");
  size_t failed = 0;
  for (size_t i = 0; i < chosen.size(); ++i) {
    const auto& m = found[i];
    const std::string id = chosen[i].display_name();
    if (o.json) {
      nlohmann::json j = {{"id", id},
                          {"precision", m.precision},
                          {"torch", m.torch_version},
                          {"flops", m.flops ? nlohmann::json(*m.flops) : nlohmann::json(nullptr)},
                          {"tf32_flops", m.tf32_flops ? nlohmann::json(*m.tf32_flops) : nlohmann::json(nullptr)},
                          {"input_bytes", m.input_bytes ? nlohmann::json(*m.input_bytes) : nlohmann::json(nullptr)},
                          {"param_count", m.param_count ? nlohmann::json(*m.param_count) : nlohmann::json(nullptr)},
                          {"param_bytes", m.param_bytes ? nlohmann::json(*m.param_bytes) : nlohmann::json(nullptr)},
                          {"output_bytes", m.output_bytes ? nlohmann::json(*m.output_bytes) : nlohmann::json(nullptr)},
                          {"outputs", nlohmann::json::parse(m.outputs_json)},
                          {"error", m.error ? nlohmann::json(*m.error) : nlohmann::json(nullptr)}};
      if (peaks) {
        auto sol = sol_of(m);
        j["device"] = peaks->device_name;
        j["sol_ms"] = sol ? nlohmann::json(sol->ms) : nlohmann::json(nullptr);
        j["sol_bound"] = sol ? nlohmann::json(sol->compute_bound ? "compute" : "memory") : nlohmann::json(nullptr);
      }
      std::cout << j.dump() << '\n';
    } else if (m.error) {
      std::cout << fmt::format("{:<48} {:<5} {}\n", id, m.precision, "not derived: " + m.error->substr(0, 100));
    } else {
      const double bytes = static_cast<double>(*m.input_bytes + *m.param_bytes + *m.output_bytes);
      auto sol = sol_of(m);
      std::string sol_cell = !peaks ? "" : sol ? fmt::format(" {:>9.4f}{}", sol->ms, sol->compute_bound ? "c" : "m") : fmt::format(" {:>10}", "-");
      std::cout << fmt::format("{:<48} {:<5} {:>10.2f} {:>9.1f} {:>9.1f} {:>9.1f} {:>8.1f}{}  {}\n", id, m.precision,
                               *m.flops / 1e9, *m.input_bytes / 1e6, *m.param_bytes / 1e6, *m.output_bytes / 1e6,
                               bytes > 0 ? *m.flops / bytes : 0.0, sol_cell, shapes(m.outputs_json));
    }
    failed += m.error.has_value();
  }
  if (!o.json)
    std::cout << fmt::format("{} problems, {} derived now, {} from the store ({}), {} not derivable here{}\n",
                             chosen.size(), missing.size(), chosen.size() - missing.size(), global.db, failed,
                             peaks ? "; SOL: c compute bound, m memory bound" : "");
  for (const auto& e : suite.errors) std::cerr << "kforge: " << e << '\n';
  return 0;
}

}  // namespace kforge::cli
