#pragma once
// The lower half of the `kforge report --html` page: one section per problem (its best
// candidate's timings, samples and source, its other candidates, and for an agent run the
// trajectory of its attempts), each with an anchor the results table links to.
#include <optional>
#include <string>
#include <vector>

#include "report/html_report.hpp"

namespace kforge::report {

struct ProblemEntry {
  std::string name;    // as the run named it
  std::string anchor;  // the section's id: "problem-N", never built from the name
  std::vector<const EvaluationRecord*> records;  // in the run's order
  std::vector<const AgentAttempt*> attempts;     // in the order made
};

// Every problem with a record or an attempt, by level, id and name.
std::vector<ProblemEntry> problem_entries(const HtmlReportInput& input);

std::string problem_sections(const HtmlReportInput& input, const std::vector<ProblemEntry>& problems);

// The share of the speed of light a correct, timed candidate reached (SOL time over its time; 1
// is the bound), where the problem's SOL time is known.
std::optional<double> speed_of_light_share(const HtmlReportInput& input, const EvaluationRecord& r);

// A candidate's name without its problem's folder when it sits in one ("cand.py" for
// "level1/19_ReLU/cand.py" of level1/19_ReLU): the problem has a column and a heading of its own.
std::string candidate_label(const EvaluationRecord& r);

// The candidate a problem's section shows: the fastest correct one, else a correct one, else the
// first that was evaluated, else the first.
const EvaluationRecord* best_candidate(const std::vector<const EvaluationRecord*>& records);

}  // namespace kforge::report
