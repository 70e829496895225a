#include "worker/crash_report.hpp"

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>

namespace kforge::worker {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction previous[sizeof(kSignals) / sizeof(kSignals[0])];

void write_text(const char* text) {
  ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

// Only async-signal-safe calls: write(2) and backtrace_symbols_fd (backtrace() itself is safe
// once libgcc is loaded, which the first call below, made at install time, ensures).
void report(int sig, siginfo_t*, void*) {
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
