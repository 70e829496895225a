#include "build/inline_build.hpp"

#include <unistd.h>

#include <chrono>
#include <future>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "build/compilers.hpp"
#include "build/cuda_split.hpp"
#include "build/diagnostics.hpp"
#include "build/include_content.hpp"
#include "build/precompiled_header.hpp"
#include "build/subprocess.hpp"
#include "common/files.hpp"
#include "common/sha256.hpp"

namespace kforge::build {
namespace {

// A whole build parses torch's headers three times in nvcc; on a small machine that takes minutes.
constexpr std::chrono::seconds kWholeTimeout{900};
constexpr std::chrono::seconds kStepTimeout{300};
constexpr int kSplitVersion = 3;  // part of every key: a better splitter rebuilds

struct Step {
  ProcessResult process;
  std::string file;  // the source it compiled, for diagnostics
  std::string shown_as;
};

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

Step compile_host(const InlineSpec& spec, const std::filesystem::path& pch_dir, const std::filesystem::path& source,
                  const std::filesystem::path& object, const std::string& shown_as, std::chrono::seconds timeout,
                  const Compilers& compilers) {
  std::vector<std::string> argv{gxx_path()};
  if (!pch_dir.empty()) argv.insert(argv.end(), {"-I" + pch_dir.string(), "-Winvalid-pch"});
  argv = concat(argv, spec.cflags);
  argv.insert(argv.end(), {"-c", source.string(), "-o", object.string()});
  return {compilers.run(argv, timeout), source.string(), shown_as};
}

Step compile_cuda(const InlineSpec& spec, const std::filesystem::path& source, const std::filesystem::path& object,
                  const std::string& shown_as, std::chrono::seconds timeout, const Compilers& compilers) {
  auto argv = concat({nvcc_path()}, spec.cuda_flags);
  argv.insert(argv.end(), {"-Xptxas", "-v", "-c", source.string(), "-o", object.string()});
  return {compilers.run(argv, timeout), source.string(), shown_as};
}

Step link(const InlineSpec& spec, const std::vector<std::filesystem::path>& objects, const std::filesystem::path& out,
          const Compilers& compilers) {
  std::vector<std::string> argv{gxx_path()};
  for (const auto& o : objects) argv.push_back(o.string());
  argv = concat(argv, spec.ldflags);
  // -Bsymbolic: the module's own references bind inside it, so two candidates whose kernels share
  // a name cannot call each other's in one worker.
  argv.insert(argv.end(), {"-shared", "-Wl,-Bsymbolic", "-o", out.string()});
  return {compilers.run(argv, kStepTimeout), "", "link"};
}

bool ok(const Step& s) { return s.process.exit_code == 0 && !s.process.timed_out; }

// The names containing "kforge_split_" that nm lists in `object` with `which` (--undefined-only or
// --defined-only); nullopt where nm could not read it.
std::optional<std::set<std::string>> split_symbols(const std::filesystem::path& object, const char* which,
                                                   const Compilers& compilers) {
  ProcessResult listed = compilers.run({"nm", which, object.string()}, kStepTimeout);
  if (listed.exit_code != 0 || listed.timed_out) return std::nullopt;
  std::set<std::string> names;
  std::istringstream lines(listed.output);
  for (std::string line; std::getline(lines, line);) {
    const size_t last = line.find_last_of(' ');
    std::string name = last == std::string::npos ? line : line.substr(last + 1);
    if (name.find("kforge_split_") != std::string::npos) names.insert(std::move(name));
  }
  return names;
}

// What the host part takes from the device part (an instance's or a device variable's address)
// and the device part does not define. A split whose instances were read wrong (a template
// argument taken otherwise than nvcc would) still links, since a shared library may leave names
// undefined, and would fail only when loaded: such a split is built whole instead. Empty where
// none is missing, or where nm is not there to say (`note` then says so).
std::string split_symbols_missing(const std::filesystem::path& host, const std::filesystem::path& device,
                                  const Compilers& compilers, std::string* note) {
  auto wanted = split_symbols(host, "--undefined-only", compilers);
  auto defined = split_symbols(device, "--defined-only", compilers);
  if (!wanted || !defined) {
    *note = "nm could not list the split's symbols: not checked that the kernels' part defines what the host part takes";
    return "";
  }
  std::string missing;
  for (const auto& name : *wanted)
    if (!defined->count(name)) missing += (missing.empty() ? "" : ", ") + name;
  return missing;
}

std::string describe_failure(const Step& s) {
  if (s.process.timed_out) return s.shown_as + ": the compiler did not finish in time";
  std::string d = s.file.empty() ? "" : condense_diagnostics(s.process.output, s.file, s.shown_as);
  if (d.empty()) d = s.shown_as + ": exited with status " + std::to_string(s.process.exit_code) + "\n" +
                     s.process.output.substr(0, 1500);
  return d;
}

void append_log(CompileResult& r, const std::string& title, const Step& s) {
  r.log += "== " + title + " (" + std::to_string(s.process.seconds).substr(0, 5) + " s, exit " +
           std::to_string(s.process.exit_code) + ")\n" + s.process.output + "\n";
}

}  // namespace

InlineSpec inline_spec_from_json(const nlohmann::json& j) {
  InlineSpec s;
  s.name = j.at("name").get<std::string>();
  s.main_cpp = j.at("main_cpp").get<std::string>();
  s.cuda_cu = j.value("cuda_cu", "");
  s.cflags = j.at("cflags").get<std::vector<std::string>>();
  s.cuda_flags = j.value("cuda_flags", std::vector<std::string>{});
  s.ldflags = j.at("ldflags").get<std::vector<std::string>>();
  s.torch_version = j.value("torch_version", "");
  s.display_name = j.value("display_name", s.name);
  if (j.contains("line_map")) s.line_map = line_map_from_json(j["line_map"]);
  s.whole_because = j.value("whole_because", "");
  return s;
}

InlineOutcome build_inline(BuildService& service, const InlineSpec& spec) {
  const bool cuda = !spec.cuda_cu.empty();
  // Keyed by what its own headers hold, not where they are (build/include_content.hpp).
  std::string include_note;
  nlohmann::json identity = {{"kind", "load_inline"},
                             {"split_version", kSplitVersion},
                             {"name", spec.name},
                             {"main_cpp", sha256_hex(spec.main_cpp)},
                             {"cuda_cu", sha256_hex(spec.cuda_cu)},
                             {"cflags", flags_keyed_by_content(spec.cflags, &include_note)},
                             {"cuda_flags", flags_keyed_by_content(spec.cuda_flags, &include_note)},
                             {"ldflags", spec.ldflags},
                             {"torch", spec.torch_version},
                             {"whole", !spec.whole_because.empty()},
                             {"gxx", service.toolchain_identity(Format::cpp)},
                             {"nvcc", cuda ? service.toolchain_identity(Format::cuda) : ""}};
  std::string key = sha256_hex(identity.dump());
  InlineOutcome outcome;
  outcome.build = service.cached_build(key, spec.display_name, "load_inline", [&](const std::filesystem::path& dir) {
    CompileResult r;
    auto t0 = std::chrono::steady_clock::now();
    write_file_atomically(dir / "main.cpp", spec.main_cpp);
    if (cuda) write_file_atomically(dir / "cuda.cu", spec.cuda_cu);
    // The precompiled header is looked up (or built) only when the host unit is about to compile,
    // after the nvcc step that needs none has started: a whole cuda.cu (about 50 s on the H200)
    // then runs beside the header's build instead of after it.
    std::optional<std::filesystem::path> pch;
    auto host_pch = [&]() -> std::filesystem::path {
      if (!pch) {
        std::string note;
        pch = torch_pch_dir(service, spec.cflags, spec.torch_version, !spec.whole_because.empty(), note);
        if (!note.empty()) r.log += "== " + note + "\n";
      }
      return *pch;
    };
    auto library = dir / "candidate.so";
    const Compilers env(service.settings(), dir);
    if (!env.note().empty()) r.log += "== " + env.note() + "\n";
    if (!include_note.empty()) r.log += "== " + include_note + "\n";
    std::string strategy = cuda ? "whole" : "host";
    std::string why_whole;  // with CUDA sources, why they were not built split
    bool built = false;

    if (cuda && !spec.whole_because.empty()) {
      why_whole = spec.whole_because;
      r.log += "== " + why_whole + "\n";
    } else if (cuda) {
      SplitAttempt split = split_cuda_source(spec.cuda_cu);
      if (split.split) {
        const bool host_only = split.split->device_cu.empty();
        write_file_atomically(dir / "split_host.cpp", split.split->host_cpp + "\n" + spec.main_cpp);
        std::optional<std::future<Step>> device;
        if (!host_only) {
          write_file_atomically(dir / "split_device.cu", split.split->device_cu);
          device = std::async(std::launch::async, [&] {
            return compile_cuda(spec, dir / "split_device.cu", dir / "split_device.o", "cuda_sources (kernels)",
                                kStepTimeout, env);
          });
        }
        Step host = compile_host(spec, host_pch(), dir / "split_host.cpp", dir / "split_host.o", "host part", kStepTimeout, env);
        append_log(r, "split: host part (g++)", host);
        bool device_ok = true;
        if (device) {
          Step dev = device->get();
          append_log(r, "split: kernels (nvcc)", dev);
          r.kernels = to_json(parse_ptxas_resources(dev.process.output));
          device_ok = ok(dev);
        }
        if (ok(host) && device_ok) {
          std::vector<std::filesystem::path> objects{dir / "split_host.o"};
          if (!host_only) objects.push_back(dir / "split_device.o");
          Step l = link(spec, objects, library, env);
          append_log(r, "split: link", l);
          built = ok(l);
        }
        std::string missing;
        if (built && !host_only) {
          std::string note;
          missing = split_symbols_missing(dir / "split_host.o", dir / "split_device.o", env, &note);
          if (!note.empty()) r.log += "== " + note + "\n";
          built = missing.empty();
        }
        if (built) strategy = "split";
        else if (!missing.empty()) why_whole = "the split's host part takes " + missing + ", which its kernels' part does not define; built whole";
        else why_whole = "the split build failed (see the log); built whole";
      } else {
        why_whole = "not split: " + split.why_not;
      }
      if (!why_whole.empty()) r.log += "== " + why_whole + "\n";
    }

    if (!built) {  // as torch builds it: main.cpp and cuda.cu, each whole
      std::optional<std::future<Step>> device;
      if (cuda)
        device = std::async(std::launch::async, [&] {
          return compile_cuda(spec, dir / "cuda.cu", dir / "cuda.o", kNameToken + std::string(" [cuda_sources]"),
                              kWholeTimeout, env);
        });
      Step host = compile_host(spec, host_pch(), dir / "main.cpp", dir / "main.o", kNameToken + std::string(" [cpp_sources]"),
                               kWholeTimeout, env);
      append_log(r, "whole: main.cpp (g++)", host);
      std::vector<std::filesystem::path> objects{dir / "main.o"};
      std::optional<Step> dev;
      if (device) {
        dev = device->get();
        append_log(r, "whole: cuda.cu (nvcc)", *dev);
        r.kernels = to_json(parse_ptxas_resources(dev->process.output));
        objects.push_back(dir / "cuda.o");
      }
      r.timed_out = host.process.timed_out || (dev && dev->process.timed_out);
      if (!ok(host)) r.diagnostics = describe_failure(host);
      if (dev && !ok(*dev)) r.diagnostics += (r.diagnostics.empty() ? "" : "\n") + describe_failure(*dev);
      if (r.diagnostics.empty()) {
        Step l = link(spec, objects, library, env);
        append_log(r, "whole: link", l);
        if (ok(l)) built = true;
        else r.diagnostics = describe_failure(l);
      }
    }
    r.ok = built;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.extra = {{"strategy", strategy}, {"why_whole", why_whole}};
    // Objects are not needed once linked; the sources and the log stay for the curious.
    std::error_code ec;
    for (const char* o : {"main.o", "cuda.o", "split_host.o", "split_device.o"}) std::filesystem::remove(dir / o, ec);
    return r;
  });
  outcome.build.diagnostics =
      with_name(map_inline_lines(outcome.build.diagnostics, kNameToken, spec.line_map), spec.display_name);
  // Fresh or cached, the entry's meta says how it was built.
  if (outcome.build.ok) outcome.strategy = outcome.build.extra.value("strategy", "");
  outcome.why_whole = outcome.build.extra.value("why_whole", "");
  return outcome;
}

}  // namespace kforge::build
