#include "core/job_kinds.hpp"

namespace kforge {

const char* to_string(CandidateFormat f) {
  switch (f) {
    case CandidateFormat::kernelbench: return "kernelbench";
    case CandidateFormat::cpp: return "cpp";
    case CandidateFormat::cuda: return "cuda";
  }
  return "kernelbench";
}

const char* to_string(DeviceKind d) { return d == DeviceKind::cuda ? "cuda" : "cpu"; }

const char* to_string(Precision p) {
  switch (p) {
    case Precision::fp32: return "fp32";
    case Precision::fp16: return "fp16";
    case Precision::bf16: return "bf16";
  }
  return "fp32";
}

std::optional<CandidateFormat> candidate_format_from_string(std::string_view s) {
  for (auto f : {CandidateFormat::kernelbench, CandidateFormat::cpp, CandidateFormat::cuda})
    if (s == to_string(f)) return f;
  return std::nullopt;
}

std::optional<DeviceKind> device_kind_from_string(std::string_view s) {
  for (auto d : {DeviceKind::cpu, DeviceKind::cuda})
    if (s == to_string(d)) return d;
  return std::nullopt;
}

std::optional<Precision> precision_from_string(std::string_view s) {
  for (auto p : {Precision::fp32, Precision::fp16, Precision::bf16})
    if (s == to_string(p)) return p;
  return std::nullopt;
}

}  // namespace kforge
