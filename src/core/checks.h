// Error helpers for op validation: every message starts with "[op]".
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "vkt/error.h"
#include "vkt/tensor.h"

namespace vkt::detail {

template <class E>
[[noreturn]] void fail(std::string_view op, const std::string& message) {
  throw E("[" + std::string(op) + "] " + message);
}

inline std::string describe(const Tensor& t) {
  return std::string(dtype_name(t.dtype())) + " " + shape_str(t.shape());
}

// Every op's front door: an empty tensor is an Error, a deallocated one Deallocated, both
// naming the op the user called (dispatch checks again, and claims the bytes, for the
// inner ops a call is built of).
inline void check_defined(std::string_view op, const Tensor& t) {
  if (!t.defined()) fail<Error>(op, "got an empty (default-constructed) tensor");
  if (t.storage()->deallocated()) {
    fail<Deallocated>(op, "the tensor " + describe(t) + " was deallocated (vkt::deallocate)");
  }
}

// A value Nx takes as a scalar tensor (pad's value, window_scatter's init_value): a
// defined rank-0 tensor, else a ShapeError naming the op, the role and what came.
inline void check_rank_zero(std::string_view op, std::string_view role, const Tensor& t) {
  check_defined(op, t);
  if (t.rank() != 0) {
    fail<ShapeError>(op, std::string(role) + " must be a rank-0 tensor, got " + describe(t));
  }
}

// The index dtype of argmax/argmin/argsort (Nx's :type): an integer dtype whose range holds
// `largest`, the greatest index the op can return; a TypeError naming both otherwise.
void check_index_type(std::string_view op, DType type, std::int64_t largest);

// The most bytes one tensor may have: 256 TiB, more than any machine's memory and far from
// the wrap-around of int64 and size_t arithmetic, so no size computed below it overflows.
inline constexpr std::int64_t kMaxTensorBytes = std::int64_t{1} << 48;

// Checks a shape once, in the core, before anything is sized from it: no negative
// dimension, and an element count and byte count computed without overflow and within
// kMaxTensorBytes. ShapeError naming the op, the dtype and the shape otherwise.
inline void check_size(std::string_view op, std::span<const std::int64_t> shape, DType dtype) {
  std::int64_t elements = 1;
  bool overflow = false;
  for (std::int64_t d : shape) {
    if (d < 0) {
      fail<ShapeError>(op, "shape " + shape_str(shape) + " has a negative dimension");
    }
    overflow = overflow || __builtin_mul_overflow(elements, d, &elements);
  }
  std::int64_t bytes = 0;
  overflow = overflow ||
             __builtin_mul_overflow(elements, static_cast<std::int64_t>(itemsize(dtype)), &bytes);
  if (overflow || bytes > kMaxTensorBytes) {
    fail<ShapeError>(op, std::string(dtype_name(dtype)) + " shape " + shape_str(shape) +
                             " needs more than 2^48 bytes (the most one tensor may have)");
  }
}

// Sums and products of user-given sizes (pad widths, strides, windows): a result past int64
// is a ShapeError naming the op and `what`, never a wrapped value a kernel would index with.
inline std::int64_t checked_add(std::string_view op, const std::string& what, std::int64_t a,
                                std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) fail<ShapeError>(op, what + " overflows int64");
  return r;
}
inline std::int64_t checked_mul(std::string_view op, const std::string& what, std::int64_t a,
                                std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) fail<ShapeError>(op, what + " overflows int64");
  return r;
}

// Two inputs on different non-cpu backends: IncompatibleBackends naming `op`. Ops built on
// other ops (stack on concatenate, matmul on dot) check first, so the error names them.
void check_backends(std::string_view op, std::span<const Tensor> inputs);
// The same over tensors named in place ({a, b}): no copies, which at small sizes cost an
// allocation each (a Tensor holds its shape).
void check_backends(std::string_view op,
                    std::initializer_list<std::reference_wrapper<const Tensor>> inputs);

// Runs f; an OutOfMemory or DeviceLost from below is rethrown with `context` (which starts
// with "[op]") in front, so the caller's op is named, with the same type.
template <class F>
decltype(auto) naming_failures(const std::string& context, F&& f) {
  try {
    return f();
  } catch (const OutOfMemory& e) {
    throw OutOfMemory(context + ": " + e.what());
  } catch (const DeviceLost& e) {
    throw DeviceLost(context + ": " + e.what());
  }
}

// naming_failures with the context made by `context()` only when something is rethrown.
template <class G, class F>
decltype(auto) naming_failures_lazily(G&& context, F&& f) {
  try {
    return f();
  } catch (const OutOfMemory& e) {
    throw OutOfMemory(context() + ": " + e.what());
  } catch (const DeviceLost& e) {
    throw DeviceLost(context() + ": " + e.what());
  }
}

// For ops Nx does not define on complex numbers (orderings, rounding, bit-level ops).
inline void check_not_complex(std::string_view op, const Tensor& t, std::string_view role = "") {
  if (!t.defined() || !is_complex(t.dtype())) return;
  fail<TypeError>(op, "is not defined for complex numbers, got " +
                          (role.empty() ? std::string() : std::string(role) + " ") + describe(t));
}

}  // namespace vkt::detail
