#pragma once
// /proc files read with open(2)/read(2) only: this is linked into the worker module too, and on the
// H200 machine the worker crashed inside std::istream's int parsing there, with the facets of a
// libstdc++ other than the one the module was built against. A thread's stat or children list, a
// process's command line, the machine's load average.
#include <sys/types.h>

#include <cstddef>
#include <string>
#include <vector>

namespace kforge {

// The whole file's text; empty where it cannot be read.
std::string read_proc_file(const std::string& path);

// The file's text into `buf` (at most size - 1 bytes, one read, NUL-terminated); false where it
// cannot be opened or is empty.
bool read_proc_text(const std::string& path, char* buf, size_t size);

// The pids a /proc/<pid>/task/<tid>/children file's text ("pid pid ... ") lists, onto `out`.
void append_listed_pids(const char* list, std::vector<pid_t>& out);

}  // namespace kforge
