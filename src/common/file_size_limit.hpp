#pragma once
// The largest file a process that runs on a candidate's words may write: a candidate's process
// (its stdout and stderr go to one file in its scratch folder, which a print in a loop grew without
// end) and a compiler given its sources and flags (a few lines make an object of gigabytes from an
// initialised array). Soft and hard limit alike (raising the hard one takes a capability neither
// has), and SIGXFSZ ignored, so a write past it fails with EFBIG, "File too large", in the
// process's own traceback or diagnostics, rather than killing it without a word; the ignored
// disposition survives an exec. System calls only: safe in a child between fork and exec.
#include <signal.h>
#include <sys/resource.h>

#include <cstdint>

namespace kforge {

// No limit where `bytes` is 0 or less.
inline void limit_file_size(int64_t bytes) {
  if (bytes <= 0) return;
  const rlimit limit{static_cast<rlim_t>(bytes), static_cast<rlim_t>(bytes)};
  ::setrlimit(RLIMIT_FSIZE, &limit);
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGXFSZ, &ignore, nullptr);
}

}  // namespace kforge
