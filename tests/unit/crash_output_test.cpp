// What a dead candidate process's output says about where it died (worker/crash_output.hpp).
#include "worker/crash_output.hpp"
#include "worker/crash_report.hpp"

#include <gtest/gtest.h>

#include <string>

namespace kforge::worker {
namespace {

// The shape of a host-only extension's crash on the H200 (session 34): the native backtrace, then
// the fault handler's dump with the main thread as "Thread" (the fault was in an OpenMP worker).
const std::string kOpenMpCrash =
    "/lib/x86_64-linux-gnu/libc.so.6(+0x45330)[0x7fe5ce845330]\n"
    "/tmp/kforge-worker-1552-oPMzTB/candidate-3125/relu_cpp.so(+0xc1e7)[0x7fe59dadc1e7]\n"
    "Fatal Python error: Segmentation fault\n"
    "\n"
    "Thread 0x00007fe5ceb07140 (most recent call first):\n"
    "  File \"/tmp/tmprt5rpruk/run/level1/2_ReLU/l1_2_relu_cpp_openmp.py\", line 49 in forward\n"
    "  File \"/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/modules/module.py\", line 1790 in _call_impl\n"
    "  File \"/work/build/release/python/kforge_zygote.py\", line 144 in <module>\n"
    "\n"
    "Extension modules: numpy._core._multiarray_umath, torch._C, torch._C._fft (total: 3)\n";

TEST(CrashOutput, TheCandidatesInnermostFrameAndNoModuleList) {
  const CrashOutput said = read_crash_output(kOpenMpCrash, 1500);
  EXPECT_EQ(said.where, "l1_2_relu_cpp_openmp.py, line 49, in forward");
  EXPECT_EQ(said.tail.find("Extension modules"), std::string::npos) << said.tail;
  EXPECT_TRUE(said.tail.ends_with("kforge_zygote.py\", line 144 in <module>")) << said.tail;
  EXPECT_NE(said.tail.find("Fatal Python error: Segmentation fault"), std::string::npos) << said.tail;
}

// Python's own library (ctypes, where tests/candidates/segfault.py faults) is passed over for the
// candidate's frame that called it.
TEST(CrashOutput, LibraryFramesArePassedOver) {
  const std::string out =
      "Fatal Python error: Segmentation fault\n\n"
      "Current thread 0x00007f00 (most recent call first):\n"
      "  File \"/usr/lib/python3.12/ctypes/__init__.py\", line 521 in string_at\n"
      "  File \"/tmp/c/segfault.py\", line 21 in forward\n"
      "  File \"/tmp/c/segfault.py\", line 30 in helper\n";
  EXPECT_EQ(read_crash_output(out, 1500).where, "segfault.py, line 21, in forward");
}

// Nothing of the candidate's in the first thread's frames: the next thread's block is read.
TEST(CrashOutput, ALaterThreadsFramesAreReadWhereTheFirstHasNone) {
  const std::string out =
      "Current thread 0x01 (most recent call first):\n"
      "  File \"/usr/lib/python3.12/threading.py\", line 10 in run\n"
      "\n"
      "Thread 0x02 (most recent call first):\n"
      "  File \"/tmp/c/cand.py\", line 7 in forward\n";
  EXPECT_EQ(read_crash_output(out, 1500).where, "cand.py, line 7, in forward");
}

// A crash in kforge's own code in the candidate's process (session 44: its integrity watch, on a
// level-7 rank): the backtrace's innermost frames, which a short tail loses to the interpreter's
// frames and the dump after them, are kept apart; a tail that still holds them needs no copy.
TEST(CrashOutput, TheNativeStacksInnermostFramesOutliveAShortTail) {
  std::string out = "kforge candidate 10839: sandbox: tracing calls denied\n" + std::string(kNativeStackHeader) + "\n";
  for (int i = 0; i < 12; ++i)
    out += "/b/python/_kforge_worker.so(+0x" + std::to_string(100 + i) + ")[0x7f42c0ab9" + std::to_string(100 + i) + "]\n";
  out += "/lib/x86_64-linux-gnu/libc.so.6(__libc_start_main+0x85)[0x7fc67bc45305]\n"
         "Fatal Python error: Segmentation fault\n\n"
         "Thread 0x00007f42bf92f6c0 (most recent call first):\n";
  const CrashOutput cut = read_crash_output(out, 300);
  EXPECT_EQ(cut.tail.find(kNativeStackHeader), std::string::npos);
  EXPECT_TRUE(cut.native_head.starts_with("/b/python/_kforge_worker.so(+0x100)[0x7f42c0ab9100]\n")) << cut.native_head;
  EXPECT_TRUE(cut.native_head.ends_with("(+0x105)[0x7f42c0ab9105]")) << cut.native_head;  // six frames, no more
  EXPECT_EQ(cut.native_head.find("+0x106"), std::string::npos) << cut.native_head;

  const CrashOutput whole = read_crash_output(out, 4000);
  EXPECT_NE(whole.tail.find(kNativeStackHeader), std::string::npos);
  EXPECT_EQ(whole.native_head, "");
}

// No fault handler dump (os._exit, a kill): no place, the output as it was, its last bytes only.
TEST(CrashOutput, WithoutADumpTheTailIsTheOutputsEnd) {
  const CrashOutput said = read_crash_output("line one\n  File \"/tmp/c/x.py\", line 3 in f\nabcdefghij\n\n", 5);
  EXPECT_EQ(said.where, "");
  EXPECT_EQ(said.tail, "fghij");
  EXPECT_EQ(read_crash_output("", 100).tail, "");
}

}  // namespace
}  // namespace kforge::worker
