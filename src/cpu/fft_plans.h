// The cpu fft's plan cache: one plan per (length, direction), shared by every call and
// thread (the plans' transforms are const; kissfft plans with a scratch buffer are copied
// per thread by their users).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace vkt::cpu_kernels {

// P: kissfft<R> or Radix4Fft<R>.
template <class P>
std::shared_ptr<const P> fft_plan(std::int64_t n, bool inverse) {
  static std::mutex mutex;
  static std::map<std::pair<std::int64_t, bool>, std::shared_ptr<const P>> plans;
  constexpr std::size_t kKept = 16;  // lengths kept; a plan in use outlives its eviction
  std::lock_guard lock(mutex);
  auto it = plans.find({n, inverse});
  if (it != plans.end()) return it->second;
  if (plans.size() >= kKept) plans.clear();
  auto made = std::make_shared<const P>(static_cast<std::size_t>(n), inverse);
  plans.emplace(std::make_pair(n, inverse), made);
  return made;
}

}  // namespace vkt::cpu_kernels
