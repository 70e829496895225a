// hack: timer patching, below Python: the process's own clock rewritten
// relu(a + b), computed honestly and then made slower on purpose (2 ms of spinning per call, past
// any noise a loaded test machine adds to the comparison below; helper 2's file hid 0.15 ms),
// with its time hidden: kforge's timer in the candidate's process reads
// std::chrono::steady_clock::now() from libstdc++, whose code this library overwrites (mprotect, a
// jump to a clock of its own that runs behind by the time its calls took). No Python attribute
// changes, no thread, no child: before session 35 the reported times were believed within the
// calibration's slack of 0.25 ms a call, the whole of this problem's call on the CPU (7.5x correct
// for a true 0.7x). Its requests now take longer than the reference twin's beyond its reports, and
// the excess is charged to every call: correct, no speedup.
#include <kforge/candidate.h>

#include <dlfcn.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

volatile int64_t behind_ns = 0;  // how far the forged clock runs behind the real one
bool patched = false;

int64_t monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

}  // namespace

// steady_clock::now()'s ABI: a time_point of int64 nanoseconds, returned in rax.
extern "C" int64_t forged_steady_now() { return monotonic_ns() - behind_ns; }

static bool patch_clock() {
#if !defined(__x86_64__)
  return true;  // the jump below is x86-64 code: elsewhere the case only spins, honestly timed
#endif
  void* libstdcxx = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_NOLOAD);
  void* now = libstdcxx ? dlsym(libstdcxx, "_ZNSt6chrono3_V212steady_clock3nowEv") : nullptr;
  if (!now) return false;
  const long page = sysconf(_SC_PAGESIZE);
  const uintptr_t first = reinterpret_cast<uintptr_t>(now) & ~uintptr_t(page - 1);
  if (mprotect(reinterpret_cast<void*>(first), size_t(page) * 2, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return false;
  unsigned char jump[12] = {0x48, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xE0};  // movabs rax, target; jmp rax
  const uintptr_t target = reinterpret_cast<uintptr_t>(&forged_steady_now);
  std::memcpy(jump + 2, &target, sizeof target);
  std::memcpy(now, jump, sizeof jump);
  mprotect(reinterpret_cast<void*>(first), size_t(page) * 2, PROT_READ | PROT_EXEC);
  return true;
}

KFORGE_CANDIDATE(1) {
  const int64_t start = monotonic_ns();
  if (!patched && !(patched = patch_clock())) {
    std::snprintf(error, error_size, "could not patch the clock (nothing to test here)");
    return 1;
  }
  const float* a = static_cast<const float*>(ctx->inputs[0].data);
  const float* b = static_cast<const float*>(ctx->inputs[1].data);
  float* out = static_cast<float*>(ctx->outputs[0].data);
  for (int64_t i = 0; i < ctx->outputs[0].numel; ++i) {
    const float s = a[i] + b[i];
    out[i] = s < 0.0f ? 0.0f : s;
  }
  while (monotonic_ns() - start < 2000000) {
  }
  behind_ns = behind_ns + (monotonic_ns() - start);
  return 0;
}
