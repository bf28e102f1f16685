// Sets environment variables for a scope and restores what was there (the Vulkan backend's
// tuning variables, such as dot's kernel choice or VKT_VK_REDUCE, are read at every call).
#pragma once

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vkt::testing {

using EnvVars = std::vector<std::pair<std::string, std::string>>;

class ScopedEnv {
 public:
  explicit ScopedEnv(const EnvVars& vars) {
    for (const auto& [k, v] : vars) {
      const char* old = std::getenv(k.c_str());
      saved_.push_back({k, old != nullptr ? std::optional<std::string>(old) : std::nullopt});
      setenv(k.c_str(), v.c_str(), 1);
    }
  }
  ~ScopedEnv() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->second) {
        setenv(it->first.c_str(), it->second->c_str(), 1);
      } else {
        unsetenv(it->first.c_str());
      }
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

// One variable.
class ScopedEnvVar : public ScopedEnv {
 public:
  ScopedEnvVar(const std::string& name, const std::string& value)
      : ScopedEnv(EnvVars{{name, value}}) {}
};

}  // namespace vkt::testing
