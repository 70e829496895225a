#include "suite/candidate.hpp"

#include <algorithm>
#include <regex>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/sha256.hpp"
#include "suite/problem.hpp"

namespace kforge {

Candidate load_candidate_file(const std::filesystem::path& path, const std::string& display_name) {
  Candidate c;
  std::error_code ec;
  c.path = std::filesystem::weakly_canonical(path, ec);
  if (ec) c.path = std::filesystem::absolute(path);
  if (!std::filesystem::exists(c.path)) throw Error(path.string() + ": no such candidate file");
  c.source = read_source_file(c.path);
  c.hash = sha256_hex(c.source);
  c.display_name = display_name.empty() ? path.filename().string() : display_name;
  return c;
}

namespace {

// Upstream's generation file name, level_<L>_problem_<P>_sample_<S>_kernel.py: level and problem id.
const std::regex& generation_name() {
  static const std::regex pattern(R"(^level_(\d+)_problem_(\d+)_sample_(\d+)_kernel\.py$)");
  return pattern;
}

}  // namespace

bool upstream_generation_name(const std::filesystem::path& file) {
  return std::regex_match(file.filename().string(), generation_name());
}

std::optional<ProblemKey> match_candidate_path(const std::filesystem::path& relative) {
  std::string ext = relative.extension().string();
  if (ext != ".py" && ext != ".cu" && ext != ".cpp") return std::nullopt;
  std::smatch m;
  std::string file = relative.filename().string();
  if (std::regex_match(file, m, generation_name())) return ProblemKey{std::stoi(m[1]), std::stoi(m[2])};

  // level<L>/<id>_<Name>/<file>.py, anywhere in the path.
  std::vector<std::string> parts;
  for (const auto& part : relative) parts.push_back(part.string());
  for (size_t i = 0; i + 2 < parts.size(); ++i) {
    auto level = parse_level_dir(parts[i]);
    if (!level) continue;
    static const std::regex problem_dir(R"(^(\d+)_.+$)");
    if (std::regex_match(parts[i + 1], m, problem_dir) && i + 3 == parts.size())
      return ProblemKey{*level, std::stoi(m[1])};
  }
  return std::nullopt;
}

bool candidate_needs_cuda(const std::filesystem::path& path, const std::string& source) {
  if (path.extension() == ".cu") return true;
  if (path.extension() == ".cpp") return false;  // the cpp format is host code by definition
  return candidate_needs_cuda(source);
}

bool host_code_extension(const std::string& source) {
  static const std::regex extension(R"(load_inline\s*\(|cpp_extension\.load\s*\()");
  return std::regex_search(source, extension) && !candidate_needs_cuda(source);
}

std::string with_host_code_hint(std::string crash_message) {
  static const std::string hint =
      "; its extension is host code only (cpp_sources, nothing that runs on the GPU) and was handed CUDA "
      "tensors, whose memory its loops read as the host's: write the kernel for the GPU (cuda_sources), "
      "or evaluate it with --device cpu";
  const size_t output = crash_message.find("; its output ended with: ");
  crash_message.insert(output == std::string::npos ? crash_message.size() : output, hint);
  return crash_message;
}

bool candidate_needs_cuda(const std::string& source) {
  static const std::regex cuda_use(
      R"(cuda_sources|import\s+triton|from\s+triton|\.cuda\(|device\s*=\s*['"]cuda|torch\.cuda\.|__global__)");
  return std::regex_search(source, cuda_use);
}

Discovery discover_candidates(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) throw Error(dir.string() + ": no such folder");
  Discovery found;
  auto options = std::filesystem::directory_options::skip_permission_denied;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, options, ec);
       it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const auto& entry = *it;
    std::string name = entry.path().filename().string();
    if (entry.is_directory() && (name == "__pycache__" || name.starts_with('.'))) {
      it.disable_recursion_pending();
      continue;
    }
    std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".py" && ext != ".cu" && ext != ".cpp") || name == "__init__.py") continue;
    auto relative = std::filesystem::relative(entry.path(), dir);
    if (auto key = match_candidate_path(relative))
      found.candidates.push_back({*key, entry.path(), relative.string()});
    else
      found.unmatched.push_back(relative.string());
  }
  std::sort(found.candidates.begin(), found.candidates.end(), [](const auto& a, const auto& b) {
    return std::tie(a.key, a.relative) < std::tie(b.key, b.relative);
  });
  std::sort(found.unmatched.begin(), found.unmatched.end());
  return found;
}

}  // namespace kforge
