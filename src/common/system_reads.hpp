#pragma once
// What of the machine a confined process may read and use when it runs code of a candidate's
// choosing: a candidate's process, the load_inline prebuild's import, a multi-rank candidate's
// rank, and every compiler that builds a candidate's source (docs/evaluation.md, "The sandbox").
// Each list is what programs need to run, not whole folders where secrets live: kforge often runs
// as root, and root without capabilities still reads every file it owns (/etc/shadow, a mounted
// /run/secrets) and every device node owned by root (a disk read whole, /dev/tty written to).
#include <string>
#include <vector>

namespace kforge {

// The system's program and library folders (/usr, /lib*, /bin, /sbin) and, of /etc, only what the
// dynamic loader, the C library's name and time services, the compilers and Python's start read.
// Nothing of /run.
std::vector<std::string> system_read_paths();

// The device nodes such a process may open, for reading and writing: /dev/null, zero, full,
// random, urandom, and the GPU's (/dev/nvidia*, /dev/nvidia-caps): not /dev/tty (the user's
// terminal), a disk, or the kernel's log. /dev/shm only with SharedMemory::allowed (a multi-rank
// job's candidates, whose NCCL and gloo meet there): a file written there is memory that no process's
// resident set counts, outlives its writer, kforge and the machine's next jobs, and is readable by
// the next candidate (`tests/adversarial/leak_shared_memory_file.py`).
enum class SharedMemory { denied, allowed };
std::vector<std::string> usable_device_paths(SharedMemory shared_memory = SharedMemory::denied);

// The folders of the installation `program` (a name looked up on PATH, or a path) belongs to,
// resolved through links: <prefix>/bin/gcc gives <prefix> (its lib/, libexec/, include/ and
// target folders lie there), or, where <prefix> is the home folder or holds it, only its bin/,
// lib/, lib64/, libexec/, include/, nvvm/ and targets/ (nvcc's). Nothing where it is not found.
std::vector<std::string> installation_folders(const std::string& program);

// The installation folders of the host's C compilers on PATH (or $CC, $CXX): Triton builds each
// kernel's launcher with the `cc` it finds there inside a candidate's process, and the build
// service runs g++ and nvcc's host compiler (the H200 machine's gcc is in /opt/gcc).
std::vector<std::string> host_compiler_folders();

}  // namespace kforge
