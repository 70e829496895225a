#include "build/build_inline_child.hpp"

#include <cstdlib>
#include <string_view>

#include "build/subprocess.hpp"
#include "common/files.hpp"

namespace kforge::build {

nlohmann::json failed_build(const std::string& why, double seconds) {
  return {{"ok", false},    {"cached", false}, {"library", ""},   {"diagnostics", why},
          {"seconds", seconds}, {"strategy", ""}, {"why_whole", ""}, {"key", ""}};
}

nlohmann::json build_inline_in_child(const nlohmann::json& spec, const std::filesystem::path& spec_file,
                                     std::vector<std::string> env, const std::string& readable,
                                     std::chrono::seconds timeout) {
  const char* kforge = std::getenv("KFORGE_BINARY");
  if (!kforge || !*kforge) return failed_build("kforge cannot build here: KFORGE_BINARY is not set");
  try {
    write_file_atomically(spec_file, spec.dump());
  } catch (const std::exception& e) {
    return failed_build(std::string("kforge cannot build here: the build's spec could not be written: ") + e.what());
  }
  std::erase_if(env, [](const std::string& e) { return std::string_view(e).starts_with("KFORGE_COMPILE_READABLE="); });
  env.push_back("KFORGE_COMPILE_READABLE=" + readable);
  ProcessResult r = run_process({kforge, "build-inline", "--spec", spec_file.string()}, timeout, 1 << 20, "", {}, &env);
  std::error_code ignored;
  std::filesystem::remove(spec_file, ignored);
  if (r.timed_out) return failed_build("kforge build-inline did not finish in " + std::to_string(timeout.count()) + " s", r.seconds);
  // Its answer is its last line (a compiler's words on stderr may come before it).
  const size_t last = r.output.rfind("\n{");
  try {
    nlohmann::json reply = nlohmann::json::parse(r.output.substr(last == std::string::npos ? 0 : last + 1));
    if (reply.is_object() && reply.contains("ok")) return reply;
  } catch (...) {
  }
  return failed_build("kforge build-inline failed (exit " + std::to_string(r.exit_code) + "): " +
                    r.output.substr(r.output.size() > 2000 ? r.output.size() - 2000 : 0),
                r.seconds);
}

}  // namespace kforge::build
