#include "worker/integrity.hpp"
#include "core/rules.hpp"
#include "common/proc_text.hpp"

#include <dirent.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <thread>

namespace kforge::worker {
namespace {

struct Namespace {
  const char* module;
  const char* attribute;  // a class inside the module, or nullptr for the module itself
};
constexpr Namespace kWatched[] = {{"torch", nullptr},         {"torch.cuda", nullptr}, {"torch.nn.functional", nullptr},
                                  {"time", nullptr},          {"torch", "Tensor"},     {"torch.nn", "Module"},
                                  {"torch.cuda", "Event"}};

// name = value of each global precision setting, in a fixed order.
std::vector<std::string> read_flags() {
  std::vector<std::string> out;
  py::module_ torch = py::module_::import("torch");
  auto read = [&](const char* name, const std::function<py::object()>& get) {
    try {
      py::object value = get();
      out.push_back(std::string(name) + " = " + std::string(py::str(py::repr(value))));
    } catch (py::error_already_set&) {
      out.push_back(std::string(name) + " = <unreadable>");
    }
  };
  py::object backends = torch.attr("backends");
  read("torch.backends.cuda.matmul.allow_tf32", [&] { return backends.attr("cuda").attr("matmul").attr("allow_tf32"); });
  read("torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
       [&] { return backends.attr("cuda").attr("matmul").attr("allow_fp16_reduced_precision_reduction"); });
  read("torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction",
       [&] { return backends.attr("cuda").attr("matmul").attr("allow_bf16_reduced_precision_reduction"); });
  read("torch.backends.cudnn.allow_tf32", [&] { return backends.attr("cudnn").attr("allow_tf32"); });
  read("torch.get_float32_matmul_precision()", [&] { return torch.attr("get_float32_matmul_precision")(); });
  return out;
}

std::set<int> numbers_in(const char* dir) {
  std::set<int> out;
  if (DIR* d = ::opendir(dir)) {
    while (dirent* e = ::readdir(d))
      if (e->d_name[0] >= '0' && e->d_name[0] <= '9') out.insert(std::atoi(e->d_name));
    ::closedir(d);
  }
  return out;
}

std::set<int> native_threads() { return numbers_in("/proc/self/task"); }

// The dict an owner's attributes live in, itself rather than a view: a module's __dict__, a
// class's tp_dict (its __dict__ is a read-only proxy of it). Borrowed; null if it has none.
PyObject* owned_dict(const py::object& owner) {
  if (PyModule_Check(owner.ptr())) return PyModule_GetDict(owner.ptr());
  if (PyType_Check(owner.ptr())) return reinterpret_cast<PyTypeObject*>(owner.ptr())->tp_dict;
  return nullptr;
}

// Live (not zombie) children of every thread of this process.
std::set<int> live_children() {
  std::set<int> out;
  for (int tid : native_threads()) {
    std::vector<pid_t> listed;
    append_listed_pids(read_proc_file("/proc/self/task/" + std::to_string(tid) + "/children").c_str(), listed);
    for (pid_t pid : listed) {
      std::string stat = read_proc_file("/proc/" + std::to_string(pid) + "/stat");
      size_t paren = stat.rfind(')');
      if (paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z') continue;
      out.insert(pid);
    }
  }
  return out;
}

std::string thread_name(int tid) {
  std::string name = read_proc_file("/proc/self/task/" + std::to_string(tid) + "/comm");
  while (!name.empty() && name.back() == '\n') name.pop_back();
  return name;
}

std::string command_of(int pid) {
  std::string cmd = read_proc_file("/proc/" + std::to_string(pid) + "/cmdline");
  for (char& c : cmd)
    if (c == '\0') c = ' ';
  while (!cmd.empty() && cmd.back() == ' ') cmd.pop_back();
  return cmd.size() > 80 ? cmd.substr(0, 80) + "..." : cmd;
}

// The interpreter's threads that are running Python code (a frame on their stack), read from its
// thread states through the C API (by their ids; threading_name below names one for a message). The
// watch once asked threading.enumerate() alone: a thread started with _thread is not in its list,
// and a candidate can replace the function (a Python attribute) to list nothing. Threads without a
// frame are C threads that merely keep a thread state (autograd's device threads, made at a
// CUDA backward's first call), the native check's to judge, or threads _thread started on a C
// function, which the interpreter's count of started threads shows (new_workers).
//
// The states are read through _PyThread_CurrentFrames (what sys._current_frames returns, called
// in C so no candidate can replace it), which walks them under the runtime's lock, as CPython's
// own walks do: the C API lets a thread make or delete its state without the GIL
// (PyGILState_Ensure), and a walk with PyInterpreterState_ThreadHead/PyThreadState_Next takes no
// lock. Walked that way, the candidate's process died of SIGSEGV here reading a state's frame
// (and the fault handler's dump, which takes no lock either, died on the same thread's state),
// about one level-7 job in fifty on a loaded 2-core machine (session 44; none in 260 since). It
// raises an audit event a candidate's audit hook can refuse: then nullopt, and the check says so.
std::optional<std::vector<unsigned long>> python_threads() {
  auto frames = py::reinterpret_steal<py::object>(_PyThread_CurrentFrames());  // {thread id: its innermost frame}
  if (!frames) {
    PyErr_Clear();
    return std::nullopt;
  }
  std::vector<unsigned long> out;
  PyObject* key = nullptr;
  PyObject* value = nullptr;
  for (Py_ssize_t pos = 0; PyDict_Next(frames.ptr(), &pos, &key, &value);) out.push_back(PyLong_AsUnsignedLong(key));
  return out;
}

// The name threading gives a thread, for a violation's message only: asked once a thread is
// found, since threading.enumerate is a Python attribute the candidate may have replaced (its
// code then runs here), and the check runs after every call.
std::string threading_name(unsigned long ident) {
  try {
    py::module_ threading = py::module_::import("threading");
    for (auto t : threading.attr("enumerate")()) {
      py::object id = t.attr("ident");
      if (!id.is_none() && id.cast<unsigned long>() == ident) return py::str(t.attr("name")).cast<std::string>();
    }
  } catch (const py::error_already_set&) {
  } catch (const py::cast_error&) {
  }
  return "a thread threading does not list";
}

}  // namespace

IntegrityWatch::IntegrityWatch() {
  for (const auto& ns : kWatched) {
    Watched w;
    w.owner = py::module_::import(ns.module);
    w.owner_name = ns.module;
    if (ns.attribute) {
      w.owner = w.owner.attr(ns.attribute);
      w.owner_name += std::string(".") + ns.attribute;
      w.is_class = true;
    }
    PyObject* dict = owned_dict(w.owner);
    if (!dict) continue;
    PyObject* key = nullptr;
    PyObject* value = nullptr;
    for (Py_ssize_t pos = 0; PyDict_Next(dict, &pos, &key, &value);) {
      if (!PyUnicode_CheckExact(key)) continue;
      py::object name = py::reinterpret_borrow<py::object>(key);
      if (PyCallable_Check(value)) w.callables.emplace_back(name, py::reinterpret_borrow<py::object>(value));
    }
    if (w.is_class) {
      w.keys = py::reinterpret_steal<py::object>(PyFrozenSet_New(dict));
      if (!w.keys) throw py::error_already_set();
    }
    watched_.push_back(std::move(w));
  }
  flags_ = read_flags();
  if (auto threads = python_threads()) python_threads_.insert(threads->begin(), threads->end());
  count_started_threads_ = py::module_::import("_thread").attr("_count");
  started_threads_ = started_thread_count().value_or(0);
  children_ = live_children();
}

// _thread._count(): the interpreter's count of threads started through _thread (threading's too)
// that are running, kept by the threads themselves as they start and end, so it needs no walk of
// the thread states. The function is held from the snapshot, so a replaced module attribute does
// not change what is called.
std::optional<long> IntegrityWatch::started_thread_count() const {
  try {
    return count_started_threads_().cast<long>();
  } catch (const py::error_already_set&) {
    return std::nullopt;
  } catch (const py::cast_error&) {
    return std::nullopt;
  }
}

void IntegrityWatch::settle_native_threads() { native_threads_ = native_threads(); }

std::optional<Violation> IntegrityWatch::check() const {
  for (const auto& w : watched_) {
    PyObject* dict = owned_dict(w.owner);
    if (!dict) continue;
    for (const auto& [name, value] : w.callables) {
      PyObject* now = PyDict_GetItemWithError(dict, name.ptr());  // borrowed, or null
      if (!now) PyErr_Clear();
      if (now != value.ptr())
        return Violation{std::string(rules::kPatchedTorch), w.owner_name + "." + py::str(name).cast<std::string>() + " was " +
                                              (now ? "replaced" : "removed") +
                                              " by the candidate (a patched function changes what the reference "
                                              "computes, how inputs are made or how time is read)"};
    }
    if (w.is_class) {
      PyObject* key = nullptr;
      PyObject* value = nullptr;
      for (Py_ssize_t pos = 0; PyDict_Next(dict, &pos, &key, &value);)
        if (PySet_Contains(w.keys.ptr(), key) != 1) {
          PyErr_Clear();  // an unhashable key cannot have been there either
          return Violation{std::string(rules::kPatchedTorch), "the candidate added " + py::str(key).cast<std::string>() + " to " +
                                                w.owner_name + ", overriding its inherited behaviour"};
        }
    }
  }
  auto flags = read_flags();
  for (size_t i = 0; i < flags.size() && i < flags_.size(); ++i)
    if (flags[i] != flags_[i])
      return Violation{std::string(rules::kPrecisionFlag), "the candidate changed a global precision setting the reference also uses: " +
                                             flags_[i] + " became " + flags[i].substr(flags[i].find(" = ") + 3)};
  if (auto v = new_workers()) {
    // A thread or child that was just ending (a joined std::thread's task can linger for a
    // moment) is not smuggled work: look again once.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return new_workers();
  }
  return std::nullopt;
}

std::optional<Violation> IntegrityWatch::new_workers() const {
  const auto threads = python_threads();
  if (!threads)
    return Violation{std::string(rules::kThreadInjection),
                     "the interpreter's list of threads could not be read (an audit hook refused \"sys._current_frames\"): "
                     "threads the candidate started cannot be told from none"};
  for (unsigned long ident : *threads)
    if (!python_threads_.count(ident))
      return Violation{std::string(rules::kThreadInjection), "a thread the candidate started (\"" + threading_name(ident) +
                                               "\") is still running after forward returned: work outside the timed call"};
  // A thread whose target is a C function (collections.deque consuming a map of time.sleep or of
  // a tensor method) runs without a Python frame, so the list above never shows it; the
  // interpreter still counts it among the threads _thread started.
  const std::optional<long> started = started_thread_count();
  if (!started)
    return Violation{std::string(rules::kThreadInjection),
                     "the interpreter's count of running threads could not be read: threads the candidate started "
                     "cannot be told from none"};
  if (*started > started_threads_)
    return Violation{std::string(rules::kThreadInjection),
                     "a thread the candidate started is still running after forward returned, one that runs no Python "
                     "code (its target a C function, so no frame of it shows): " +
                         std::to_string(*started - started_threads_) + " more started thread(s) than at the snapshot"};
  for (int pid : live_children())
    if (!children_.count(pid))
      return Violation{std::string(rules::kProcessInjection), "a process the candidate started (pid " + std::to_string(pid) + ": " +
                                                command_of(pid) + ") is still running after forward returned"};
  if (native_threads_)
    for (int tid : native_threads())
      if (!native_threads_->count(tid))
        return Violation{std::string(rules::kThreadInjection), "a native thread (\"" + thread_name(tid) +
                                                 "\") appeared during the candidate's call and is still running after "
                                                 "forward returned"};
  return std::nullopt;
}

}  // namespace kforge::worker
