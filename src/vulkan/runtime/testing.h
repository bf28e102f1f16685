// Test hooks for the default Vulkan device (tests/conformance only).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "vkt/backend/op_call.h"
#include "vulkan/compile/compiled_rows_variant.h"
#include "vulkan/ops/linalg_dot_choice.h"
#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/context.h"

namespace vkt::vk::testing {

// A second backend on the default device with its own VkDevice, pool and recorder, for a
// test that breaks it or needs two devices. Drop its tensors before it.
std::unique_ptr<Backend> separate_backend();
// The next queue submit, semaphore wait or counter query of Vulkan backend `b` returns
// VK_ERROR_DEVICE_LOST without calling the driver; `b` then takes a real loss's path.
void inject_device_lost(Backend& b);
bool device_lost(const Backend& b);
// The default device's pool cap (VKT_VK_POOL_CAP_MB; default 90% of the largest heap).
std::uint64_t pool_cap();
// Sets backend `b`'s cap (a separate_backend()), then frees its idle blocks and resets its
// peaks: as if its pool had been made under that cap. Without `b`: the default device's.
void set_pool_cap(Backend& b, std::uint64_t bytes);
void set_pool_cap(std::uint64_t bytes);

// While disabled, supports() says false for `op`, so the core falls back to the cpu.
void set_native_disabled(Op op, bool disabled);
// Pretend the device has a smaller maxStorageBufferRange / maxMemoryAllocationSize.
void set_storage_range_limit(std::uint64_t bytes);
void set_allocation_limit(std::uint64_t bytes);
DeviceLimits device_limits();
DeviceCaps device_caps();
// Force the device-to-device copy path (default: measured, see copy_path.cpp).
void set_copy_path(CopyPath path);
CopyPath copy_path();
// Copies up to this many bytes take vkCmdCopyBuffer whatever copy_path() says
// (VulkanBackend::copy_path_for); set_copy_path sets it to 0.
std::uint64_t small_copy_max();
void set_small_copy_max(std::uint64_t bytes);
// Whether the default device's f32 arithmetic flushes subnormals (VulkanBackend::flushes_f32).
bool f32_flushes();
// Its rules as if it did (true) or did not (false); nullopt: as probed. Synchronizes first.
void set_f32_flushes(std::optional<bool> flushes);
// Subgroup shuffles in reduction trees (default: where the device offers them).
void set_subgroup_reductions(bool allowed);
bool subgroup_reductions();
// Bytes of device memory the pool holds, and a trim of its unused blocks.
std::uint64_t pool_bytes();
void trim_pool();
// Whether released ranges return to the pool while batches may still use them
// (MemoryPool::queue_ordered: working memory the host never maps).
bool pool_queue_ordered();
// Barriers the recorder inserted for hazards inside batches so far.
std::uint64_t hazard_barriers();
// Ops per submitted piece of a batch (0: none; by default 4 on GPUs, 0 on CPU devices). The
// setter synchronizes.
std::uint32_t flush_ops();
void set_flush_ops(std::uint32_t n);
// The kernel the last native dot took (linalg.cpp), so a test can tell which one it checked.
DotKernel last_dot_kernel();
// arg reductions recorded by value then place so far (reduce_locate.cpp).
std::uint64_t arg_locate_runs();
// Whether the last native conv took the im2col + GEMM path (conv.cpp; the conv_gemm override).
bool last_conv_took_gemm();
// Whether the last native conv took Winograd's algorithms (conv_winograd.cpp).
bool last_conv_winograd();
// K splits of the last implicit-GEMM conv (1: none).
std::uint32_t last_conv_splits();
// Working memory is host-mapped (no staging); VKT_VK_STAGING=1 turns it off.
bool host_mapped();
// The longest line sorted inside one workgroup (longer ones take the radix sort); 0 forces
// the radix sort everywhere. Default: no limit.
std::uint64_t sort_local_max();
void set_sort_local_max(std::uint64_t n);
// Whether the radix sort takes 8-bit digits where not forced to 4 (the device has ballots).
bool sort_radix8_available();
// set_row_variant: compiled_rows_variant.h (vkt-bench chain --rows sets it too).
// vkt::compile's row kernels compiled from now on take tiers or not (nullopt: back to the
// rule, compile_tiers()), and how many kernels have taken their later tier so far.
void set_compile_tiers(const std::optional<bool>& on);
std::uint64_t row_kernel_promotions();
// How many dot groups' kernels have replaced their quick first tier so far.
std::uint64_t dot_kernel_promotions();
// Calls whose flagged first tier (first_rare=flag) met a rare operand and were run again by
// the full kernel.
std::uint64_t row_kernel_rare_reruns();
// Calls run unfused because their kernel's flagged first tier would wait for the device
// (the full kernel not ready yet), and a hold that keeps full kernels from being made.
std::uint64_t row_kernel_unfused_runs();
void hold_later_tiers(bool held);

}  // namespace vkt::vk::testing
