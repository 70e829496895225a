#include "worker/python_bridge.hpp"

#include <atomic>

#include <ATen/Context.h>

namespace kforge::worker {

py::module_ import_file(const std::string& path, const std::string& module_prefix) {
  static std::atomic<int> counter{0};
  auto importlib_util = py::module_::import("importlib.util");
  auto sys = py::module_::import("sys");
  std::string name = module_prefix + std::to_string(counter++);
  py::object spec = importlib_util.attr("spec_from_file_location")(name, path);
  if (spec.is_none()) throw std::runtime_error("cannot import " + path + " as a Python module");
  py::object module = importlib_util.attr("module_from_spec")(spec);
  // Registered before executing so dataclasses, pickling and Triton's source lookup can find it.
  sys.attr("modules")[py::str(name)] = module;
  try {
    spec.attr("loader").attr("exec_module")(module);
  } catch (...) {
    sys.attr("modules").attr("pop")(name, py::none());
    throw;
  }
  return py::reinterpret_borrow<py::module_>(module);
}

// What torch.manual_seed does (the CPU generator and every accelerator's), without Python: this
// runs inside the request the reference process times around a candidate's call, where
// torch.manual_seed's imports and checks cost 0.15 ms.
void seed_everything(uint64_t seed) { at::manual_seed(seed); }

CollectorPaused::CollectorPaused() : was_enabled_(PyGC_Disable() == 1) {}

CollectorPaused::~CollectorPaused() {
  if (was_enabled_) PyGC_Enable();
}

py::object call_on_device(const py::object& fn, const py::tuple& args, const std::string& device) {
  py::object context = py::module_::import("torch").attr("device")(device);
  context.attr("__enter__")();
  py::object result;
  try {
    result = fn(*args);
  } catch (py::error_already_set& e) {
    context.attr("__exit__")(e.type(), e.value(), e.trace());
    throw;
  }
  context.attr("__exit__")(py::none(), py::none(), py::none());
  return result;
}

PythonError describe(py::error_already_set& e) {
  PythonError out;
  out.is_system_exit = e.matches(PyExc_SystemExit);
  out.is_out_of_memory = e.matches(PyExc_MemoryError);
  try {
    auto torch = py::module_::import("torch");
    if (py::hasattr(torch, "OutOfMemoryError") && e.matches(torch.attr("OutOfMemoryError"))) out.is_out_of_memory = true;
  } catch (py::error_already_set&) {
  }
  py::object type = e.type();
  out.type_name = type.is_none() ? "Exception" : py::str(type.attr("__name__")).cast<std::string>();
  std::string message;
  try {
    message = py::str(e.value()).cast<std::string>();
  } catch (py::error_already_set&) {
    message = "<unprintable exception>";
  }
  if (out.is_system_exit) {
    out.summary = "called exit(" + message + ")";
  } else {
    // The first line of a long message (compiler logs, CUDA hints) is the informative one; the
    // traceback keeps the rest.
    std::string first = message.substr(0, message.find('\n'));
    if (first.size() > 400) first = first.substr(0, 400) + "...";
    out.summary = out.type_name + ": " + first;
  }
  if (message.find("Error building extension") != std::string::npos) {
    // The message is the compiler's report (condensed by kforge's load_inline, whole from torch's):
    // all of it is the point, and the Python frames that raised it are not.
    out.is_build_failure = true;
    constexpr size_t kMax = 4000;
    out.summary = message.size() > kMax ? message.substr(0, kMax) + "\n(cut at 4000 characters)" : message;
    return out;
  }
  if (says_out_of_memory(message)) out.is_out_of_memory = true;

  try {
    // An exception raised in C++ (a native candidate) and translated by pybind11 has no traceback.
    py::object trace = e.trace() ? py::reinterpret_borrow<py::object>(e.trace()) : py::none();
    py::object value = e.value() ? py::reinterpret_borrow<py::object>(e.value()) : py::none();
    auto traceback = py::module_::import("traceback");
    py::list lines = traceback.attr("format_exception")(type, value, trace);
    std::string text;
    for (auto line : lines) text += line.cast<std::string>();
    // Keep the end: the frames nearest the failure, and the message.
    constexpr size_t kMax = 6000;
    out.traceback = text.size() > kMax ? "..." + text.substr(text.size() - kMax) : text;
    py::list frames = trace.is_none() ? py::list() : py::list(traceback.attr("extract_tb")(trace));
    if (py::len(frames) > 0) {
      py::object last = frames[py::len(frames) - 1];
      std::string file = py::str(last.attr("filename")).cast<std::string>();
      file = file.substr(file.find_last_of('/') + 1);
      out.summary += " (" + file + ", line " + py::str(last.attr("lineno")).cast<std::string>() + ", in " +
                     py::str(last.attr("name")).cast<std::string>() + ")";
    }
  } catch (const std::exception&) {  // the summary above stands on its own
  }
  return out;
}

}  // namespace kforge::worker
