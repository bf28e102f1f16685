// Host <-> device transfers. Where working memory is host-mapped and cached, both are a
// memcpy. Otherwise uploads go through write-combined staging and read-backs through
// HOST_CACHED staging, in kChunk pieces over a ring of kSlots buffers, pipelined: the
// device copies chunk k+1.. while the cpu copies chunk k out.
#pragma once

#include <array>
#include <cstddef>

#include "vulkan/runtime/memory.h"
#include "vulkan/runtime/recorder.h"

namespace vkt::vk {

class Transfers {
 public:
  static constexpr VkDeviceSize kChunk = VkDeviceSize{16} << 20;
  static constexpr std::size_t kSlots = 3;
  // Uploads up to this size go inline (vkCmdUpdateBuffer; the limit is 65536, kept small
  // because the bytes are copied into the command buffer).
  static constexpr std::size_t kInlineBytes = 4096;

  Transfers(const Context& ctx, MemoryPool& pool, Recorder& recorder);
  // Writes bytes into a range no device work uses yet (a fresh allocation).
  void upload(const BufferRange& dst, const void* src, std::size_t nbytes);
  // Reads bytes of a range once all recorded work is complete.
  void download(const BufferRange& src, std::size_t offset, void* dst, std::size_t nbytes);
  // Copies bytes of a range into a host-visible buffer with one device copy, once all
  // recorded work is complete; the buffer's bytes are then readable by the host.
  void download_to_buffer(const BufferRange& src, const OwnedBuffer& dst, std::size_t nbytes);

 private:
  struct Slot {
    OwnedBuffer buffer;
    std::uint64_t busy_until = 0;  // timeline value of the last copy using it
  };
  Slot& slot(std::array<Slot, kSlots>& ring, std::size_t i, bool readback);
  void invalidate(const OwnedBuffer& b, VkDeviceSize offset, VkDeviceSize size);

  const Context& ctx_;
  MemoryPool& pool_;
  Recorder& recorder_;
  std::array<Slot, kSlots> upload_, readback_;
};

}  // namespace vkt::vk
