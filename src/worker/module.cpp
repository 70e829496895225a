// _kforge_worker: the extension module the worker's Python process imports (python/kforge_worker.py).
#include <pybind11/pybind11.h>

#include "worker/job_loop.hpp"
#include "worker/native_candidate.hpp"

PYBIND11_MODULE(_kforge_worker, m) {
  m.doc() = "kforge's evaluation worker: job loop, inputs, comparison and timing in C++";
  m.def("serve", &kforge::worker::serve, pybind11::arg("in_fd"), pybind11::arg("out_fd"),
        "Answer kforge's jobs on in_fd/out_fd until shutdown; returns the exit status");
  kforge::worker::NativeCandidate::register_type(m);
}
