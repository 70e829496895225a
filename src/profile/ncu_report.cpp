#include "profile/ncu_report.hpp"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

namespace kforge::profile {
namespace {

// One CSV record per line (ncu writes no newlines inside fields): quoted fields may hold commas.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(std::move(field));
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  out.push_back(std::move(field));
  return out;
}

// "11,185,066.67" -> 11185066.67; nothing for text ("(256, 1, 1)", "PolicySpread", "n/a").
std::optional<double> number(const std::string& field) {
  std::string digits;
  for (char c : field)
    if (c != ',') digits += c;
  if (digits.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size()) return std::nullopt;
  return v;
}

// What each stall reason means, in a kernel writer's words (ncu's warp-state names).
std::string stall_meaning(const std::string& reason) {
  static const std::map<std::string, std::string> meanings = {
      {"long_scoreboard", "waiting on global or local memory"},
      {"short_scoreboard", "waiting on shared memory or special math"},
      {"wait", "fixed-latency dependencies"},
      {"barrier", "waiting at __syncthreads"},
      {"membar", "waiting on memory fences"},
      {"math_pipe_throttle", "a math pipe is saturated"},
      {"mio_throttle", "the shared-memory/special-function queue is full"},
      {"lg_throttle", "the global/local memory queue is full"},
      {"tex_throttle", "the texture path is saturated"},
      {"not_selected", "eligible but another warp issued"},
      {"selected", "issuing"},
      {"branch_resolving", "branch targets"},
      {"dispatch_stall", "the dispatcher"},
      {"drain", "memory writes draining at exit"},
      {"no_instruction", "instruction cache misses"},
      {"imc_miss", "constant cache misses"},
      {"sleeping", "sleeping"},
      {"gmma", "waiting on warpgroup MMA (wgmma)"},
      {"misc", "other"},
  };
  auto it = meanings.find(reason);
  return it == meanings.end() ? reason : it->second;
}

constexpr double kBoundShare = 60;  // [% of peak] where a unit counts as the bound

}  // namespace

const char* const kNcuMetrics =
    "gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,"
    "sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,"
    "sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct,"
    "launch__registers_per_thread,launch__block_size,launch__grid_size,launch__waves_per_multiprocessor,"
    "launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,"
    "launch__occupancy_limit_blocks,lts__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,dram__bytes_read.sum,dram__bytes_write.sum,"
    "smsp__issue_active.avg.pct_of_peak_sustained_active,"
    "regex:sm__pipe_tensor_op_.*_cycles_active.avg.pct_of_peak_sustained_active,"
    "regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio";

std::optional<double> NcuKernel::metric(const std::string& name) const {
  auto it = metrics.find(name);
  if (it == metrics.end()) return std::nullopt;
  return it->second;
}

double NcuKernel::duration_ms() const { return metric("gpu__time_duration.sum").value_or(0) / 1e6; }

std::vector<NcuKernel> parse_ncu_raw_csv(const std::string& text) {
  std::vector<NcuKernel> out;
  std::vector<std::string> header;
  bool units_seen = false;
  size_t at = 0;
  while (at < text.size()) {
    size_t eol = text.find('\n', at);
    std::string line = text.substr(at, eol == std::string::npos ? std::string::npos : eol - at);
    at = eol == std::string::npos ? text.size() : eol + 1;
    if (line.empty() || line[0] != '"') continue;  // ncu's own lines, the program's output
    std::vector<std::string> fields = csv_fields(line);
    if (header.empty()) {
      if (!fields.empty() && fields[0] == "ID") header = std::move(fields);
      continue;
    }
    if (!units_seen) {  // the row of units follows the header
      units_seen = true;
      continue;
    }
    if (fields.size() != header.size()) continue;
    NcuKernel k;
    for (size_t i = 0; i < fields.size(); ++i) {
      if (header[i] == "Kernel Name") k.name = fields[i];
      else if (auto v = number(fields[i]); v && header[i].find("__") != std::string::npos) k.metrics[header[i]] = *v;
      else k.text[header[i]] = fields[i];
    }
    out.push_back(std::move(k));
  }
  return out;
}

std::string roofline_class(const NcuKernel& k) {
  const double dram = k.metric("dram__throughput.avg.pct_of_peak_sustained_elapsed").value_or(0);
  const double sm = k.metric("sm__throughput.avg.pct_of_peak_sustained_elapsed").value_or(0);
  if (dram < kBoundShare && sm < kBoundShare) return "latency-bound";
  return dram >= sm ? "memory-bound" : "compute-bound";
}

std::string ncu_digest(const NcuKernel& k) {
  auto m = [&](const char* name) { return k.metric(name); };
  std::string d = fmt::format("Nsight Compute, kernel {}: {:.4f} ms", k.name, k.duration_ms());
  if (auto grid = m("launch__grid_size"), block = m("launch__block_size"); grid && block)
    d += fmt::format(", grid {:.0f} x block {:.0f}", *grid, *block);
  if (auto regs = m("launch__registers_per_thread")) d += fmt::format(", {:.0f} registers/thread", *regs);
  if (auto waves = m("launch__waves_per_multiprocessor")) d += fmt::format(", {:.2f} waves", *waves);
  d += "\n";

  const double dram = m("dram__throughput.avg.pct_of_peak_sustained_elapsed").value_or(0);
  const double sm = m("sm__throughput.avg.pct_of_peak_sustained_elapsed").value_or(0);
  const std::string cls = roofline_class(k);
  d += fmt::format("- {}: DRAM throughput {:.0f}% of peak, SM throughput {:.0f}%", cls, dram, sm);
  if (auto l2 = m("lts__t_sector_hit_rate.pct")) d += fmt::format(", L2 hit rate {:.0f}%", *l2);
  if (auto issue = m("smsp__issue_active.avg.pct_of_peak_sustained_active")) d += fmt::format(", issue slots busy {:.0f}%", *issue);
  d += "\n";
  if (cls == "latency-bound")
    d += "  neither memory nor compute is near its peak: more work in flight (occupancy, independent loads, ILP) "
         "or fewer stalls is where the time is\n";

  if (auto achieved = m("sm__warps_active.avg.pct_of_peak_sustained_active")) {
    d += fmt::format("- occupancy: {:.0f}% achieved", *achieved);
    if (auto theoretical = m("sm__maximum_warps_per_active_cycle_pct")) {
      d += fmt::format(" of {:.0f}% theoretical", *theoretical);
      // The occupancy limits are in blocks per SM: the smallest is what binds.
      std::vector<std::pair<double, std::string>> limits;
      for (auto [metric, what] : {std::pair{"launch__occupancy_limit_registers", "registers"},
                                  std::pair{"launch__occupancy_limit_shared_mem", "shared memory"},
                                  std::pair{"launch__occupancy_limit_warps", "warps per block"},
                                  std::pair{"launch__occupancy_limit_blocks", "blocks per SM"}})
        if (auto v = m(metric)) limits.emplace_back(*v, what);
      if (*theoretical < 100 && !limits.empty()) {
        auto least = std::min_element(limits.begin(), limits.end());
        d += fmt::format(" (limited by {})", least->second);
      }
    }
    d += "\n";
  }

  std::vector<std::pair<double, std::string>> stalls;
  const std::string prefix = "smsp__average_warps_issue_stalled_", suffix = "_per_issue_active.ratio";
  for (const auto& [name, value] : k.metrics)
    if (name.starts_with(prefix) && name.ends_with(suffix) && value > 0)
      stalls.emplace_back(value, name.substr(prefix.size(), name.size() - prefix.size() - suffix.size()));
  std::sort(stalls.rbegin(), stalls.rend());
  if (!stalls.empty()) {
    d += "- top stall reasons (warps stalled per issued instruction):";
    for (size_t i = 0; i < std::min<size_t>(3, stalls.size()); ++i)
      d += fmt::format("{} {} {:.1f} ({})", i ? "," : "", stalls[i].second, stalls[i].first, stall_meaning(stalls[i].second));
    d += "\n";
  }

  const double local = m("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum").value_or(0) +
                       m("l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum").value_or(0);
  if (local > 0)
    d += fmt::format("- local memory: {:.0f} sectors loaded and stored (register spills or local arrays, each a trip "
                     "through the cache hierarchy)\n", local);
  double tensor = 0;
  for (const auto& [name, value] : k.metrics)
    if (name.starts_with("sm__pipe_tensor_op_") && name.ends_with("_cycles_active.avg.pct_of_peak_sustained_active"))
      tensor = std::max(tensor, value);
  d += tensor > 0 ? fmt::format("- tensor cores busy {:.0f}% of the active cycles\n", tensor)
                  : "- tensor cores idle\n";
  return d;
}

}  // namespace kforge::profile
