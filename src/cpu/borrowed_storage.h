// What the cpu's fused groups (compiled.cpp, compiled_rows.cpp) share: the size of a block
// and host bytes the group does not own, wrapped as a tensor without a copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "vkt/backend.h"
#include "vkt/tensor.h"

namespace vkt::cpu_kernels {

// 128 KiB of f32: at the host pool's minimum, so the block arena's buffers (block_arena.h)
// are recycled, not faulted in afresh each time malloc trims and regrows its heap (a third
// of the time at 8192).
inline constexpr std::int64_t kFusedBlockElements = 32768;

// Host bytes the group does not own (a leaf's block or rows, an inline scalar).
class BorrowedStorage final : public Storage {
 public:
  BorrowedStorage(const void* data, std::size_t nbytes) : Storage(cpu(), nbytes), data_(data) {}
  const void* host_data() const override { return data_; }

 private:
  const void* data_;
};

// A tensor over `data`, which must outlive it.
inline Tensor borrowed(const void* data, DType dtype, Shape shape) {
  const std::size_t bytes = static_cast<std::size_t>(numel(shape)) * itemsize(dtype);
  return Tensor(dtype, std::move(shape), std::make_shared<BorrowedStorage>(data, bytes));
}

}  // namespace vkt::cpu_kernels
