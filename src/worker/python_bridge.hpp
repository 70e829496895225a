#pragma once
// The worker's only contact with Python: importing problem and candidate modules, running code
// under a device context, and turning Python exceptions into messages. Everything else (inputs,
// comparison, timing, the job loop) is C++.
#include <pybind11/pybind11.h>

#include <string>
#include <string_view>

namespace kforge::worker {

namespace py = pybind11;

// Imports a file as a fresh module under a unique name (never from a cache of an earlier job).
py::module_ import_file(const std::string& path, const std::string& module_prefix);

// The prefix of a problem file's module names (import_file), by which a reference twin's unload
// finds them in sys.modules.
inline constexpr const char* kProblemModulePrefix = "kforge_problem_";

// Whether an error's text says an allocation failed: CUDA's allocator says "out of memory", the
// CPU allocator "can't allocate memory" (describe() and the worker's retry without spares read it).
inline bool says_out_of_memory(std::string_view message) {
  return message.find("out of memory") != std::string_view::npos || message.find("can't allocate memory") != std::string_view::npos;
}

// torch.manual_seed(seed): seeds the CPU and every CUDA generator.
void seed_everything(uint64_t seed);

// Python's cyclic collector off while it lives, as it was before after: a collection runs when
// allocations pile up, and one inside a timed call is noise on that side only. Both sides of a
// pair time under it (the reference process for its whole timing, a candidate's process per call).
// Through the C API (PyGC_Disable), not the gc module's functions, which a candidate can replace
// with code of its own that would then run just before its timed call.
class CollectorPaused {
 public:
  CollectorPaused();
  ~CollectorPaused();
  CollectorPaused(const CollectorPaused&) = delete;
  CollectorPaused& operator=(const CollectorPaused&) = delete;

 private:
  bool was_enabled_;
};

// Calls fn(*args) with `with torch.device(device):` around it, so factory functions inside
// (torch.randn in get_inputs, parameters in __init__) create tensors on that device directly.
py::object call_on_device(const py::object& fn, const py::tuple& args, const std::string& device);

// "ValueError: bad shape (candidate.py, line 12, in forward)": the exception's type and message,
// and the innermost frame, short enough for a table; `full` keeps the whole traceback.
struct PythonError {
  std::string type_name;
  std::string summary;
  std::string traceback;
  bool is_system_exit = false;
  bool is_out_of_memory = false;
  bool is_build_failure = false;  // torch.utils.cpp_extension failed to build (load_inline)
};
PythonError describe(py::error_already_set& e);

}  // namespace kforge::worker
