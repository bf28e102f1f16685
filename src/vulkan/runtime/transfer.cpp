#include "vulkan/runtime/transfer.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/host_parallel.h"
#include "vulkan/runtime/check.h"

namespace vkt::vk {

Transfers::Transfers(const Context& ctx, MemoryPool& pool, Recorder& recorder)
    : ctx_(ctx), pool_(pool), recorder_(recorder) {}

Transfers::Slot& Transfers::slot(std::array<Slot, kSlots>& ring, std::size_t i, bool readback) {
  Slot& s = ring[i % kSlots];
  if (!s.buffer.buffer) {
    if (readback) {
      s.buffer =
          create_buffer(ctx_, kChunk, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                        VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    } else {
      // Write-combined: host-visible and coherent, preferably not cached.
      s.buffer =
          create_buffer(ctx_, kChunk, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                        0, VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    }
  }
  return s;
}

void Transfers::invalidate(const OwnedBuffer& b, VkDeviceSize offset, VkDeviceSize size) {
  if (b.coherent) return;
  const VkDeviceSize atom = std::max<VkDeviceSize>(ctx_.limits().non_coherent_atom, 1);
  const VkDeviceSize begin = offset / atom * atom;
  VkDeviceSize end = (offset + size + atom - 1) / atom * atom;
  VkMappedMemoryRange r{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  r.memory = b.memory.get();
  r.offset = begin;
  r.size = end >= b.size ? VK_WHOLE_SIZE : end - begin;
  VKT_VK(vkInvalidateMappedMemoryRanges, ctx_.device(), 1, &r);
}

void Transfers::upload(const BufferRange& dst, const void* src, std::size_t nbytes) {
  if (nbytes == 0) return;
  if (dst.mapped != nullptr) {
    // Host-coherent memory no device work uses yet: a plain memcpy;
    // the next submit makes it visible to the device.
    host::parallel_memcpy(dst.mapped, src, static_cast<std::int64_t>(nbytes));
    return;
  }
  if (dst.write_mapped != nullptr) {
    // A small upload's range (MemoryPool::Kind::small_uploads), as above: no command, so no
    // barrier before the op that reads it.
    std::memcpy(dst.write_mapped, src, nbytes);
    return;
  }
  const auto* bytes = static_cast<const std::byte*>(src);
  if (nbytes <= kInlineBytes) {
    // Small data (scalar operands, index lists) rides inside the command buffer: no
    // staging slot, so no submit or wait. Padded to whole words within the range.
    // Whole words go straight from `src`; only a ragged tail is copied (and zero-padded),
    // not a 4 KiB buffer per scalar.
    const VkDeviceSize padded = (nbytes + 3) / 4 * 4;
    const void* data = bytes;
    std::array<std::byte, kInlineBytes> words;
    if (padded != nbytes) {
      std::memcpy(words.data(), bytes, nbytes);
      std::memset(words.data() + nbytes, 0, padded - nbytes);
      data = words.data();
    }
    VkCommandBuffer cmd = recorder_.begin_command({{dst.buffer, dst.offset, padded, true}});
    vkCmdUpdateBuffer(cmd, dst.buffer, dst.offset, padded, data);
    recorder_.end_command();
    return;
  }
  const std::size_t chunks = (nbytes + kChunk - 1) / kChunk;
  for (std::size_t k = 0; k < chunks; ++k) {
    Slot& s = slot(upload_, k, false);
    if (s.busy_until >= recorder_.pending_value()) recorder_.submit();
    recorder_.wait(s.busy_until);
    const VkDeviceSize off = k * kChunk;
    const VkDeviceSize n = std::min<VkDeviceSize>(kChunk, nbytes - off);
    host::parallel_memcpy(s.buffer.mapped, bytes + off, static_cast<std::int64_t>(n));
    VkCommandBuffer cmd = recorder_.begin_command({{dst.buffer, dst.offset + off, n, true}});
    VkBufferCopy region{0, dst.offset + off, n};
    vkCmdCopyBuffer(cmd, s.buffer.buffer.get(), dst.buffer, 1, &region);
    s.busy_until = recorder_.pending_value();  // before end_command, which may submit
    recorder_.end_command();
  }
}

void Transfers::download(const BufferRange& src, std::size_t offset, void* dst,
                         std::size_t nbytes) {
  if (nbytes == 0) return;
  if (src.mapped != nullptr) {
    recorder_.finish();
    host::parallel_memcpy(dst, src.mapped + offset, static_cast<std::int64_t>(nbytes));
    return;
  }
  auto* out = static_cast<std::byte*>(dst);
  const std::size_t chunks = (nbytes + kChunk - 1) / kChunk;
  std::vector<std::uint64_t> done(chunks, 0);
  auto issue = [&](std::size_t k) {
    Slot& s = slot(readback_, k, true);
    const VkDeviceSize off = k * kChunk;
    const VkDeviceSize n = std::min<VkDeviceSize>(kChunk, nbytes - off);
    VkCommandBuffer cmd =
        recorder_.begin_command({{src.buffer, src.offset + offset + off, n, false}});
    VkBufferCopy region{src.offset + offset + off, 0, n};
    vkCmdCopyBuffer(cmd, src.buffer, s.buffer.buffer.get(), 1, &region);
    recorder_.end_command();
    done[k] = recorder_.submit();
    s.busy_until = done[k];
  };
  for (std::size_t k = 0; k < std::min(chunks, kSlots); ++k) issue(k);
  for (std::size_t k = 0; k < chunks; ++k) {
    recorder_.wait(done[k]);
    Slot& s = readback_[k % kSlots];
    const VkDeviceSize off = k * kChunk;
    const VkDeviceSize n = std::min<VkDeviceSize>(kChunk, nbytes - off);
    invalidate(s.buffer, 0, n);
    host::parallel_memcpy(out + off, s.buffer.mapped, static_cast<std::int64_t>(n));
    if (k + kSlots < chunks) issue(k + kSlots);
  }
}

void Transfers::download_to_buffer(const BufferRange& src, const OwnedBuffer& dst,
                                   std::size_t nbytes) {
  if (nbytes == 0) return;
  VkCommandBuffer cmd = recorder_.begin_command({{src.buffer, src.offset, nbytes, false}});
  VkBufferCopy region{src.offset, 0, nbytes};
  vkCmdCopyBuffer(cmd, src.buffer, dst.buffer.get(), 1, &region);
  recorder_.end_command();
  recorder_.wait(recorder_.submit());
  invalidate(dst, 0, nbytes);
}

}  // namespace vkt::vk
