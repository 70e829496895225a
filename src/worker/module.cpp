// _kforge_worker: the extension module both processes of an evaluation import: the reference
// process (python/kforge_worker.py) serves kforge's jobs; a candidate process (forked by
// python/kforge_zygote.py) serves its reference process's requests.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "worker/candidate_host.hpp"
#include "worker/candidate_reads.hpp"
#include "worker/failure.hpp"
#include "worker/job_loop.hpp"
#include "worker/native_candidate.hpp"
#include "worker/private_network.hpp"
#include "worker/zygote_client.hpp"

PYBIND11_MODULE(_kforge_worker, m) {
  m.doc() = "kforge's evaluation worker: job loop, inputs, comparison and timing in C++";
  m.def("serve", &kforge::worker::serve, pybind11::arg("in_fd"), pybind11::arg("out_fd"), pybind11::arg("zygote_fd"),
        "Answer kforge's jobs on in_fd/out_fd until shutdown, starting candidate processes through the zygote on "
        "zygote_fd; returns the exit status");
  m.def("serve_candidate", &kforge::worker::serve_candidate, pybind11::arg("socket_fd"), pybind11::arg("protected_pids"),
        pybind11::arg("private_apart_from") = 0,
        "Serve one candidate process's requests on socket_fd (a rank's: private_apart_from, the network namespace "
        "it left); returns the exit status");
  m.def("asks_reference_for_builds", &kforge::worker::asks_reference_for_builds,
        "Whether load_inline builds are asked of the reference process (a candidate's process)");
  m.def("build_through_reference", &kforge::worker::build_through_reference, pybind11::arg("spec"),
        "Ask the reference process to build a load_inline spec (JSON text); its answer as JSON text");
  m.def("candidate_readable_folders", &kforge::worker::candidate_readable_folders,
        "The folders a candidate's process may read (and the compilers of its builds)");
  m.def("enter_prebuild_sandbox", &kforge::worker::enter_prebuild_sandbox, pybind11::arg("files"),
        pybind11::arg("reads_build_cache") = false,
        "Confine this process as a candidate's (reads, writes, signals, network) before a load_inline prebuild "
        "imports the candidate `files` (with `reads_build_cache`, kforge profile's: the cache readable); returns "
        "the sandbox's description");
  // The ranks' private network of a multi-rank job (issue 24): the holder is made on kforge's
  // trusted side, a rank joins it right after its fork and then enters its sandbox.
  namespace w = kforge::worker;
  pybind11::class_<w::PrivateNetworkHolder>(m, "PrivateNetworkHolder",
                                            "A child process holding a private network namespace with its loopback up")
      .def(pybind11::init<>())
      .def_property_readonly("user_namespace_fd", &w::PrivateNetworkHolder::user_namespace_fd)
      .def_property_readonly("network_namespace_fd", &w::PrivateNetworkHolder::network_namespace_fd);
  m.def("join_private_network", &w::join_private_network, pybind11::arg("user_namespace_fd"),
        pybind11::arg("network_namespace_fd"), "Join a held private network; call it single-threaded, right after a fork");
  m.def("network_namespace_id", &w::network_namespace_id, "This process's network namespace (its inode)");
  // The reference process's side of the zygote, for tests of its spawn requests (the worker's
  // own Zygote lives in C++, worker/job_loop.cpp).
  pybind11::class_<w::Zygote>(m, "Zygote", "A handle on a zygote (python/kforge_zygote.py) over its control socket")
      .def(pybind11::init<int>(), pybind11::arg("control_fd"))
      .def(
          "spawn",
          [](w::Zygote& zygote, int user_namespace_fd, int network_namespace_fd) {
            w::Zygote::RankNetwork rank{user_namespace_fd, network_namespace_fd};
            auto spawned = zygote.spawn(network_namespace_fd >= 0 ? &rank : nullptr);
            return std::make_pair(spawned.socket, static_cast<int>(spawned.pid));
          },
          pybind11::arg("user_namespace_fd") = -1, pybind11::arg("network_namespace_fd") = -1,
          "A candidate process, or a rank's in the given namespaces: (socket fd, pid)")
      .def(
          "start_rank",
          [](w::Zygote& zygote, int user_namespace_fd, int network_namespace_fd, uint64_t expected_network) {
            w::Zygote::RankNetwork rank{user_namespace_fd, network_namespace_fd};
            w::CandidateProcess process(zygote, zygote.spawn(&rank));  // killed when it goes, below
            process.expect_network(expected_network);
            try {
              process.wait_ready(std::chrono::seconds(60));
            } catch (const w::Failure& failure) {
              throw std::runtime_error(failure.message);  // a Failure is no exception pybind11 knows
            }
            return static_cast<int>(process.pid());
          },
          pybind11::arg("user_namespace_fd"), pybind11::arg("network_namespace_fd"), pybind11::arg("expected_network"),
          "Start a rank as the reference process does and check its network; raises where it is not the expected")
      .def(
          "exit_of",
          [](w::Zygote& zygote, int pid, double wait_s) {
            return zygote.exit_of(pid, std::chrono::milliseconds(static_cast<int64_t>(wait_s * 1000)));
          },
          pybind11::arg("pid"), pybind11::arg("wait_s"), "How the process ended, as the zygote reaped it");
  m.def("enter_rank_sandbox", &w::enter_rank_sandbox, pybind11::arg("writable"), pybind11::arg("private_apart_from"),
        "Confine this rank as a candidate whose sockets reach only its private network; returns the description");
  kforge::worker::NativeCandidate::register_type(m);
}
