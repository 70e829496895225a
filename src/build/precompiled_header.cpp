#include "build/precompiled_header.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <set>

#include "build/compilers.hpp"
#include "build/include_content.hpp"
#include "build/subprocess.hpp"
#include "common/sha256.hpp"

namespace kforge::build {
namespace {

// Parsing torch's headers on a small machine takes minutes.
constexpr std::chrono::seconds kHeaderTimeout{900};

bool is_optimization_level(const std::string& f) { return f == "-O" || f == "-O1" || f == "-O2" || f == "-O3"; }

// Flags of one token that GCC lets differ between a precompiled header and its use (above).
bool pch_neutral(const std::string& f) {
  if (f == "-w" || f == "-funroll-loops") return true;
  // -Wp, passes preprocessor options (a macro), -Wa, and -Wl, are the assembler's and the linker's.
  return f.starts_with("-W") && !f.starts_with("-Wp,") && !f.starts_with("-Wa,") && !f.starts_with("-Wl,");
}

// Options whose next token is their argument: never dropped or merged as flags of their own.
bool takes_argument(const std::string& f) {
  return f == "-isystem" || f == "-include" || f == "-I" || f == "-D" || f == "-U" || f == "-x" || f == "-Xlinker" ||
         f == "-Xpreprocessor" || f == "-iquote" || f == "-idirafter";
}

// The folder of an include option written in one token ("-IDIR", "-isystemDIR"); empty for any
// other flag (the two-token forms are takes_argument's).
std::string attached_include_dir(const std::string& f) {
  if (f.starts_with("-isystem")) return f.substr(8);
  if (f.starts_with("-I")) return f.substr(2);
  return "";
}

// torch/extension.h as the include path finds it.
std::optional<std::filesystem::path> torch_extension_header(const std::vector<std::string>& cflags) {
  for (size_t i = 0; i < cflags.size(); ++i) {
    std::string dir = cflags[i] == "-isystem" && i + 1 < cflags.size() ? cflags[i + 1] : attached_include_dir(cflags[i]);
    if (!dir.empty() && std::filesystem::exists(std::filesystem::path(dir) / "torch" / "extension.h"))
      return std::filesystem::path(dir) / "torch" / "extension.h";
  }
  return std::nullopt;
}

// An exclusive lock on a file, held for this object's life when it could be taken at once: one
// process builds a shared header and no other builds it too.
class FileLock {
 public:
  explicit FileLock(const std::filesystem::path& path) : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    held_ = fd_ >= 0 && ::flock(fd_, LOCK_EX | LOCK_NB) == 0;
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  // False where another process holds it (or the lock file cannot be opened).
  bool held() const { return held_; }

 private:
  int fd_;
  bool held_ = false;
};

// The CUDA toolkit's include folder (it holds cuda_runtime_api.h). torch's flags for a CUDA
// extension add it after torch's own folders; torch/extension.h includes nothing from it (a CPU
// extension's flags lack it and the header compiles), so every header the header reaches is found
// where it was without it, and GCC does not compare include paths when it takes a precompiled
// header. One header then serves a CPU extension and a CUDA extension's host part alike.
bool is_cuda_toolkit_include(const std::string& dir) {
  std::error_code ec;
  return !dir.empty() && std::filesystem::exists(std::filesystem::path(dir) / "cuda_runtime_api.h", ec);
}

}  // namespace

std::vector<std::string> precompiled_header_flags(const std::vector<std::string>& cflags) {
  std::string level;  // the last optimisation level given holds; -O1..-O3 all take -O3's header
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (size_t i = 0; i < cflags.size(); ++i) {
    const std::string& f = cflags[i];
    if (takes_argument(f) && i + 1 < cflags.size()) {
      const std::string& argument = cflags[++i];
      if ((f == "-isystem" || f == "-I") && is_cuda_toolkit_include(argument)) continue;
      out.insert(out.end(), {f, argument});
      continue;
    }
    if (is_cuda_toolkit_include(attached_include_dir(f))) continue;
    if (f.starts_with("-O")) level = f;
    if (f.starts_with("-DTORCH_EXTENSION_NAME=") || f.starts_with("-O") || pch_neutral(f)) continue;
    if (seen.insert(f).second) out.push_back(f);
  }
  if (is_optimization_level(level)) out.push_back("-O3");
  else if (!level.empty() && level != "-O0") out.push_back(level);  // -Os, -Ofast, -Og: headers of their own
  return out;
}

std::filesystem::path torch_pch_dir(BuildService& service, const std::vector<std::string>& cflags,
                                    const std::string& torch_version, bool whole, std::string& note) {
  auto header = torch_extension_header(cflags);
  if (!header) {
    note = "no torch/extension.h on the include path; no precompiled header";
    return {};
  }
  std::vector<std::string> flags = precompiled_header_flags(cflags);
  std::string content_note;
  nlohmann::json identity = {{"layout", 3},  // 2: the header copied beside its .gch; 3: canonical flags
                             {"compiler", service.toolchain_identity(Format::cpp)},
                             {"torch", torch_version},
                             {"whole", whole},
                             {"header", header->string()},
                             // A candidate's own include folders by content: one made fresh by each
                             // import would otherwise make a header of its own every time.
                             {"flags", flags_keyed_by_content(flags, &content_note)}};
  auto root = service.settings().cache_dir / "pch";
  std::string key = sha256_hex(identity.dump()).substr(0, 32);
  auto dir = root / key;
  auto gch = dir / "torch" / "extension.h.gch";
  note = "precompiled torch header " + key;
  std::error_code ec;
  std::filesystem::create_directories(root, ec);
  if (std::filesystem::exists(gch, ec)) return dir;
  FileLock lock(root / (key + ".lock"));
  if (std::filesystem::exists(gch, ec)) return dir;  // built and released just now
  if (!lock.held()) {
    // Another build makes it (30-35 s on the H200's loaded cores): this unit compiles without it
    // rather than wait. Waiting held a build slot idle, and with the first builds of every flag
    // set waiting together, half the cores did nothing for half a minute (issue 19).
    note += " being built by another build; this unit compiles without it";
    return {};
  }
  auto tmp = root / (key + ".tmp" + std::to_string(::getpid()));
  std::filesystem::create_directories(tmp / "torch", ec);
  std::vector<std::string> argv{gxx_path()};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"-x", "c++-header", header->string(), "-o", (tmp / "torch" / "extension.h.gch").string()});
  // Its flags come from a candidate's (canonical ones, but -I and -D among them): confined to its
  // own folder as any of a build's compilers (build/compilers.hpp).
  auto r = Compilers(service.settings(), tmp).run(argv, kHeaderTimeout, 64 << 10);  // its tmp/ gone with it
  // GCC takes the folder of a .gch for the header's own folder: a second `#include
  // <torch/extension.h>` in the same unit (main.cpp after the split host part) opens it there.
  std::filesystem::copy_file(*header, tmp / "torch" / "extension.h", ec);
  if (r.exit_code != 0 || ec) {
    note = "the precompiled torch header failed to build (" + std::to_string(r.exit_code) + "): " +
           r.output.substr(0, 400);
    std::filesystem::remove_all(tmp, ec);
    return {};
  }
  std::filesystem::rename(tmp, dir, ec);
  if (ec) std::filesystem::remove_all(tmp, ec);
  note += ", built in " + std::to_string(static_cast<int>(r.seconds)) + " s";
  return std::filesystem::exists(gch, ec) ? dir : std::filesystem::path{};
}

}  // namespace kforge::build
