// Movement on the device: concatenate of same-dtype inputs along an outer axis (every dim
// before it is 1, e.g. axis 0), as one device copy per input into the output. Inner-axis
// concatenate and the other movement ops are not native yet (the core falls back).
#include "vkt/ledger.h"
#include "vulkan/backend.h"

namespace vkt::vk {
namespace {

struct CopyPush {
  std::uint32_t n, src_offset, dst_offset;
};

bool outer_axis_concatenate(const OpCall& call) {
  const std::int64_t axis = call.get<AxisParams>().axis;
  for (std::int64_t a = 0; a < axis; ++a) {
    if (call.out_shape[static_cast<std::size_t>(a)] != 1) return false;
  }
  for (const Tensor& t : call.inputs) {
    if (t.dtype() != call.out_dtype) return false;
  }
  return true;
}

}  // namespace

void copy_range(VulkanBackend& b, const Tensor& src, const Tensor& dst, std::uint64_t src_offset,
                std::uint64_t dst_offset, std::uint64_t bytes) {
  if (bytes == 0) return;
  const BufferRange& s = vulkan_storage(*src.storage()).range();
  const BufferRange& d = vulkan_storage(*dst.storage()).range();
  // The shader copies whole words; it is used only where nothing past `bytes` can be
  // clobbered and the words fit the descriptor range limit.
  const bool words_ok = src_offset % 4 == 0 && dst_offset % 4 == 0 &&
                        (bytes % 4 == 0 || dst_offset + bytes == dst.nbytes()) &&
                        std::max(s.size, d.size) <= b.context().limits().max_storage_range;
  if (b.copy_path() == CopyPath::compute_shader && words_ok) {
    const Pipeline p = b.pipelines().get("movement_copy", 2, {});
    const std::uint64_t words = (bytes + 3) / 4;
    CopyPush push{static_cast<std::uint32_t>(words), static_cast<std::uint32_t>(src_offset / 4),
                  static_cast<std::uint32_t>(dst_offset / 4)};
    b.dispatch(p, {{&src, false}, {&dst, true}}, &push, sizeof(push), words);
  } else {
    VkCommandBuffer cmd =
        b.recorder().begin_command({{s.buffer, s.offset + src_offset, bytes, false},
                                    {d.buffer, d.offset + dst_offset, bytes, true}});
    const VkBufferCopy region{s.offset + src_offset, d.offset + dst_offset, bytes};
    vkCmdCopyBuffer(cmd, s.buffer, d.buffer, 1, &region);
    b.recorder().end_command();
    b.recorder().hold(src.storage());
    b.recorder().hold(dst.storage());
  }
  ledger::record_device_copy(bytes);
}

bool movement_supported(const VulkanBackend&, const OpCall& call) {
  return call.op == Op::concatenate && outer_axis_concatenate(call);
}

Tensor run_movement(VulkanBackend& b, const OpCall& call) {
  if (call.op != Op::concatenate) {
    throw Unsupported("[" + std::string(op_name(call.op)) + "] has no native " + b.name() +
                      " kernel");
  }
  Tensor out = b.make_output(call);
  std::uint64_t offset = 0;
  for (const Tensor& t : call.inputs) {
    copy_range(b, t, out, 0, offset, t.nbytes());
    offset += t.nbytes();
  }
  return out;
}

}  // namespace vkt::vk
