// The bench's own environment variables (VKT_BENCH_*), read one way: unset or empty means
// the default; any other value outside the accepted ones is a vkt::Error naming the
// variable, its value and what it accepts (a typo must not silently time something else).
#pragma once

#include <initializer_list>
#include <string_view>

namespace vkt::bench {

// The index in `words` of `name`'s value; 0 (the first word) where unset or empty.
int bench_env_word(const char* name, std::initializer_list<std::string_view> words);

// A whole number of milliseconds from 0 to max_ms; `fallback_ms` where unset or empty.
double bench_env_ms(const char* name, double fallback_ms, double max_ms);

}  // namespace vkt::bench
