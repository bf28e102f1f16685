// The error hierarchy. Every message starts with "[op]" and names the offending values.
#pragma once

#include <stdexcept>
#include <string>

namespace vkt {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

#define VKT_DEFINE_ERROR(Name) \
  class Name : public Error {  \
   public:                     \
    using Error::Error;        \
  };
VKT_DEFINE_ERROR(ShapeError)
VKT_DEFINE_ERROR(AxisError)
VKT_DEFINE_ERROR(TypeError)
VKT_DEFINE_ERROR(IncompatibleBackends)
VKT_DEFINE_ERROR(Unsupported)
VKT_DEFINE_ERROR(FallbackForbidden)
VKT_DEFINE_ERROR(OutOfMemory)
VKT_DEFINE_ERROR(DeviceLost)
VKT_DEFINE_ERROR(NoDevice)
// A matrix the op cannot factor: singular (solve), not positive definite (cholesky).
VKT_DEFINE_ERROR(LinAlgError)
// A tensor whose storage vkt::deallocate freed, used again (as JAX's deleted arrays).
VKT_DEFINE_ERROR(Deallocated)
#undef VKT_DEFINE_ERROR

}  // namespace vkt
