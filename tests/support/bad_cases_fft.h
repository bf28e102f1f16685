// Bad-input cases of the transforms: fft, ifft, rfft, irfft, fft2, ifft2.
#pragma once

#include <cstdint>
#include <optional>

#include "support/bad_inputs.h"

namespace vkt::testing {

inline void add_fft_cases(std::vector<BadCase>& v) {
  const Expect S = Expect::shape, A = Expect::axis, E = Expect::error, T = Expect::type;
  auto one = [&](std::string what, Expect x, std::string op, Spec a,
                 std::function<void(const Tensor&)> f) {
    add_case(v, op + "/" + what, x, op, {std::move(a)}, [f](const Inputs& in) { f(in[0]); });
  };
  using Transform = Tensor (*)(const Tensor&, std::optional<std::int64_t>, std::int64_t);
  const std::pair<const char*, Transform> transforms[] = {
      {"fft", fft}, {"ifft", ifft}, {"rfft", rfft}, {"irfft", irfft}};
  for (const auto& [name, f] : transforms) {
    const Transform fn = f;  // clang 14 (TSan) cannot capture a structured binding
    one("rank 0", S, name, on_home({}), [fn](const Tensor& t) { (void)fn(t, std::nullopt, -1); });
    one("axis 2 of rank 2", A, name, on_home({2, 3}),
        [fn](const Tensor& t) { (void)fn(t, std::nullopt, 2); });
    one("axis -3 of rank 2", A, name, on_home({2, 3}),
        [fn](const Tensor& t) { (void)fn(t, std::nullopt, -3); });
    one("length 0", S, name, on_home({4}), [fn](const Tensor& t) { (void)fn(t, 0, -1); });
    one("length -2", S, name, on_home({4}), [fn](const Tensor& t) { (void)fn(t, -2, -1); });
    one("axis of size 0", S, name, on_home({3, 0}),
        [fn](const Tensor& t) { (void)fn(t, std::nullopt, -1); });
    one("empty tensor", E, name, empty_tensor(),
        [fn](const Tensor& t) { (void)fn(t, std::nullopt, -1); });
  }
  one("axis of size 1 gives 0 points", S, "irfft", on_home({3, 1}),
      [](const Tensor& t) { (void)irfft(t); });
  // A complex input, bitcast from f64 (iota has no complex form to rely on).
  one("complex input", T, "rfft", on_home({4}, DType::f64),
      [](const Tensor& t) { (void)rfft(bitcast(t, DType::c64)); });
  using Transform2 = Tensor (*)(const Tensor&, const std::vector<std::int64_t>&, const Axes&);
  const std::pair<const char*, Transform2> transforms2[] = {{"fft2", fft2}, {"ifft2", ifft2}};
  for (const auto& [name, f] : transforms2) {
    const Transform2 fn = f;
    one("rank 1", S, name, on_home({4}), [fn](const Tensor& t) { (void)fn(t, {}, {-2, -1}); });
    one("three axes", A, name, on_home({2, 2, 2}), [fn](const Tensor& t) {
      (void)fn(t, {}, {0, 1, 2});
    });
    one("repeated axis", A, name, on_home({2, 2}), [fn](const Tensor& t) {
      (void)fn(t, {}, {1, 1});
    });
    one("axis 2 of rank 2", A, name, on_home({2, 2}), [fn](const Tensor& t) {
      (void)fn(t, {}, {0, 2});
    });
    one("one length for two axes", S, name, on_home({2, 2}), [fn](const Tensor& t) {
      (void)fn(t, {4}, {-2, -1});
    });
    one("length 0", S, name, on_home({2, 2}), [fn](const Tensor& t) {
      (void)fn(t, {2, 0}, {-2, -1});
    });
  }
}

}  // namespace vkt::testing
