#include "protocol/messages.hpp"

#include <stdexcept>

namespace kforge::protocol {
namespace {

template <class T>
void put_optional(nlohmann::json& j, const char* key, const std::optional<T>& v) {
  j[key] = v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

template <class T>
std::optional<T> get_optional(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<T>();
}

// An enum sent as its name; a name this build does not know is a malformed job, not a default.
template <class Parse>
auto parsed(const nlohmann::json& j, const char* key, const char* fallback, Parse parse) {
  const std::string name = j.value(key, std::string(fallback));
  auto value = parse(name);
  if (!value) throw std::invalid_argument(std::string("job: unknown ") + key + " \"" + name + "\"");
  return *value;
}

}  // namespace

void to_json(nlohmann::json& j, const WorkerInfo& v) {
  j = {{"python_version", v.python_version}, {"torch_version", v.torch_version},
       {"device_kind", v.device_kind},       {"device_name", v.device_name},
       {"l2_bytes", v.l2_bytes},             {"sm_count", v.sm_count},
       {"compute_capability", v.compute_capability}, {"copy_bytes_per_s", v.copy_bytes_per_s},
       {"max_sm_mhz", v.max_sm_mhz}};
}
void from_json(const nlohmann::json& j, WorkerInfo& v) {
  v.python_version = j.value("python_version", "");
  v.torch_version = j.value("torch_version", "");
  v.device_kind = j.value("device_kind", "");
  v.device_name = j.value("device_name", "");
  v.l2_bytes = j.value("l2_bytes", int64_t{0});
  v.sm_count = j.value("sm_count", 0);
  v.compute_capability = j.value("compute_capability", "");
  v.copy_bytes_per_s = j.value("copy_bytes_per_s", 0.0);
  v.max_sm_mhz = j.value("max_sm_mhz", 0.0);
}

void to_json(nlohmann::json& j, const TimingSettings& v) {
  j = {{"warmup", v.warmup},         {"min_samples", v.min_samples}, {"max_samples", v.max_samples},
       {"min_time_s", v.min_time_s}, {"max_time_s", v.max_time_s},   {"target_rel_ci", v.target_rel_ci}};
  if (v.cuda_graph) j["cuda_graph"] = true;  // absent when off: earlier keys stay valid
}
void from_json(const nlohmann::json& j, TimingSettings& v) {
  TimingSettings d;
  v.warmup = j.value("warmup", d.warmup);
  v.min_samples = j.value("min_samples", d.min_samples);
  v.max_samples = j.value("max_samples", d.max_samples);
  v.min_time_s = j.value("min_time_s", d.min_time_s);
  v.max_time_s = j.value("max_time_s", d.max_time_s);
  v.target_rel_ci = j.value("target_rel_ci", d.target_rel_ci);
  v.cuda_graph = j.value("cuda_graph", false);
}

void to_json(nlohmann::json& j, const EvalJob& v) {
  j = {{"problem_path", v.problem_path}, {"candidate_path", v.candidate_path},
       {"candidate_format", to_string(v.candidate_format)}, {"candidate_library", v.candidate_library},
       {"device", to_string(v.device)},  {"precision", to_string(v.precision)},
       {"trial_seeds", v.trial_seeds},   {"time_candidate", v.time_candidate},
       {"fallback", census::to_string(v.fallback)},
       {"timing", v.timing},
       {"host_memory_bytes", v.host_memory_bytes}, {"cpu_cores", v.cpu_cores},
       {"scratch_bytes", v.scratch_bytes}};
  put_optional(j, "atol", v.atol);
  put_optional(j, "rtol", v.rtol);
  put_optional(j, "next_job_same_problem", v.next_job_same_problem);
  if (v.rank)
    j["rank"] = {{"rank", v.rank->rank},
                 {"world_size", v.rank->world_size},
                 {"rendezvous", v.rank->rendezvous},
                 {"timeout_s", v.rank->timeout_s}};
}
void from_json(const nlohmann::json& j, EvalJob& v) {
  v.problem_path = j.at("problem_path").get<std::string>();
  v.candidate_path = j.at("candidate_path").get<std::string>();
  v.candidate_format = parsed(j, "candidate_format", "kernelbench", candidate_format_from_string);
  v.candidate_library = j.value("candidate_library", "");
  v.device = parsed(j, "device", "cpu", device_kind_from_string);
  v.precision = parsed(j, "precision", "fp32", precision_from_string);
  v.atol = get_optional<double>(j, "atol");
  v.rtol = get_optional<double>(j, "rtol");
  v.trial_seeds = j.value("trial_seeds", std::vector<uint64_t>{});
  v.time_candidate = j.value("time_candidate", true);
  v.fallback = parsed(j, "fallback", "mixed", census::policy_from_string);
  v.timing = j.value("timing", TimingSettings{});
  v.host_memory_bytes = j.value("host_memory_bytes", int64_t{0});
  v.cpu_cores = j.value("cpu_cores", 0.0);
  v.scratch_bytes = j.value("scratch_bytes", int64_t{0});
  v.next_job_same_problem = get_optional<bool>(j, "next_job_same_problem");
  if (j.contains("rank") && j["rank"].is_object()) {
    const auto& r = j["rank"];
    RankPlace place;
    place.rank = r.at("rank").get<int>();
    place.world_size = r.at("world_size").get<int>();
    place.rendezvous = r.at("rendezvous").get<std::string>();
    place.timeout_s = r.value("timeout_s", 60.0);
    if (place.world_size < 2 || place.rank < 0 || place.rank >= place.world_size)
      throw std::runtime_error("a rank's job with rank " + std::to_string(place.rank) + " of " +
                               std::to_string(place.world_size));
    v.rank = place;
  }
}

void to_json(nlohmann::json& j, const JobResult& v) {
  j = {{"verdict", to_string(v.verdict)}, {"message", v.message},
       {"rule", v.rule},                  {"trials_passed", v.trials_passed},
       {"trials_total", v.trials_total},  {"ref_ms", v.ref_ms},
       {"cand_ms", v.cand_ms},            {"ref_host_ms", v.ref_host_ms},
       {"cand_host_ms", v.cand_host_ms},  {"load_s", v.load_s},
       {"correctness_s", v.correctness_s}, {"timing_s", v.timing_s},
       {"worker_must_restart", v.worker_must_restart}, {"not_the_candidates", v.not_the_candidates},
       {"min_bytes", v.min_bytes},
       {"flops", v.flops}};
  if (v.another_ranks_failure) j["another_ranks_failure"] = true;
  if (!v.ref_process.empty()) j["ref_process"] = v.ref_process;
  put_optional(j, "max_abs_error", v.max_abs_error);
  put_optional(j, "max_rel_error", v.max_rel_error);
}
void from_json(const nlohmann::json& j, JobResult& v) {
  auto verdict = verdict_from_string(j.at("verdict").get<std::string>());
  if (!verdict) throw std::runtime_error("unknown verdict in worker result");
  v.verdict = *verdict;
  v.message = j.value("message", "");
  v.rule = j.value("rule", "");
  v.trials_passed = j.value("trials_passed", 0);
  v.trials_total = j.value("trials_total", 0);
  v.max_abs_error = get_optional<double>(j, "max_abs_error");
  v.max_rel_error = get_optional<double>(j, "max_rel_error");
  v.ref_ms = j.value("ref_ms", std::vector<double>{});
  v.cand_ms = j.value("cand_ms", std::vector<double>{});
  v.ref_host_ms = j.value("ref_host_ms", std::vector<double>{});
  v.cand_host_ms = j.value("cand_host_ms", std::vector<double>{});
  v.ref_process = j.value("ref_process", std::vector<int>{});
  v.load_s = j.value("load_s", 0.0);
  v.correctness_s = j.value("correctness_s", 0.0);
  v.timing_s = j.value("timing_s", 0.0);
  v.worker_must_restart = j.value("worker_must_restart", false);
  v.not_the_candidates = j.value("not_the_candidates", false);
  v.another_ranks_failure = j.value("another_ranks_failure", false);
  v.min_bytes = j.value("min_bytes", int64_t{0});
  v.flops = j.value("flops", int64_t{0});
}

}  // namespace kforge::protocol
