#pragma once
// A fresh directory under the system temp folder, removed with everything in it on destruction.
#include <filesystem>
#include <string>

namespace kforge::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;  // owns the directory
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Writes `content` to path()/relative, creating folders on the way; returns the full path.
  std::string write(const std::string& relative, const std::string& content) const;

 private:
  std::filesystem::path path_;
};

}  // namespace kforge::testing
