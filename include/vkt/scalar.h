// A literal number passed to an op. Literals are "weak" as in Nx: they take the type of the
// tensor they meet (a float literal with an integer tensor gives f32). A complex literal
// is weak towards complex tensors and makes a real tensor complex (Nx infers it as c64).
#pragma once

#include <complex>
#include <cstdint>
#include <type_traits>

#include "vkt/dtype.h"

namespace vkt {

class Scalar {
 public:
  enum class Kind : std::uint8_t { signed_int, unsigned_int, floating, complex };

  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  Scalar(T v) {  // NOLINT(google-explicit-constructor): literals convert implicitly
    if constexpr (std::is_floating_point_v<T>) {
      kind_ = Kind::floating;
      f_ = static_cast<double>(v);
    } else if constexpr (std::is_signed_v<T>) {
      kind_ = Kind::signed_int;
      i_ = static_cast<std::int64_t>(v);
    } else {
      kind_ = Kind::unsigned_int;
      u_ = static_cast<std::uint64_t>(v);
    }
  }
  Scalar(f16 v) : kind_(Kind::floating), f_(static_cast<float>(v)) {}   // NOLINT
  Scalar(bf16 v) : kind_(Kind::floating), f_(static_cast<float>(v)) {}  // NOLINT
  template <class R>
  Scalar(std::complex<R> v)  // NOLINT(google-explicit-constructor)
      : kind_(Kind::complex),
        f_(static_cast<double>(v.real())),
        im_(static_cast<double>(v.imag())) {
    static_assert(std::is_floating_point_v<R>, "complex literals have float components");
  }

  Kind kind() const { return kind_; }
  bool is_float() const { return kind_ == Kind::floating; }
  bool is_complex() const { return kind_ == Kind::complex; }
  // The value as a double; a complex literal gives its real part.
  double as_double() const;
  std::complex<double> as_complex() const {
    return {as_double(), kind_ == Kind::complex ? im_ : 0.0};
  }
  // The value converted to T; float to integer saturates and NaN becomes 0 (Nx's as_type);
  // complex to a real T takes the real part.
  template <class T>
  T as() const;
  // The dtype a weak literal takes when it meets a tensor of dtype `other`.
  DType weak_type_with(DType other) const;
  // The dtype the literal has on its own: s64, u64, f32 or c64 (Nx's defaults).
  DType default_type() const;

 private:
  Kind kind_ = Kind::signed_int;
  std::int64_t i_ = 0;
  std::uint64_t u_ = 0;
  double f_ = 0.0;  // floating value, or a complex literal's real part
  double im_ = 0.0;
};

}  // namespace vkt

#include "vkt/cast.h"

namespace vkt {
template <class T>
T Scalar::as() const {
  switch (kind_) {
    case Kind::floating:
      return convert<T>(f_);
    case Kind::complex:
      return convert<T>(std::complex<double>(f_, im_));
    case Kind::signed_int:
      return convert<T>(i_);
    case Kind::unsigned_int:
      return convert<T>(u_);
  }
  return T{};
}
}  // namespace vkt
