#include "report/upstream_baselines.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

#include "common/errors.hpp"
#include "common/files.hpp"

namespace kforge::report {

std::string upstream_baseline_file(const std::string& mode) {
  if (mode == "eager") return "baseline_time_torch.json";
  if (mode == "compile") return "baseline_time_torch_compile_inductor_default.json";
  if (mode == "max-autotune") return "baseline_time_torch_compile_inductor_max-autotune-no-cudagraphs.json";
  return "";
}

UpstreamBaselines read_upstream_baselines(const std::filesystem::path& file) {
  const std::string where = file.string() + ": ";
  const auto j = nlohmann::json::parse(read_file(file), nullptr, false);
  if (!j.is_object()) throw Error(where + "not a JSON object (upstream's baseline files are {\"level1\": {\"1_X.py\": {\"mean\": ms}}})");
  UpstreamBaselines out;
  bool mixed = false;
  for (const auto& [level, problems] : j.items()) {
    if (level.rfind("level", 0) != 0 || !problems.is_object())
      throw Error(where + "\"" + level + "\" is not a level of problems (\"level1\": {...})");
    for (const auto& [name, t] : problems.items()) {
      if (!t.is_object() || !t.contains("mean") || !t["mean"].is_number() || !std::isfinite(t["mean"].get<double>()) ||
          t["mean"].get<double>() <= 0)
        throw Error(where + level + "/" + name + " has no positive \"mean\" time in ms");
      const std::string stem = name.size() > 3 && name.ends_with(".py") ? name.substr(0, name.size() - 3) : name;
      out.mean_ms[level + "/" + stem] = t["mean"].get<double>();
      if (t.contains("hardware") && t["hardware"].is_string()) {
        const std::string hw = t["hardware"].get<std::string>();
        if (out.hardware.empty() && !mixed) out.hardware = hw;
        else if (out.hardware != hw) {
          mixed = true;
          out.hardware.clear();
        }
      }
    }
  }
  return out;
}

}  // namespace kforge::report
