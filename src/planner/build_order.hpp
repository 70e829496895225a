#pragma once
// The order in which load_inline candidates are built ahead of their jobs. Every build's host unit
// includes torch/extension.h through a precompiled header made once per flag set (about 40 s on
// the H200), and a build that starts while its set's header is being made compiles without it
// (about as long). A set whose first candidate comes late in the folder made its header late, and
// its builds were the run's last (issue 19: the GPU idle at the end of tests/realworld).
#include <string>
#include <vector>

namespace kforge {

// The host flag set a candidate's load_inline call will most likely use, read from its text (the
// first `extra_cflags=[...]` literal, canonicalised as the precompiled header's key is), or the
// expression itself where it is not a literal. A guess for ordering only: the build computes the
// real flags when the module runs.
std::string guessed_header_flags(const std::string& source);

// How many load_inline calls a candidate's text makes. They build one after another in one
// process (each call returns the module the next line may use), so a candidate of two is a job
// twice as long.
size_t load_inline_calls(const std::string& source);

// A permutation of `sources`' indices: the first candidate of each guessed flag set, then the
// others, so that every set's header is started at once; within each group, candidates of more
// load_inline calls first (the longest jobs first: a two-extension candidate started last was
// tests/realworld's last result), otherwise in the given order.
std::vector<size_t> header_makers_first(const std::vector<std::string>& sources);

}  // namespace kforge
