// `kforge build-inline`: the build of one load_inline extension, from a JSON spec on stdin or in
// the file --spec names; answers with one JSON object on stdout. Run by a process that runs no
// candidate code (the worker, for a candidate that asks: worker/build_broker.hpp; kforge's
// prebuild), with KFORGE_COMPILE_READABLE set, its compilers confined to their build's folder
// (build/compilers.hpp); or from inside a candidate's sandbox, where only a cached build is
// found (the cache is not the candidate's to write). The compile runs in this process rather than
// inside a Python one, so the build service never shares an address space (or a C++ runtime) with
// torch and a candidate.
#include <fstream>
#include <iostream>
#include <memory>
#include <iterator>

#include <nlohmann/json.hpp>

#include "build/inline_build.hpp"
#include "cli/commands.hpp"

namespace kforge::cli {

Runner add_build_inline_command(CLI::App& app, const GlobalOptions&) {
  auto* cmd = app.add_subcommand("build-inline",
                                 "Internal: build one load_inline extension from a JSON spec on stdin (used by workers)");
  cmd->group("");  // hidden from `kforge --help`: not a user command
  auto spec_file = std::make_shared<std::string>();
  cmd->add_option("--spec", *spec_file, "The spec's JSON file (default: stdin)");
  return [spec_file] {
    std::string input;
    if (spec_file->empty()) input.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    else {
      std::ifstream in(*spec_file);
      input.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
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
