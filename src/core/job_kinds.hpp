#pragma once
// What kind of job a worker runs, as the types both sides of the job pipe use: the candidate's
// format, the device, the precision. (The PyTorch-fallback policy is census::FallbackPolicy,
// metrics/kernel_census.hpp.) Strings only at the edges: the command line, the store's keys and
// the JSON frames, each converted here and nowhere else.
#include <optional>
#include <string_view>

namespace kforge {

// kernelbench: a .py file with ModelNew; cpp and cuda: native libraries (include/kforge/candidate.h).
enum class CandidateFormat { kernelbench, cpp, cuda };
// The device a worker evaluates on (a CUDA worker sees its one GPU as cuda:0).
enum class DeviceKind { cpu, cuda };
// The dtype a problem's fp32 tensors are cast to.
enum class Precision { fp32, fp16, bf16 };

const char* to_string(CandidateFormat f);
const char* to_string(DeviceKind d);
const char* to_string(Precision p);
std::optional<CandidateFormat> candidate_format_from_string(std::string_view s);
std::optional<DeviceKind> device_kind_from_string(std::string_view s);
std::optional<Precision> precision_from_string(std::string_view s);

}  // namespace kforge
