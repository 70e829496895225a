#pragma once
// What a candidate process that died printed last, read for its verdict's message: where Python's
// fault handler places the crash, and the output without the list of extension modules it ends
// with (700 characters that say nothing about this candidate). The output is the candidate's own
// text, so what is read from it is only ever shown as what its output says.
#include <string>

namespace kforge::worker {

struct CrashOutput {
  // "segfault.py, line 21, in forward": the innermost frame of the fault handler's dump (the
  // crashing thread's, or the first thread listed) in a file of the candidate's, not Python's
  // library, an installed package (torch) or kforge's own modules; empty where there is none.
  std::string where;
  std::string tail;  // the last `max_bytes` of the output, the extension-module list left out
  // The innermost frames of kforge's own native stack (worker/crash_report.cpp), where the tail
  // lost them: the backtrace runs innermost first and the fault handler's dump follows, so a
  // short tail keeps the frames of the interpreter's main loop and drops where the fault was
  // (a crash in the judge's own watch, session 44, showed only those). Empty otherwise.
  std::string native_head;
};

CrashOutput read_crash_output(const std::string& output, size_t max_bytes);

}  // namespace kforge::worker
