// A literal number passed to an op. Literals are "weak" as in Nx: they take the type of the
// tensor they meet (a float literal with an integer tensor gives f32).
#pragma once

#include <cstdint>
#include <type_traits>

#include "vkt/dtype.h"

namespace vkt {

class Scalar {
 public:
  enum class Kind : std::uint8_t { signed_int, unsigned_int, floating };

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

  Kind kind() const { return kind_; }
  bool is_float() const { return kind_ == Kind::floating; }
  double as_double() const;
  // The value converted to T; float to integer saturates and NaN becomes 0 (Nx's as_type).
  template <class T>
  T as() const;
  // The dtype a weak literal takes when it meets a tensor of dtype `other`.
  DType weak_type_with(DType other) const;
  // The dtype the literal has on its own: s64, u64 or f32 (Nx's defaults).
  DType default_type() const;

 private:
  Kind kind_ = Kind::signed_int;
  std::int64_t i_ = 0;
  std::uint64_t u_ = 0;
  double f_ = 0.0;
};

}  // namespace vkt

#include "vkt/cast.h"

namespace vkt {
template <class T>
T Scalar::as() const {
  switch (kind_) {
    case Kind::floating:
      return convert<T>(f_);
    case Kind::signed_int:
      return convert<T>(i_);
    case Kind::unsigned_int:
      return convert<T>(u_);
  }
  return T{};
}
}  // namespace vkt
