#pragma once
// The trust corpora: tests/adversarial/ (hacks, each with the verdict and rule that must catch
// it), tests/legit/ (honest candidates that must pass) and tests/realworld/ (candidates written
// as models write them, with the verdicts they deserve), described by each folder's
// expected.json. Runs a folder through the real binary and returns every disagreement.
#include <optional>
#include <string>
#include <vector>

namespace kforge::testing {

struct TrustCase {
  std::string file;
  std::string problem;                // relative to the source tree
  std::vector<std::string> verdicts;  // any of these
  std::vector<std::string> verdicts_on_gpu;  // on a GPU, when it differs there (host code handed CUDA tensors)
  std::vector<std::string> rules;     // when the verdict is rejected: the rule, or the rules any of which may fire (empty: any)
  bool gpu_only = false;
  std::optional<double> max_speedup;  // a hack that must not show a speedup above this
  std::vector<std::string> args;      // extra `kforge eval` options the case runs with
  bool faster = false;                // an honest candidate whose speedup interval must lie above 1
  std::string message;                // a text the verdict's message must contain (empty: any)
  std::string message_on_gpu;         // the same, on a GPU only
  bool ci = false;                    // in the sample every CI run takes (tests/realworld/)
};

std::vector<TrustCase> load_trust_corpus(const std::string& folder);

// Evaluates every case of `folder` that runs on `device` ("cpu" or "cuda:0"), with `db` as the
// store: the cases on built-in problems without extra options in one kforge call over a folder
// in the suite's layout, the others one call per problem and set of options. Returns one line per case that got another verdict, rule
// or speedup than expected (a speedup over its case's bound counts only when a second, fresh
// evaluation of that case is over it too), and the number of cases run in `ran`. `honest` (the legit corpus): on
// a GPU a correct case must also have been timed with the stream held, unless it says otherwise.
// `ci_only`: only the cases marked `ci`. `timeout_s`: each job's deadline (--timeout; a
// candidate's load_inline build on the CPU happens inside its job).
std::vector<std::string> run_trust_corpus(const std::string& folder, const std::string& device, const std::string& db,
                                          size_t& ran, bool honest = false, bool ci_only = false, int timeout_s = 90);

// The failures, one per line, for a test's message.
std::string joined(const std::vector<std::string>& lines);

// A gtest body: runs `folder` on `device` in a fresh store (KFORGE_TRUST_DB=FILE: that one, kept); at least `min_cases` must run, and
// every one must get what expected.json says.
void expect_trust_corpus(const std::string& folder, const std::string& device, size_t min_cases,
                         bool honest = false, bool ci_only = false, int timeout_s = 90);

}  // namespace kforge::testing
