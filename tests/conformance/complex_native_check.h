// Shared by the complex conformance tests (complex_native_*_test.cpp): complex tensors from
// std::complex values, special values of every kind, the real "twin" of a complex tensor on
// the cpu (c64 as u64 with the same bytes; c128 as u64 pairs, shape + [2]), and the
// VulkanComplex fixture that runs an op natively and compares it with its twin bit for bit.
#pragma once

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>

#include "conformance/complex_placement.h"
#include "conformance/movement_check.h"
#include "vkt/ledger.h"
#include "vulkan/ops/movement_words.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing::complex_native {

template <class R>
using Cplx = std::complex<R>;

template <class R>
constexpr DType complex_dtype() {
  return sizeof(R) == 4 ? DType::c64 : DType::c128;
}

template <class R>
Tensor complex_tensor(const std::vector<Cplx<R>>& v, const Shape& shape) {
  return from_bytes(std::as_bytes(std::span<const Cplx<R>>(v)), complex_dtype<R>(), shape);
}

// c64 values widened on the host into a c128 tensor.
template <class R>
Tensor as_type_host(const std::vector<Cplx<float>>& v, const Shape& shape) {
  std::vector<Cplx<R>> w;
  for (auto z : v) w.emplace_back(z.real(), z.imag());
  return complex_tensor(w, shape);
}

template <class R>
std::vector<Cplx<R>> complex_values(const Tensor& t) {
  const std::vector<std::byte> bytes = t.to_bytes();
  std::vector<Cplx<R>> out(bytes.size() / sizeof(Cplx<R>));
  if (!bytes.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

// Values with every kind of part: zeros of both signs, subnormals, huge, inf, NaN, ordinary.
template <class R>
std::vector<Cplx<R>> special_values(std::size_t n, std::uint64_t seed) {
  using L = std::numeric_limits<R>;
  const R parts[] = {R(0),          -R(0),        R(1),          R(-2.5),        L::denorm_min(),
                     -L::min() / 4, L::max() / 3, L::infinity(), -L::infinity(), L::quiet_NaN(),
                     R(3.75e-3),    R(1e20)};
  std::vector<Cplx<R>> v(n);
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 7;
  auto next = [&] {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x >> 33;
  };
  for (auto& z : v) {
    // Mostly ordinary values, a special part one time in four.
    auto part = [&] {
      const std::uint64_t r = next();
      if (r % 4 == 0) return parts[(r / 4) % std::size(parts)];
      return static_cast<R>(static_cast<double>(static_cast<std::int64_t>(r % 20001) - 10000) /
                            997.0);
    };
    z = {part(), part()};
  }
  return v;
}

// The real twin of a complex tensor on the cpu: same bytes, u64 words (c128: shape + [2]).
inline Tensor twin(const Tensor& t) {
  Shape s = t.shape();
  if (t.dtype() == DType::c128) s.push_back(2);
  return from_bytes(t.to_bytes(), DType::u64, s);
}

class VulkanComplex : public MovementCheck {
 protected:
  // Runs f on the device copies of `inputs` (natively: no fallback, result on the device)
  // and g on their twins on the cpu; the bytes must agree.
  void twin_check(const std::string& what, const OpFn& f, const OpFn& g,
                  const std::vector<Tensor>& inputs, const std::vector<bool>& twinned) {
    SCOPED_TRACE(what);
    std::vector<Tensor> dev, tw;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      dev.push_back(copy(inputs[i], gpu()));
      tw.push_back(twinned[i] ? twin(inputs[i]) : inputs[i]);
    }
    const Tensor expected = g(tw);
    LedgerScope scope;
    const Tensor got = f(dev);
    EXPECT_EQ(scope.delta().fallbacks, 0u) << scope.delta().to_string();
    EXPECT_EQ(&got.backend(), &gpu());
    EXPECT_EQ(got.to_bytes(), expected.to_bytes());
    ++cases_;
  }
};

// Runs f on device copies of `inputs`, natively but where a device that flushes f32
// subnormals must fall back (complex_placement.h); returns the result copied to the cpu.
inline Tensor native(const std::string& what, const OpFn& f, const std::vector<Tensor>& inputs) {
  std::vector<Tensor> dev;
  DType complex_operand = DType::c64;
  for (const Tensor& t : inputs) {
    dev.push_back(copy(t, vulkan()));
    if (is_complex(t.dtype())) complex_operand = t.dtype();
  }
  LedgerScope scope;
  Tensor got = f(dev);
  expect_complex_placement(scope.delta(), got, vulkan(), complex_operand, what);
  return copy(got, cpu());
}

// The extra trailing axis a c128 twin has.
inline Shape with_pair(Shape s, DType d) {
  if (d == DType::c128) s.push_back(2);
  return s;
}
inline Axes with_pair_axis(Axes a, std::int64_t rank, DType d) {
  if (d == DType::c128) a.push_back(rank);
  return a;
}

inline constexpr DType kComplex[] = {DType::c64, DType::c128};

// The same bits, element by element (NaN payloads and zeros' signs included).
template <class R>
void expect_complex_eq(const std::vector<Cplx<R>>& got, const std::vector<Cplx<R>>& want,
                       const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool same = std::memcmp(&got[i], &want[i], sizeof(Cplx<R>)) == 0;
    EXPECT_TRUE(same) << what << " element " << i << ": got " << got[i] << " want " << want[i];
    if (!same) return;
  }
}

}  // namespace vkt::testing::complex_native
