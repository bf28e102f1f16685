#include "vkt/tensor.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/checks.h"
#include "core/dispatch.h"
#include "core/host_storage.h"
#include "core/narrow.h"
#include "vkt/backend/op_call.h"
#include "vkt/ledger.h"

namespace vkt {
Tensor::Tensor(DType dtype, Shape shape, std::shared_ptr<Storage> storage)
    : dtype_(dtype), shape_(std::move(shape)), storage_(std::move(storage)) {
  detail::check_size("tensor", shape_, dtype_);
  if (storage_ == nullptr || storage_->nbytes() < nbytes()) {
    throw ShapeError("[tensor] storage of " + std::to_string(storage_ ? storage_->nbytes() : 0) +
                     " bytes is too small for " + std::string(dtype_name(dtype_)) + " " +
                     shape_str(shape_));
  }
}

std::int64_t Tensor::dim(std::int64_t axis) const {
  return shape_[static_cast<std::size_t>(normalize_axis("dim", axis, rank()))];
}

Backend& Tensor::backend() const {
  if (!storage_) throw Error("[tensor] the tensor is empty (default-constructed)");
  return storage_->backend();
}

void Tensor::read_into(std::span<std::byte> dst) const {
  if (!storage_) throw Error("[read_into] the tensor is empty (default-constructed)");
  const StorageUse use = detail::use_bytes("read_into", *this);
  if (dst.size() != nbytes()) {
    throw ShapeError("[read_into] destination holds " + std::to_string(dst.size()) +
                     " bytes, the tensor " + std::to_string(nbytes()));
  }
  if (dst.empty()) return;
  if (const void* p = storage_->host_data()) {
    std::memcpy(dst.data(), p, dst.size());
    return;
  }
  Backend& b = storage_->backend();
  detail::naming_failures("[read_into] " + detail::describe(*this) + " from " + b.name(),
                          [&] { b.to_host(*storage_, 0, dst.data(), dst.size()); });
  ledger::record_download(dst.size());
}

namespace {
// Nx's binary of a sub-byte dtype's storage codes (other dtypes' bytes are their binary).
std::vector<std::byte> packed(DType d, std::vector<std::byte> codes) {
  if (bit_width(d) >= 8) return codes;
  std::vector<std::byte> out(binary_nbytes(d, static_cast<std::int64_t>(codes.size())));
  detail::pack_narrow(
      d, std::span(reinterpret_cast<const std::uint8_t*>(codes.data()), codes.size()), out);
  return out;
}
}  // namespace

std::vector<std::byte> Tensor::to_bytes() const {
  if (!storage_) throw Error("[to_bytes] the tensor is empty (default-constructed)");
  const StorageUse use = detail::use_bytes("to_bytes", *this);
  if (const void* p = storage_->host_data(); p != nullptr && nbytes() > 0) {
    return packed(dtype_, detail::copy_to_vector(static_cast<const std::byte*>(p), nbytes()));
  }
  std::vector<std::byte> out = detail::fresh_vector<std::byte>(nbytes());
  read_into(out);
  return packed(dtype_, std::move(out));
}

std::vector<std::byte> Tensor::to_bytes(std::int64_t limit) const {
  if (!storage_) throw Error("[to_bytes] the tensor is empty (default-constructed)");
  const StorageUse use = detail::use_bytes("to_bytes", *this);
  if (limit < 0) {
    throw ShapeError("[to_bytes] limit " + std::to_string(limit) + " must be >= 0");
  }
  const std::size_t n = static_cast<std::size_t>(std::min(limit, size())) * itemsize(dtype_);
  if (n == nbytes()) return to_bytes();
  if (n == 0) return {};
  if (const void* p = storage_->host_data()) {
    return packed(dtype_, detail::copy_to_vector(static_cast<const std::byte*>(p), n));
  }
  std::vector<std::byte> out = detail::fresh_vector<std::byte>(n);
  Backend& b = storage_->backend();
  detail::naming_failures("[to_bytes] the first " + std::to_string(n) + " bytes of " +
                              detail::describe(*this) + " from " + b.name(),
                          [&] { b.to_host(*storage_, 0, out.data(), n); });
  ledger::record_download(n);
  return packed(dtype_, std::move(out));
}

Tensor from_bytes(std::span<const std::byte> bytes, DType dtype, Shape shape, Backend* backend) {
  detail::check_size("from_bytes", shape, dtype);
  const std::size_t expected = binary_nbytes(dtype, numel(shape));
  if (bytes.size() != expected) {
    throw ShapeError("[from_bytes] " + std::to_string(bytes.size()) + " bytes given, " +
                     std::string(dtype_name(dtype)) + " " + shape_str(shape) + " needs " +
                     std::to_string(expected));
  }
  std::vector<std::byte> codes;  // a sub-byte dtype's elements, a byte each
  if (bit_width(dtype) < 8) {
    codes.resize(static_cast<std::size_t>(numel(shape)));
    detail::unpack_narrow(dtype, bytes,
                          std::span(reinterpret_cast<std::uint8_t*>(codes.data()), codes.size()));
    bytes = codes;
  }
  Backend& b = backend != nullptr ? *backend : default_backend();
  if (b.is_cpu()) {
    auto storage = std::make_shared<HostStorage>(b, bytes.size());
    if (!bytes.empty()) std::memcpy(storage->data(), bytes.data(), bytes.size());
    return Tensor(dtype, std::move(shape), std::move(storage));
  }
  auto storage = detail::naming_failures(
      "[from_bytes] " + std::string(dtype_name(dtype)) + " " + shape_str(shape) + " (" +
          std::to_string(bytes.size()) + " bytes) to " + b.name(),
      [&] { return b.from_host(bytes.data(), bytes.size()); });
  ledger::record_upload(bytes.size());
  return Tensor(dtype, std::move(shape), std::move(storage));
}

Tensor transfer(const Tensor& t, Backend& b) {
  detail::check_defined("transfer", t);
  const StorageUse use = detail::use_bytes("transfer", t);
  Backend& src = t.backend();
  if (&src == &b) return t;
  // Formatted only on failure: a host-held op input (an index list) passes here every call.
  const auto context = [&] {
    return "[transfer] " + detail::describe(t) + " from " + src.name() + " to " + b.name();
  };
  if (b.is_cpu()) {
    auto direct = detail::naming_failures_lazily(
        context, [&] { return src.to_host_storage(*t.storage(), t.nbytes(), b); });
    if (direct) {
      ledger::record_download(t.nbytes());
      return Tensor(t.dtype(), t.shape(), std::move(direct));
    }
    auto storage = std::make_shared<HostStorage>(b, t.nbytes());
    t.read_into(std::span<std::byte>(static_cast<std::byte*>(storage->data()), t.nbytes()));
    return Tensor(t.dtype(), t.shape(), std::move(storage));
  }
  if (src.is_cpu()) {
    auto storage = detail::naming_failures_lazily(
        context, [&] { return b.from_host(t.storage()->host_data(), t.nbytes()); });
    ledger::record_upload(t.nbytes());
    return Tensor(t.dtype(), t.shape(), std::move(storage));
  }
  // Between two devices: through the host, both crossings counted, and the move itself by
  // its path.
  Tensor moved = transfer(transfer(t, cpu()), b);
  ledger::record_cross_device_host_staged(t.nbytes());
  return moved;
}

Tensor Tensor::to_cpu() const {
  if (!storage_) throw Error("[to_cpu] the tensor is empty (default-constructed)");
  const StorageUse use = detail::use_bytes("to_cpu", *this);
  return transfer(*this, cpu());
}

Tensor copy(const Tensor& t, Backend& b) {
  detail::check_defined("copy", t);
  const StorageUse use = detail::use_bytes("copy", t);
  if (&t.backend() != &b) return transfer(t, b);
  OpCall call{Op::copy, {t}, NoParams{}, t.dtype(), t.shape(), &b};
  if (b.takes_every_call() || b.supports(call)) {
    return detail::naming_failures("[copy] " + detail::describe(t) + " on " + b.name(),
                                   [&] { return b.execute(call); });
  }
  return transfer(transfer(t, cpu()), b);
}

}  // namespace vkt
