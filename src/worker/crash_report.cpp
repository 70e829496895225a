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
void report(int sig, siginfo_t* info, void* context) {
  // Another thread is reporting, and the process dies by its signal once it has: wait for that.
  if (reporting.exchange(true))
    for (;;) ::pause();
  write_text(kNativeStackHeader);
  write_text("\n");
  void* frames[64];
  int n = ::backtrace(frames, 64);
  ::backtrace_symbols_fd(frames, n, STDERR_FILENO);
  for (size_t i = 0; i < sizeof(kSignals) / sizeof(kSignals[0]); ++i) {
    if (kSignals[i] != sig) continue;
    // The previous handler (Python's faulthandler) is called from here, not put back for every
    // thread: put back, it also took the threads that faulted while it ran, and wrote its dump
    // again for each (two "Fatal Python error" reports in a CPU test run under load).
    const struct sigaction& before = previous[i];
    if ((before.sa_flags & SA_SIGINFO) && before.sa_sigaction)
      before.sa_sigaction(sig, info, context);
    else if (before.sa_handler != SIG_DFL && before.sa_handler != SIG_IGN && before.sa_handler)
      before.sa_handler(sig);
  }
  // Then the default action, whatever that handler did (a faulthandler that a candidate disabled
  // returns at once): the signal is delivered when this returns, and the process dies by it.
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  ::sigaction(sig, &default_action, nullptr);
  ::raise(sig);
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
