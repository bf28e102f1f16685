// Sets an environment variable for a scope and restores it after (backend choices that
// read a variable at every call: VKT_VK_REDUCE, VKT_VK_REDUCE_GROUPS, ...).
#pragma once

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

namespace vkt::testing {

class ScopedEnvVar {
 public:
  ScopedEnvVar(std::string name, const std::string& value) : name_(std::move(name)) {
    const char* old = std::getenv(name_.c_str());
    if (old != nullptr) saved_ = old;
    setenv(name_.c_str(), value.c_str(), 1);
  }
  ~ScopedEnvVar() {
    if (saved_) {
      setenv(name_.c_str(), saved_->c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ScopedEnvVar(const ScopedEnvVar&) = delete;
  ScopedEnvVar& operator=(const ScopedEnvVar&) = delete;

 private:
  std::string name_;
  std::optional<std::string> saved_;
};

}  // namespace vkt::testing
