#include "build/include_content.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <sstream>

#include "common/files.hpp"
#include "common/sha256.hpp"

namespace kforge::build {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxFiles = 4096;
constexpr uintmax_t kMaxBytes = uintmax_t{256} << 20;

// Options whose argument (attached or the next token) is a path the compiler reads from.
constexpr const char* kPathOptions[] = {"-I", "-iquote", "-idirafter", "-include", "-imacros"};

std::optional<std::string> file_digest(const fs::path& file) {
  auto bytes = read_file_if_readable(file);
  return bytes ? std::optional<std::string>(sha256_hex(*bytes)) : std::nullopt;
}

// A digest of `path`'s content: a file's bytes, or a folder's files (relative names and bytes,
// symbolic links to folders not followed); nullopt past the bounds.
std::optional<std::string> content_digest(const fs::path& path) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return file_digest(path);
  if (!fs::is_directory(path, ec)) return std::string("missing");
  std::vector<std::pair<std::string, std::string>> files;
  uintmax_t bytes = 0;
  for (fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    bytes += it->file_size(ec);
    if (files.size() >= kMaxFiles || bytes > kMaxBytes) return std::nullopt;
    auto digest = file_digest(it->path());
    files.emplace_back(fs::relative(it->path(), path, ec).string(), digest.value_or("unreadable"));
  }
  std::sort(files.begin(), files.end());
  std::string listing;
  for (const auto& [name, digest] : files) listing += name + '\0' + digest + '\n';
  return sha256_hex(listing);
}

bool beneath(const std::string& path, const std::string& folder) {
  if (folder.empty()) return false;
  const std::string prefix = folder.back() == '/' ? folder : folder + "/";
  return path == folder || path.starts_with(prefix);
}

}  // namespace

std::vector<std::string> flags_keyed_by_content(const std::vector<std::string>& flags, std::string* note) {
  std::vector<std::string> system{"/usr"};
  for (size_t i = 0; i < flags.size(); ++i) {
    if (flags[i] == "-isystem" && i + 1 < flags.size()) system.push_back(flags[i + 1]);
    else if (flags[i].starts_with("-isystem") && flags[i].size() > 8) system.push_back(flags[i].substr(8));
  }
  auto keyed = [&](const std::string& path) -> std::string {
    std::error_code ec;
    if (std::any_of(system.begin(), system.end(), [&](const std::string& s) { return beneath(path, s); }) ||
        fs::exists(fs::path(path) / "cuda_runtime_api.h", ec))
      return path;
    if (auto digest = content_digest(path)) return "{content " + *digest + "}";
    *note = "the folder " + path + " is too large to key by its content (over " + std::to_string(kMaxFiles) +
            " files or " + std::to_string(kMaxBytes >> 20) + " MB): keyed by its path";
    return path;
  };
  std::vector<std::string> out;
  for (size_t i = 0; i < flags.size(); ++i) {
    const std::string& f = flags[i];
    bool done = false;
    for (const char* option : kPathOptions) {
      if (f == option && i + 1 < flags.size()) {
        out.insert(out.end(), {f, keyed(flags[++i])});
        done = true;
      } else if (f.starts_with(option) && f.size() > std::string_view(option).size() &&
                 !(std::string_view(option) == "-I" && f.starts_with("-iquote"))) {
        out.push_back(std::string(option) + keyed(f.substr(std::string_view(option).size())));
        done = true;
      }
      if (done) break;
    }
    if (!done) out.push_back(f);
  }
  return out;
}

}  // namespace kforge::build
