// _kforge_worker: the extension module the worker's Python process imports (python/kforge_worker.py).
#include <pybind11/pybind11.h>

#include <string>

#include <nlohmann/json.hpp>

#include "build/inline_build.hpp"
#include "worker/job_loop.hpp"
#include "worker/native_candidate.hpp"

namespace {

// One service per process: it reads the compilers' versions once.
kforge::build::BuildService& build_service() {
  static kforge::build::BuildService service(kforge::build::default_build_settings());
  return service;
}

std::string build_inline_json(const std::string& spec_json) {
  auto spec = kforge::build::inline_spec_from_json(nlohmann::json::parse(spec_json));
  kforge::build::InlineOutcome out;
  {
    pybind11::gil_scoped_release release;  // compiles take seconds; nothing here touches Python
    out = kforge::build::build_inline(build_service(), spec);
  }
  nlohmann::json j = {{"ok", out.build.ok},
                      {"cached", out.build.cached},
                      {"library", out.build.library.string()},
                      {"diagnostics", out.build.diagnostics},
                      {"seconds", out.build.seconds},
                      {"strategy", out.strategy},
                      {"why_whole", out.why_whole},
                      {"key", out.build.key}};
  return j.dump();
}

}  // namespace

PYBIND11_MODULE(_kforge_worker, m) {
  m.doc() = "kforge's evaluation worker: job loop, inputs, comparison and timing in C++";
  m.def("serve", &kforge::worker::serve, pybind11::arg("in_fd"), pybind11::arg("out_fd"),
        "Answer kforge's jobs on in_fd/out_fd until shutdown; returns the exit status");
  m.def("build_inline", &build_inline_json, pybind11::arg("spec_json"),
        "Build a load_inline extension through kforge's build cache; JSON in, JSON out (python/kforge_inline.py)");
  kforge::worker::NativeCandidate::register_type(m);
}
