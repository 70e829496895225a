#pragma once
// The builds a candidate's process asks for (docs/notes/build-cache-trust.md). A candidate's
// `load_inline` (python/kforge_inline.py) may not write kforge's build cache, where a library it
// left would be loaded later for another candidate's source: it sends its build's spec to the
// reference process instead, inside one of its untimed requests, and the reference process, which
// runs no candidate code, runs `kforge build-inline` on it. That build's compilers run in the
// compile sandbox (build/compilers.hpp): writes only in their build's folder, reads only what the
// candidate's process may read, its scratch folder included (a `load` of sources it wrote there).
#include <string>

#include <nlohmann/json.hpp>

namespace kforge::worker {

// `kforge build-inline`'s answer to `spec` for the candidate process whose scratch folder is
// `candidate_scratch`: {"ok", "cached", "library", "diagnostics", "seconds", "strategy",
// "why_whole", "key"}, "library" a copy in that scratch folder (the candidate's process reads
// nothing of the cache, where other candidates' libraries are). A build that could not run is
// answered as a failed one, its reason in "diagnostics". Needs the interpreter (the candidate's
// readable folders come from sys.path).
nlohmann::json build_for_candidate(const nlohmann::json& spec, const std::string& candidate_scratch);

}  // namespace kforge::worker
