// expect: compile_error
// Written for an interface version this kforge does not know.
#include <kforge/candidate.h>

KFORGE_CANDIDATE(7) { return 0; }
