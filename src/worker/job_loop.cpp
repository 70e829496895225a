#include "worker/job_loop.hpp"

#include "worker/crash_report.hpp"

#include <pybind11/pybind11.h>

#include "protocol/frame.hpp"
#include "protocol/messages.hpp"
#include "worker/evaluate.hpp"

namespace kforge::worker {
namespace {

namespace py = pybind11;

protocol::WorkerInfo describe_worker(WorkerContext& context) {
  protocol::WorkerInfo info;
  auto sys = py::module_::import("sys");
  auto platform = py::module_::import("platform");
  auto torch = py::module_::import("torch");
  info.python_version = py::str(sys.attr("version")).cast<std::string>().substr(0, 6);
  info.torch_version = py::str(torch.attr("__version__")).cast<std::string>();
  auto cuda = torch.attr("cuda");
  context.cuda = cuda.attr("is_available")().cast<bool>();
  if (context.cuda) {
    py::object props = cuda.attr("get_device_properties")(0);
    info.device_kind = "cuda";
    info.device_name = py::str(props.attr("name")).cast<std::string>();
    info.l2_bytes = props.attr("L2_cache_size").cast<int64_t>();
    info.sm_count = props.attr("multi_processor_count").cast<int>();
    info.compute_capability = std::to_string(props.attr("major").cast<int>()) + "." +
                              std::to_string(props.attr("minor").cast<int>());
    context.l2_bytes = info.l2_bytes;
  } else {
    info.device_kind = "cpu";
    std::string cpu = py::str(platform.attr("processor")()).cast<std::string>();
    info.device_name = cpu.empty() ? py::str(platform.attr("machine")()).cast<std::string>() : cpu;
  }
  return info;
}

void release_memory(bool cuda) {
  py::module_::import("gc").attr("collect")();
  if (cuda) py::module_::import("torch").attr("cuda").attr("empty_cache")();
}

}  // namespace

int serve(int in_fd, int out_fd) {
  install_native_crash_report();
  WorkerContext context;
  protocol::WorkerInfo info = describe_worker(context);
  if (!protocol::write_frame(out_fd, {{"type", "hello"}, {"protocol", protocol::kVersion}, {"worker", info}})) return 1;
  for (;;) {
    auto frame = protocol::read_frame(in_fd);
    if (frame.status != protocol::ReadStatus::ok) return 0;  // kforge went away
    std::string type = frame.message.value("type", "");
    if (type == "shutdown") return 0;
    if (type != "eval") continue;
    protocol::JobResult result;
    try {
      result = evaluate(frame.message.at("job").get<protocol::EvalJob>(), context);
    } catch (const std::exception& e) {
      result.verdict = Verdict::runtime_error;
      result.message = std::string("worker: malformed job: ") + e.what();
    }
    release_memory(context.cuda && !result.worker_must_restart);
    const std::string nonce = frame.message.value("nonce", std::string());
    if (!protocol::write_frame(out_fd, {{"type", "result"}, {"nonce", nonce}, {"result", result}})) return 1;
    if (result.worker_must_restart) return 3;
  }
}

}  // namespace kforge::worker
