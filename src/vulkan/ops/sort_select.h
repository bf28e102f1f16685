// top_k of small k by selection rather than a full sort of every line (sort_select.cpp,
// shaders/sort_select.comp); sort.cpp takes it where top_k_select_plan() says so.
#pragma once

#include <cstdint>
#include <vector>

#include "vkt/backend/op_call.h"
#include "vkt/tensor.h"

namespace vkt::vk {

class VulkanBackend;

// One dispatch: lines of `len` items (input elements, or the candidates of the level before)
// cut into `tiles` segments of `tile_len`; each segment's first k items go on, held in
// `p` slots of the workgroup's `cap`.
struct SelectLevel {
  std::uint64_t len = 0, tiles = 1, tile_len = 0, p = 0;
};

// cap: items a workgroup holds; tile: the longest segment (longer lines are cut into tiles of
// this length); k2: the power of two >= k; levels: empty where top_k sorts.
struct SelectPlan {
  std::uint64_t cap = 0, tile = 0, k2 = 0;
  std::vector<SelectLevel> levels;
};

// The selection's dispatches for a top_k call, or no levels where the full sort takes it
// (k too large for the device's shared memory, the test hook, limits).
SelectPlan top_k_select_plan(const VulkanBackend& b, const OpCall& call);

// Records the plan's dispatches into `out` (s64, lines x k). k > 0, every line non-empty.
void run_top_k_select(VulkanBackend& b, const OpCall& call, const SelectPlan& plan,
                      const Tensor& out);

namespace testing {
// While set, every top_k takes the full sort (sort.cpp), so tests reach its top_k output.
void set_top_k_select_disabled(bool disabled);
}  // namespace testing

}  // namespace vkt::vk
