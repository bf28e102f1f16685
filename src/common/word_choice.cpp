#include "common/env_choice.h"

#include <cstdlib>
#include <string>

#include "vkt/error.h"

namespace vkt::common {
namespace {

std::string prefix(const char* name, std::string_view value, std::string_view area) {
  return "[" + std::string(area) + "] " + name + "='" + std::string(value) + "': expected ";
}

// "a", "a or b", "a, b or c".
std::string listed(std::initializer_list<std::string_view> words) {
  std::string out;
  std::size_t i = 0;
  for (std::string_view w : words) {
    if (i > 0) out += i + 1 == words.size() ? " or " : ", ";
    out += w;
    ++i;
  }
  return out;
}

}  // namespace

std::string_view env_text(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string_view() : std::string_view(v);
}

int env_choice(const char* name, std::initializer_list<std::string_view> words, int fallback,
               std::string_view area) {
  return word_choice(env_text(name), name, words, fallback, area);
}

int word_choice(std::string_view v, const char* name, std::initializer_list<std::string_view> words,
                int fallback, std::string_view area) {
  if (v.empty()) return fallback;
  int index = 0;
  for (std::string_view w : words) {
    if (v == w) return index;
    ++index;
  }
  throw Error(prefix(name, v, area) + listed(words));
}

bool env_switch(const char* name, std::string_view on, std::string_view off, bool fallback,
                std::string_view area) {
  return env_choice(name, {on, off}, fallback ? 0 : 1, area) == 0;
}

std::optional<std::uint64_t> word_count(std::string_view v, const char* name, std::uint64_t min,
                                        std::uint64_t max, std::string_view area) {
  if (v.empty()) return std::nullopt;
  std::uint64_t n = 0;
  bool ok = true;
  for (char c : v) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (c < '0' || c > '9' || n > (UINT64_MAX - digit) / 10) {
      ok = false;
      break;
    }
    n = n * 10 + digit;
  }
  if (!ok || n < min || n > max) {
    throw Error(prefix(name, v, area) + "a whole number from " + std::to_string(min) + " to " +
                std::to_string(max));
  }
  return n;
}

std::optional<std::uint64_t> env_count(const char* name, std::uint64_t min, std::uint64_t max,
                                       std::string_view area) {
  return word_count(env_text(name), name, min, max, area);
}

}  // namespace vkt::common
