#pragma once
// The progress line of long commands: one line on stderr, rewritten in place, only when stderr is
// a terminal (pipes and CI logs get nothing, so --json output stays clean).
#include <string>

namespace kforge::cli {

class Progress {
 public:
  Progress();
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void show(const std::string& text);  // replaces the current line
  void clear();                        // erases it (before printing a table)
  bool enabled() const { return enabled_; }

 private:
  bool enabled_ = false;
  bool shown_ = false;
};

}  // namespace kforge::cli
