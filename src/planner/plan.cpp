#include "planner/plan.hpp"

#include "common/errors.hpp"
#include "common/sha256.hpp"
#include "pool/worker_paths.hpp"

namespace kforge {

nlohmann::json settings_json(const EvalSettings& s) {
  static const std::string harness = worker_module_hash();
  nlohmann::json j = {{"precision", s.precision},
                      {"correctness_trials", s.correctness_trials},
                      {"atol", s.atol ? nlohmann::json(*s.atol) : nlohmann::json(nullptr)},
                      {"rtol", s.rtol ? nlohmann::json(*s.rtol) : nlohmann::json(nullptr)},
                      {"timing", s.timing},
                      {"fallback", s.fallback},
                      {"protocol", protocol::kVersion},
                      {"harness", harness}};
  return j;
}

PlannedEval plan_candidate(const Problem& problem, const std::filesystem::path& file, const std::string& name) {
  PlannedEval e;
  e.problem = problem;
  e.problem_name = problem.display_name();
  e.candidate_name = name;
  try {
    e.candidate = load_candidate_file(file, name);
    e.static_finding = check_candidate_source(e.candidate.source, file.extension() == ".py");
  } catch (const Error& err) {
    e.load_failure = err.what();
  }
  return e;
}

std::string evaluation_key(const PlannedEval& e, const nlohmann::json& settings, const protocol::WorkerInfo& worker) {
  nlohmann::json identity = {{"problem", e.problem.hash},
                             {"candidate", e.candidate.hash},
                             {"format", build::to_string(e.format)},
                             {"build", e.build_key},
                             {"settings", settings},
                             {"device_kind", worker.device_kind},
                             {"device_name", worker.device_name},
                             {"torch", worker.torch_version}};
  return sha256_hex(identity.dump());
}

}  // namespace kforge
