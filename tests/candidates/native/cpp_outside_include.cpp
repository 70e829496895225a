// expect: compile_error
// Includes a file outside its own source.
#include <kforge/candidate.h>
#include "../../secrets/expected_output.h"

KFORGE_CANDIDATE(1) { return 0; }
