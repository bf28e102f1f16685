#include "vkt/scalar.h"

namespace vkt {

double Scalar::as_double() const {
  switch (kind_) {
    case Kind::floating:
    case Kind::complex:
      return f_;
    case Kind::signed_int:
      return static_cast<double>(i_);
    case Kind::unsigned_int:
      return static_cast<double>(u_);
  }
  return 0.0;
}

DType Scalar::weak_type_with(DType other) const {
  if (kind_ == Kind::complex) return promote(other, DType::c64);
  if (kind_ == Kind::floating && is_integer(other)) return DType::f32;
  return other;
}

DType Scalar::default_type() const {
  switch (kind_) {
    case Kind::floating:
      return DType::f32;
    case Kind::complex:
      return DType::c64;
    case Kind::signed_int:
      return DType::s64;
    case Kind::unsigned_int:
      return DType::u64;
  }
  return DType::f32;
}

}  // namespace vkt
