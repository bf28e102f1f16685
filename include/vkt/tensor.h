// Tensor: an immutable value (dtype, shape, storage on one backend). Row-major, contiguous.
// Tensors may be read and used by ops from any thread at once (backend.h, "Threads").
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <span>
#include <vector>

#include "vkt/backend.h"
#include "vkt/dtype.h"
#include "vkt/error.h"
#include "vkt/shape.h"

namespace vkt {

class Tensor {
 public:
  Tensor() = default;  // an empty handle; ops reject it
  Tensor(DType dtype, Shape shape, std::shared_ptr<Storage> storage);

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  std::int64_t rank() const { return static_cast<std::int64_t>(shape_.size()); }
  std::int64_t dim(std::int64_t axis) const;
  std::int64_t size() const { return numel(shape_); }
  std::size_t nbytes() const { return static_cast<std::size_t>(size()) * itemsize(dtype_); }
  bool defined() const { return storage_ != nullptr; }
  Backend& backend() const;
  const std::shared_ptr<Storage>& storage() const { return storage_; }

  // The tensor on the cpu: itself when it is there, else one read into host memory from a
  // pool (from a discrete GPU: pinned memory its copy engine writes directly). With
  // host_span, what a program does to use a result without another copy.
  Tensor to_cpu() const;
  // The elements of a tensor held in host memory, in place (no copy; valid while the
  // tensor lives). TypeError for another T; Error for a tensor on a device (see to_cpu).
  template <class T>
  std::span<const T> host_span() const;

  // Consumer reads: copy the elements to the host (a download when on a device). read_into
  // copies the storage (nbytes(): a narrow dtype's element a byte); to_bytes gives Nx's
  // binary (to_binary), s2/s4/u2/u4 packed as binary_nbytes says.
  template <class T>
  std::vector<T> to_vector() const;
  void read_into(std::span<std::byte> dst) const;
  std::vector<std::byte> to_bytes() const;
  // The first min(limit, size()) elements only (Nx's to_binary limit:): from a device only
  // those bytes are read, and the ledger counts only them. ShapeError for a negative limit.
  std::vector<std::byte> to_bytes(std::int64_t limit) const;
  // The single element of a size-1 tensor, converted to T.
  template <class T>
  T item() const;

 private:
  DType dtype_ = DType::f32;
  Shape shape_;
  std::shared_ptr<Storage> storage_;
};

// Creation from host data; `backend` defaults to default_backend(). `bytes` is Nx's binary
// of the dtype (binary_nbytes(dtype, n) of them: s2/s4/u2/u4 packed, the first element in
// the high bits; a last byte's unused low bits are ignored).
Tensor from_bytes(std::span<const std::byte> bytes, DType dtype, Shape shape,
                  Backend* backend = nullptr);
template <class T>
Tensor from_vector(const std::vector<T>& values, Shape shape, Backend* backend = nullptr) {
  return from_bytes(std::as_bytes(std::span<const T>(values)), dtype_of_v<T>, std::move(shape),
                    backend);
}
template <class T>
Tensor from_vector(const std::vector<T>& values, Backend* backend = nullptr) {
  return from_vector(values, Shape{static_cast<std::int64_t>(values.size())}, backend);
}

// Zero-copy import of host memory (Nx.from_pointer) on the cpu backend: the tensor's
// storage is `data` itself. The memory must stay valid and unchanged while any tensor made
// from it lives (reshape/squeeze results alias it too); `release`, when given, is called
// with `data` once the last of them is gone (for owned memory: the deleter). `data` must be
// aligned to the dtype's item size. Ops read it and write their results elsewhere.
Tensor from_pointer(const void* data, DType dtype, Shape shape,
                    std::function<void(const void*)> release = {});
// The host address of a cpu tensor's elements (Nx.to_pointer, local mode): valid while the
// tensor (or a tensor sharing its storage) lives; never write through it. A tensor on a
// device has no host address: Unsupported (call to_cpu() first and take that one's).
const void* to_pointer(const Tensor& t);

// The tensor as Nx prints it: "#Nx.Tensor<\n  f32[2][3]\n  [\n    [1.0, 2.0, 3.0], ..."; at
// most `limit` values are printed, the rest elided with "..." (Nx's inspect :limit). A
// device tensor adds a line naming its backend ("vktensor.Backend<vulkan:...>", as EXLA
// names its own); only the first limit + 1 elements are read from the device.
std::string inspect(const Tensor& t, std::int64_t limit = 50);
// Writes inspect(t).
std::ostream& operator<<(std::ostream& os, const Tensor& t);

// Frees t's storage now, before the last tensor sharing it is gone (Nx's deallocate, JAX's
// Array.delete()): a device's range goes back to its pool, host memory to the host pool, a
// from_pointer tensor's release hook runs. Every tensor sharing that storage (copies,
// reshape/squeeze views) is deallocated with it, and any later use of one (an op, a read,
// a transfer, host_span, to_pointer, a vkt::compile'd call) throws Deallocated naming the
// op. Work already given that reads the bytes (a batch the device has not run, a read in
// another thread, an exported NumPy or DLPack view) keeps them until it is done; a pointer
// taken before with host_span or to_pointer dangles after. True when this call freed it,
// false when it already was (Nx's :already_deallocated). Error for an empty tensor,
// Unsupported for a symbolic tensor inside vkt::compile.
bool deallocate(const Tensor& t);
// Whether t's storage was deallocated; false for an empty tensor (it holds no storage).
bool is_deallocated(const Tensor& t);

// Moves a tensor to `b` (the same backend: returned as is, no copy).
Tensor transfer(const Tensor& t, Backend& b);
// A copy on `b` with its own storage, even when `b` is t's backend.
Tensor copy(const Tensor& t, Backend& b);

namespace detail {
// A claim on t's bytes while `op` reads them (backend.h, StorageUse): Deallocated naming
// `op` once vkt::deallocate freed them; an empty tensor passes with an empty claim.
StorageUse use_bytes(const char* op, const Tensor& t);

// Asks for transparent huge pages on the 2 MiB-aligned interior of a fresh, untouched host
// buffer of `bytes`, so filling it costs a page fault per 2 MiB, not per 4 KiB. Advice only.
void advise_huge_pages(void* data, std::size_t bytes) noexcept;

// A vector of n value-initialised elements whose pages were advised before the first touch.
template <class T>
std::vector<T> fresh_vector(std::size_t n) {
  std::vector<T> out;
  out.reserve(n);
  advise_huge_pages(out.data(), n * sizeof(T));
  out.resize(n);
  return out;
}

// A copy of host elements in one pass: inserting into reserved capacity skips the zero
// fill that fresh_vector's resize pays before the data is copied in.
template <class T>
std::vector<T> copy_to_vector(const T* first, std::size_t n) {
  std::vector<T> out;
  out.reserve(n);
  advise_huge_pages(out.data(), n * sizeof(T));
  out.insert(out.end(), first, first + n);
  return out;
}
}  // namespace detail

template <class T>
std::span<const T> Tensor::host_span() const {
  if (dtype_of_v<T> != dtype_) {
    throw TypeError("[host_span] requested " + std::string(dtype_name(dtype_of_v<T>)) +
                    " from a tensor of dtype " + std::string(dtype_name(dtype_)));
  }
  if (storage_ && storage_->deallocated()) detail::use_bytes("host_span", *this);
  const void* p = storage_ ? storage_->host_data() : nullptr;
  if (p == nullptr && size() > 0) {
    throw Error("[host_span] the tensor is not in host memory (on " +
                (storage_ ? storage_->backend().name() : std::string("no backend")) +
                "); read it with to_cpu() first");
  }
  return {static_cast<const T*>(p), static_cast<std::size_t>(size())};
}

template <class T>
std::vector<T> Tensor::to_vector() const {
  if (!storage_) throw Error("[to_vector] the tensor is empty (default-constructed)");
  if (dtype_of_v<T> != dtype_) {
    throw TypeError("[to_vector] requested " + std::string(dtype_name(dtype_of_v<T>)) +
                    " from a tensor of dtype " + std::string(dtype_name(dtype_)));
  }
  const StorageUse use = detail::use_bytes("to_vector", *this);
  const auto n = static_cast<std::size_t>(size());
  if (const void* p = storage_->host_data(); p != nullptr && n > 0) {
    return detail::copy_to_vector(static_cast<const T*>(p), n);
  }
  std::vector<T> out = detail::fresh_vector<T>(n);
  read_into(std::as_writable_bytes(std::span<T>(out)));
  return out;
}

}  // namespace vkt

#include "vkt/cast.h"

namespace vkt {
template <class T>
T Tensor::item() const {
  if (!storage_) throw Error("[item] the tensor is empty (default-constructed)");
  const StorageUse use = detail::use_bytes("item", *this);
  if (size() != 1) {
    throw ShapeError("[item] needs a tensor of one element, got shape " + shape_str(shape_));
  }
  const std::vector<std::byte> bytes = to_bytes();
  if (is_narrow(dtype_)) {
    std::uint8_t code = static_cast<std::uint8_t>(bytes.at(0));
    if (bit_width(dtype_) < 8) code = static_cast<std::uint8_t>(code >> (8 - bit_width(dtype_)));
    if (is_integer(dtype_)) return convert<T>(narrow_to_int(dtype_, code));
    return convert<T>(narrow_to_double(dtype_, code));
  }
  return visit_any_dtype(dtype_, [&](auto tag) {
    using S = typename decltype(tag)::type;
    S v;
    std::memcpy(&v, bytes.data(), sizeof(S));
    return convert<T>(v);
  });
}
}  // namespace vkt
