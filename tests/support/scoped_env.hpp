#pragma once
// An environment variable set for one scope: kforge, its workers and a server started meanwhile
// inherit it.
#include <stdlib.h>

#include <string>

namespace kforge::testing {

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) { ::setenv(name, value.c_str(), 1); }
  ~ScopedEnv() { ::unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

}  // namespace kforge::testing
