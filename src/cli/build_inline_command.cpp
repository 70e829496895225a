// `kforge build-inline`: the build of one load_inline extension, asked for by a Python process
// (python/kforge_inline.py, in a worker or a prebuild) with a JSON spec on stdin; answers with one
// JSON object on stdout. The compile runs in this process rather than inside the Python one, so
// the build service never shares an address space (or a C++ runtime) with torch and a candidate.
#include <iostream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "build/inline_build.hpp"
#include "cli/commands.hpp"

namespace kforge::cli {

Runner add_build_inline_command(CLI::App& app, const GlobalOptions&) {
  auto* cmd = app.add_subcommand("build-inline",
                                 "Internal: build one load_inline extension from a JSON spec on stdin (used by workers)");
  cmd->group("");  // hidden from `kforge --help`: not a user command
  return [] {
    std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    build::InlineOutcome out;
    try {
      build::BuildService service(build::default_build_settings());
      out = build::build_inline(service, build::inline_spec_from_json(nlohmann::json::parse(input)));
    } catch (const std::exception& e) {  // a malformed spec: answered like a failed build
      out.build.diagnostics = std::string("kforge build-inline: ") + e.what();
    }
    nlohmann::json reply = {{"ok", out.build.ok},
                            {"cached", out.build.cached},
                            {"library", out.build.library.string()},
                            {"diagnostics", out.build.diagnostics},
                            {"seconds", out.build.seconds},
                            {"strategy", out.strategy},
                            {"why_whole", out.why_whole},
                            {"key", out.build.key}};
    std::cout << reply.dump() << std::endl;
    return 0;
  };
}

}  // namespace kforge::cli
