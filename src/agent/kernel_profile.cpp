#include "agent/kernel_profile.hpp"

#include <regex>
#include <string_view>

#include "profile/ncu_runner.hpp"
#include "serve/remote_worker.hpp"

namespace kforge::agent {

std::string slowest_own_kernel_function(const std::string& digest) {
  static const std::regex stated(R"(slowest own kernel ([^:\n]*(?:::[^:\n]*)*?): [\d.]+ ms)");
  std::smatch m;
  if (!std::regex_search(digest, m, stated)) return "";
  std::string name = m[1].str();
  for (std::string_view anonymous : {"(anonymous namespace)::", "{anonymous}::"})
    for (auto at = name.find(anonymous); at != std::string::npos; at = name.find(anonymous))
      name.erase(at, anonymous.size());
  if (auto cut = name.find_first_of("(<"); cut != std::string::npos) name.resize(cut);
  if (auto scope = name.rfind("::"); scope != std::string::npos) name = name.substr(scope + 2);
  if (auto space = name.rfind(' '); space != std::string::npos) name = name.substr(space + 1);  // "void kernel"
  // An identifier only: it goes to ncu as a regular expression.
  static const std::regex identifier(R"([A-Za-z_][A-Za-z0-9_]*)");
  return std::regex_match(name, identifier) && name != "operator" ? name : "";
}

KernelProfile profile_slowest_kernel(const std::filesystem::path& server, const std::filesystem::path& ncu,
                                     const std::filesystem::path& problem, const std::filesystem::path& candidate,
                                     const std::string& digest, bool confined, std::chrono::seconds timeout) {
  KernelProfile out;
  serve::RemoteWorker lease(server);
  std::string visible;
  try {
    lease.ensure_started();  // waits while every worker evaluates
    const std::string label = lease.device_label();
    if (label.rfind("cuda:", 0) == 0) visible = label.substr(5);
  } catch (const std::exception& e) {
    out.error = std::string("no worker could be leased: ") + e.what();
    return out;
  }
  profile::ProfileRequest request;
  request.problem = problem;
  request.candidate = candidate;
  request.kernel_regex = slowest_own_kernel_function(digest);
  request.visible_devices = visible;
  request.confined = confined;
  request.timeout = timeout;
  profile::ProfileResult result = profile::run_ncu_profile(ncu, request);
  out.seconds = result.seconds;
  if (!result.ok && !request.kernel_regex.empty()) {
    request.kernel_regex.clear();  // the digest's name and ncu's differ: every kernel, the slowest of them
    result = profile::run_ncu_profile(ncu, request);
    out.seconds += result.seconds;
  }
  if (!result.ok) {
    out.error = result.error;
    return out;
  }
  const profile::NcuKernel* k = profile::slowest_kernel(result.kernels);
  out.ok = true;
  out.lines = profile::ncu_digest(*k);
  return out;
}

}  // namespace kforge::agent
