#pragma once
// Native stack on a fatal signal, so a worker crash leaves evidence in its log.

namespace kforge::worker {

// Installs handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT that write the native call
// stack to stderr (the worker's log), then hand the signal to whatever handler was there before
// (Python's faulthandler, which adds the Python stack and lets the process die by the signal).
void install_native_crash_report();

// The line the handlers write before the stack (worker/crash_output.cpp finds the stack by it).
inline constexpr const char* kNativeStackHeader = "kforge worker: fatal signal, native stack (most recent call first):";

}  // namespace kforge::worker
