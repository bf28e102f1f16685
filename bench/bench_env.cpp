#include "bench_env.h"

#include <cstdlib>
#include <string>

#include "vkt/error.h"

namespace vkt::bench {

int bench_env_word(const char* name, std::initializer_list<std::string_view> words) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return 0;
  int i = 0;
  std::string accepted;
  for (std::string_view w : words) {
    if (w == v) return i;
    accepted += (i++ ? ", " : "") + std::string(w);
  }
  throw Error("[bench] " + std::string(name) + "='" + v + "': expected one of " + accepted);
}

double bench_env_ms(const char* name, double fallback_ms, double max_ms) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback_ms;
  const std::string text(v);
  const bool digits = text.size() <= 9 && text.find_first_not_of("0123456789") == std::string::npos;
  if (!digits || std::stod(text) > max_ms) {
    throw Error("[bench] " + std::string(name) + "='" + text +
                "': expected a whole number of milliseconds from 0 to " +
                std::to_string(static_cast<long long>(max_ms)));
  }
  return std::stod(text);
}

}  // namespace vkt::bench
