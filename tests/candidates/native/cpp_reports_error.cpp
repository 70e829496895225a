// expect: runtime_error
// Refuses the call with a message of its own.
#include <kforge/candidate.h>
#include <cstdio>

KFORGE_CANDIDATE(1) {
  std::snprintf(error, error_size, "unsupported shape");
  return 3;
}
