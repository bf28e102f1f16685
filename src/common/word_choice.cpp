// The word and count parsers every setting goes through (word_choice.h).
#include "common/word_choice.h"

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

}  // namespace vkt::common
