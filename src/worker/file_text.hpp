#pragma once
// A problem file's text for the worker's keys. Read by common/files' read_file (read(2)), not
// iostreams: in the worker module on the H200 machine they crash (a facet of the locale from
// another copy of libstdc++): the comparison's formatting did on 2026-11-30 (worker/tensors.cpp),
// and the reference twin's key, which streamed the problem file and a bool, failed every job there
// for several sessions until session 33 found it.
#include <string>

#include "common/files.hpp"

namespace kforge::worker {

// Empty where the file cannot be read (as the stream it replaced gave).
inline std::string file_text(const std::string& path) { return read_file_if_readable(path).value_or(""); }

}  // namespace kforge::worker
