#pragma once
// Removes a folder and everything in it, however deep: a candidate's scratch folder, which the
// candidate shaped. nftw (what the reference process used before session 42) works on whole paths
// and gave up silently past PATH_MAX: a candidate nesting 3,000 folders left its tree behind in
// the worker's scratch for as long as the worker lived, and nftw still returned 0. This walks by
// file descriptor, one open folder at a time (going back up through ".."), so neither the path's
// length nor the number of open files bounds the depth. Links are removed, never followed.
// POSIX calls only: it runs in the worker module, where std::filesystem binds to libtorch's copy.
// Meant for a tree nobody changes meanwhile (the candidate's process group is dead by then).
#include <string>

namespace kforge {

// Whether `root` is gone afterwards (true where it did not exist).
bool remove_tree(const std::string& root);

}  // namespace kforge
