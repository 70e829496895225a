#pragma once
// Nsight Compute's answer for one profiled forward, read and condensed for a kernel writer (issue
// 20's profiler digest). ncu writes it with `--csv --page raw`: a header row of metric names, a
// row of units, then one row per profiled kernel; numbers carry thousands separators ("65,536")
// and kernel names carry commas, inside quotes. The metrics asked for are kNcuMetrics.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kforge::profile {

// The metrics `kforge profile` asks ncu for (one replay pass set: about 15 passes per kernel).
extern const char* const kNcuMetrics;

struct NcuKernel {
  std::string name;                       // demangled, with its parameter list
  std::map<std::string, double> metrics;  // by ncu's metric name, numbers only
  std::map<std::string, std::string> text;  // the non-numeric fields (block and grid size, ...)

  std::optional<double> metric(const std::string& name) const;
  double duration_ms() const;  // gpu__time_duration.sum, 0 when missing
};

// The kernels of ncu's raw CSV page, in profiling order; lines before the header (ncu's own
// "==PROF==" lines, the program's output) are skipped. Empty when there is no header.
std::vector<NcuKernel> parse_ncu_raw_csv(const std::string& text);

// Where the kernel stands against the roofline, from DRAM and SM throughput as shares of their
// peaks: "memory-bound", "compute-bound", or "latency-bound" (neither reaches 60%: too little
// parallelism in flight, or stalls, keep both units idle).
std::string roofline_class(const NcuKernel& k);

// A few lines a model can act on: time and launch shape, the roofline class with its figures,
// occupancy (achieved, theoretical, what limits it), the top stall reasons, local memory (spills),
// tensor-core use, the L2 hit rate.
std::string ncu_digest(const NcuKernel& k);

}  // namespace kforge::profile
