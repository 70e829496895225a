#pragma once
// Candidates: Python modules defining ModelNew (KernelBench format), and how a folder of them is
// matched to problems.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kforge {

struct Candidate {
  std::filesystem::path path;
  std::string display_name;  // path relative to the folder it was found in, or the file name
  std::string source;
  std::string hash;  // sha256 of source
};

Candidate load_candidate_file(const std::filesystem::path& path, const std::string& display_name = "");

// Where a file found under `kforge eval DIR` belongs: level and problem id.
struct ProblemKey {
  int level = 0;
  int id = 0;
  auto operator<=>(const ProblemKey&) const = default;
};

// Matches a candidate to its problem by its path relative to DIR (.py KernelBench modules, .cu and
// .cpp native candidates):
//   level<L>/<id>_<Name>/<anything>.{py,cu,cpp}        (kforge's own layout, solutions/)
//   [...]/level_<L>_problem_<P>_sample_<S>_kernel.py   (KernelBench's generation names)
std::optional<ProblemKey> match_candidate_path(const std::filesystem::path& relative);

// Whether a candidate can only run on a GPU: it builds CUDA (load_inline with cuda_sources,
// a .cu build), uses Triton, or names a CUDA device. A static reading; used only to leave such
// candidates out of a CPU run with a note, never to judge them.
bool candidate_needs_cuda(const std::string& source);
// A candidate whose C++ extension is host code only: it builds one (load_inline, cpp_extension.load)
// and nothing in it runs on or asks for the GPU. Handed CUDA tensors, its loops read device memory
// as the host's and its process dies with no word of why (tests/realworld's CPU files on the H200).
bool host_code_extension(const std::string& source);
// A crash message of such a candidate on a GPU with why it died said first: before the process's
// last output (a stack dump of a kilobyte or more), where a table's column and a reader still reach.
std::string with_host_code_hint(std::string crash_message);
bool candidate_needs_cuda(const std::filesystem::path& path, const std::string& source);

struct FoundCandidate {
  ProblemKey key;
  std::filesystem::path path;
  std::string relative;  // path relative to DIR, shown as the candidate's name
};

struct Discovery {
  std::vector<FoundCandidate> candidates;  // sorted by problem, then path
  std::vector<std::string> unmatched;      // .py files under DIR that match no layout
};

// The layouts a candidate's path must follow, for the note on a file that follows none.
inline constexpr const char* kCandidateLayouts =
    "level<L>/<id>_<Name>/<file>.py or level_<L>_problem_<P>_sample_<S>_kernel.py";

Discovery discover_candidates(const std::filesystem::path& dir);

// Upstream KernelBench's generation file name (level_<L>_problem_<P>_sample_<S>_kernel.py), whose
// ids are upstream's: kforge's built-in level1/19 is not upstream's level1/19.
bool upstream_generation_name(const std::filesystem::path& file);

// `kforge generate` leaves this file in the folder it writes, naming the suite its ids belong to
// ("built-in", or the --suite folder), so `kforge eval DIR` can tell its own upstream-named files
// from upstream's.
inline constexpr const char* kSuiteMarkerFile = "kforge-suite.txt";
inline constexpr const char* kBuiltinSuiteMarker = "built-in";

}  // namespace kforge
