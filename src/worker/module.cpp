// _kforge_worker: the extension module both processes of an evaluation import: the reference
// process (python/kforge_worker.py) serves kforge's jobs; a candidate process (forked by
// python/kforge_zygote.py) serves its reference process's requests.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "worker/candidate_host.hpp"
#include "worker/candidate_reads.hpp"
#include "worker/job_loop.hpp"
#include "worker/native_candidate.hpp"

PYBIND11_MODULE(_kforge_worker, m) {
  m.doc() = "kforge's evaluation worker: job loop, inputs, comparison and timing in C++";
  m.def("serve", &kforge::worker::serve, pybind11::arg("in_fd"), pybind11::arg("out_fd"), pybind11::arg("zygote_fd"),
        "Answer kforge's jobs on in_fd/out_fd until shutdown, starting candidate processes through the zygote on "
        "zygote_fd; returns the exit status");
  m.def("serve_candidate", &kforge::worker::serve_candidate, pybind11::arg("socket_fd"), pybind11::arg("protected_pids"),
        "Serve one candidate process's requests on socket_fd; returns the exit status");
  m.def("enter_prebuild_sandbox", &kforge::worker::enter_prebuild_sandbox, pybind11::arg("files"),
        "Confine this process as a candidate's (reads, writes, signals, network) before a load_inline prebuild "
        "imports the candidate `files`; returns the sandbox's description");
  kforge::worker::NativeCandidate::register_type(m);
}
