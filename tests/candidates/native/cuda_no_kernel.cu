// expect: compile_error
// A .cu without any __global__ kernel.
#include <kforge/candidate.h>

KFORGE_CANDIDATE(1) { return 0; }
