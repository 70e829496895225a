#include "worker/crash_report.hpp"

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

namespace kforge::worker {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction previous[sizeof(kSignals) / sizeof(kSignals[0])];
// Set by the first thread to report. Where many threads fault at once (an OpenMP loop over a
// pointer the host cannot read, as a CPU extension given CUDA tensors does), each ran the report:
// sixteen unwinds of libtorch's stacks in turn behind the unwinder's lock, 3.5-6.3 s before the
// process died on the H200 (docs/benchmarks.md, session 24), 7.5 s on the development machine.
std::atomic<bool> reporting{false};

void write_text(const char* text) {
  ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

// Only async-signal-safe calls: write(2) and backtrace_symbols_fd (backtrace() itself is safe
// once libgcc is loaded, which the first call below, made at install time, ensures).
void report(int sig, siginfo_t*, void*) {
  // Another thread is reporting, and the process dies by its signal once it has: wait for that.
  if (reporting.exchange(true))
    for (;;) ::pause();
  write_text("kforge worker: fatal signal, native stack (most recent call first):\n");
  void* frames[64];
  int n = ::backtrace(frames, 64);
  ::backtrace_symbols_fd(frames, n, STDERR_FILENO);
  for (size_t i = 0; i < sizeof(kSignals) / sizeof(kSignals[0]); ++i)
    if (kSignals[i] == sig) ::sigaction(sig, &previous[i], nullptr);
  ::raise(sig);  // delivered once this handler returns, to the previous handler
}

}  // namespace

void install_native_crash_report() {
  void* warm[1];
  ::backtrace(warm, 1);  // loads libgcc's unwinder now, not inside a signal handler
  struct sigaction action {};
  action.sa_sigaction = report;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < sizeof(kSignals) / sizeof(kSignals[0]); ++i) ::sigaction(kSignals[i], &action, &previous[i]);
}

}  // namespace kforge::worker
