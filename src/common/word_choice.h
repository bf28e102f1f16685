// Environment switches read one way everywhere: a word from a short list, or a bounded count.
// Unset and empty mean "not given"; anything else outside the accepted values is an error
// naming the variable and its value (a typo must not silently run the default).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>

namespace vkt::common {

// The index in `words` of variable `name`'s value; `fallback` (any int, say -1 for "not
// given") where it is unset or empty. Otherwise throws
// vkt::Error("[area] NAME='value': expected a, b or c").
int env_choice(const char* name, std::initializer_list<std::string_view> words, int fallback,
               std::string_view area);

// The same for `text`, a value of `name` already in hand (a parser that tests call too).
int word_choice(std::string_view text, const char* name,
                std::initializer_list<std::string_view> words, int fallback, std::string_view area);

// A two-word switch: true for `on`, false for `off`, `fallback` where unset or empty.
bool env_switch(const char* name, std::string_view on, std::string_view off, bool fallback,
                std::string_view area);

// A decimal count from min to max (digits only: no sign, space or suffix); nullopt where
// unset or empty. Otherwise throws vkt::Error("[area] NAME='value': expected a whole number
// from min to max").
std::optional<std::uint64_t> env_count(const char* name, std::uint64_t min, std::uint64_t max,
                                       std::string_view area);

// The same for `text`, a value of `name` already in hand.
std::optional<std::uint64_t> word_count(std::string_view text, const char* name, std::uint64_t min,
                                        std::uint64_t max, std::string_view area);

// The variable's text; empty where unset (for the few that mix words and counts).
std::string_view env_text(const char* name);

}  // namespace vkt::common
