#pragma once
// Build keys that follow what a compile reads, not where it reads it from. A load_inline build's
// flags may name the candidate's own headers: `extra_include_paths`, or `-I`, `-iquote`,
// `-idirafter`, `-include`, `-imacros` among its extra flags. Keyed by path, a header edited in
// place served the library built from the old one (the agent's next attempt judged on its last),
// and a folder made fresh by each import (`tempfile.mkdtemp()`, a habit of model-written
// candidates) never met the cache: every evaluation rebuilt, with a 750 MB precompiled header of
// its own. Keyed by content, both are what they should be.
#include <string>
#include <vector>

namespace kforge::build {

// `flags` with the path of each such option replaced by a digest of what is there (a folder's
// files, recursively: their relative names and contents; a file's content). System folders keep
// their paths: the CUDA toolkit's include folder, anything under /usr/ or under a folder the same
// flags give with -isystem (torch's, Python's), whose contents do not change under a build. A
// folder too large to read for every build (over 4096 files or 256 MB) keeps its path too, and
// `note` says so.
std::vector<std::string> flags_keyed_by_content(const std::vector<std::string>& flags, std::string* note);

}  // namespace kforge::build
