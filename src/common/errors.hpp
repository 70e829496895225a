#pragma once
// The orchestrator's error boundary: exceptions inside kforge, mapped to exit codes by the CLI.
// (Across the worker boundary only plain result records travel: protocol/messages.hpp.)
#include <stdexcept>
#include <string>

namespace kforge {

// Bad command line: exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Anything else that stops a command (unreadable database, no worker could start): exit status 1.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace kforge
