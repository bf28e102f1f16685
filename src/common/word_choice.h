// Settings read one way everywhere: a word from a short list, or a bounded count. Empty means
// "not given"; anything else outside the accepted values is an error naming the setting and
// its value (a typo must not silently run the default). settings.cpp reads the environment
// through these; vkt::Overrides' names are checked the same way.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>

namespace vkt::common {

// The index in `words` of `text`, the value of setting `name`; `fallback` (any int, say -1
// for "not given") where it is empty. Otherwise throws
// vkt::Error("[area] NAME='text': expected a, b or c").
int word_choice(std::string_view text, const char* name,
                std::initializer_list<std::string_view> words, int fallback, std::string_view area);

// A decimal count from min to max (digits only: no sign, space or suffix); nullopt where
// `text` is empty. Otherwise throws vkt::Error("[area] NAME='text': expected a whole number
// from min to max").
std::optional<std::uint64_t> word_count(std::string_view text, const char* name, std::uint64_t min,
                                        std::uint64_t max, std::string_view area);

}  // namespace vkt::common
