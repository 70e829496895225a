#pragma once
// A file kforge reads from a folder a less trusted process may write: a candidate's scratch folder
// (its output log), a profile's (Nsight Compute's report, beside the profiled candidate). kforge
// reads what the user can, more than the candidate may; a link put in the file's place would make
// kforge read, and quote in a message, a file the candidate could not (before session 46 a crash's
// stored message held $HOME/secret.txt through a linked output log). So: no link is followed, and
// only a regular file with no other name (a hard link) is read. open(2) and read(2) only: the
// worker module links this too (common/proc_text.hpp says why).
#include <cstdint>
#include <optional>
#include <string>

#include "common/owned_fd.hpp"

namespace kforge {

struct UntrustedFile {
  OwnedFd fd;         // open for reading
  int64_t bytes = 0;  // its size when opened
};

// The file opened for reading; nothing where it is missing, a link, not a regular file, or has
// more than one name.
std::optional<UntrustedFile> open_untrusted_file(const std::string& path);

// Its first `most_bytes` bytes; empty where open_untrusted_file refuses it.
std::string read_untrusted_file(const std::string& path, int64_t most_bytes);

}  // namespace kforge
