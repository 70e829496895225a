#include "metrics/kernel_census.hpp"

#include <cstdio>

namespace kforge::census {
namespace {

std::string_view file_name(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool starts_with_any(std::string_view s, std::initializer_list<std::string_view> prefixes) {
  for (auto p : prefixes)
    if (s.starts_with(p)) return true;
  return false;
}

}  // namespace

const char* to_string(Origin o) {
  switch (o) {
    case Origin::own: return "own";
    case Origin::library: return "library";
    case Origin::compiled: return "compiled";
  }
  return "own";
}

Origin classify(std::string_view object_path, std::string_view kernel_name) {
  // Inductor names its generated kernels triton_<kind>_fused_... (pointwise, reduction,
  // persistent reduction, template, foreach); they are the compiler's work, not the candidate's.
  if (starts_with_any(kernel_name, {"triton_poi_", "triton_red_", "triton_per_", "triton_tem_", "triton_for_"}))
    return Origin::compiled;
  std::string_view file = file_name(object_path);
  // PyTorch's own libraries and NVIDIA's math libraries, as the wheels and the toolkit name them.
  if (starts_with_any(file, {"libtorch", "libc10", "libcaffe2", "libcublas", "libcudnn", "libcufft", "libcurand",
                             "libcusparse", "libcusolver", "libcutensor", "libnccl", "libnvjpeg", "libnpp",
                             "libflash", "libcufile"}))
    return Origin::library;
  return Origin::own;
}

std::optional<double> Summary::own_share() const {
  const double ms = own_ms + library_ms + compiled_ms;
  if (ms > 0) return own_ms / ms;
  if (total() > 0) return static_cast<double>(own) / total();
  return std::nullopt;
}

Summary summarize(const std::vector<Launch>& launches) {
  Summary s;
  for (const auto& l : launches) {
    switch (l.origin) {
      case Origin::own: ++s.own; s.own_ms += l.gpu_ms; break;
      case Origin::library: ++s.library; s.library_ms += l.gpu_ms; break;
      case Origin::compiled: ++s.compiled; s.compiled_ms += l.gpu_ms; break;
    }
    ++s.objects[l.origin == Origin::compiled ? "torch.compile" : (l.object.empty() ? "unknown" : l.object)];
  }
  return s;
}

std::optional<Slowest> slowest_own(const std::vector<Launch>& launches) {
  struct Kernel {
    Slowest total;
    const Launch* longest = nullptr;  // its longest launch, whose shape is described
  };
  std::map<std::string, Kernel> by_name;
  for (const Launch& l : launches) {
    if (l.origin != Origin::own) continue;
    Kernel& k = by_name[l.kernel];
    k.total.gpu_ms += l.gpu_ms;
    ++k.total.launches;
    if (!k.longest || l.gpu_ms > k.longest->gpu_ms) k.longest = &l;
  }
  std::optional<Slowest> out;
  for (auto& [name, k] : by_name)
    if (!out || k.total.gpu_ms > out->gpu_ms) {
      out = k.total;
      out->kernel = name;
      out->shape = k.longest->shape;
    }
  return out;
}

std::string describe(const Summary& s) {
  if (s.total() == 0) return "kernels: none launched";
  std::string out = "kernels: " + std::to_string(s.own) + " own";
  if (s.library) out += ", " + std::to_string(s.library) + " library";
  if (s.compiled) out += ", " + std::to_string(s.compiled) + " torch.compile";
  if (!s.objects.empty()) {
    out += " (";
    bool first = true;
    for (const auto& [object, n] : s.objects) {
      out += (first ? "" : ", ") + object + ": " + std::to_string(n);
      first = false;
    }
    out += ")";
  }
  if (auto share = s.own_share()) {
    char pct[64];
    std::snprintf(pct, sizeof pct, "; own %.0f%% of %s", 100.0 * *share,
                  s.own_ms + s.library_ms + s.compiled_ms > 0 ? "GPU time" : "launches");
    out += pct;
  }
  return out;
}

std::optional<FallbackPolicy> policy_from_string(std::string_view s) {
  if (s == "mixed") return FallbackPolicy::mixed;
  if (s == "strict") return FallbackPolicy::strict;
  return std::nullopt;
}

const char* to_string(FallbackPolicy p) { return p == FallbackPolicy::strict ? "strict" : "mixed"; }

std::optional<std::string> fallback_violation(FallbackPolicy policy, const Summary& s) {
  if (policy != FallbackPolicy::strict || s.own > 0) return std::nullopt;
  if (s.total() == 0) return "the candidate's forward launched no kernel at all; --fallback strict requires one of its own";
  return "the candidate's forward launched no kernel of its own, only library ones (" + describe(s) +
         "); --fallback strict requires at least one of its own";
}

}  // namespace kforge::census
