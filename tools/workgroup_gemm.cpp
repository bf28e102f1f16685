#include "workgroup_gemm.h"

#include <map>
#include <tuple>
#include <utility>

#include "spirv_writer.h"

namespace probe {
namespace {

// SPIR-V opcodes and enumerants used here (SPIR-V 1.5, SPV_KHR_cooperative_matrix and
// SPV_NV_tensor_addressing).
enum : std::uint32_t {
  kOpExtension = 10,
  kOpMemoryModel = 14,
  kOpEntryPoint = 15,
  kOpExecutionMode = 16,
  kOpCapability = 17,
  kOpTypeVoid = 19,
  kOpTypeBool = 20,
  kOpTypeInt = 21,
  kOpTypeFloat = 22,
  kOpTypeVector = 23,
  kOpTypeRuntimeArray = 29,
  kOpTypeStruct = 30,
  kOpTypePointer = 32,
  kOpTypeFunction = 33,
  kOpConstant = 43,
  kOpConstantComposite = 44,
  kOpCopyObject = 83,
  kOpTypeArray = 28,
  kOpStore = 62,
  kOpISub = 130,
  kOpUDiv = 134,
  kOpUMod = 137,
  kOpControlBarrier = 224,
  kOpFunction = 54,
  kOpFunctionEnd = 56,
  kOpVariable = 59,
  kOpLoad = 61,
  kOpAccessChain = 65,
  kOpDecorate = 71,
  kOpMemberDecorate = 72,
  kOpCompositeExtract = 81,
  kOpIAdd = 128,
  kOpIMul = 132,
  kOpSelect = 169,
  kOpULessThan = 176,
  kOpPhi = 245,
  kOpLoopMerge = 246,
  kOpLabel = 248,
  kOpBranch = 249,
  kOpBranchConditional = 250,
  kOpReturn = 253,
  kOpTypeCooperativeMatrixKHR = 4456,
  kOpCooperativeMatrixLoadKHR = 4457,
  kOpCooperativeMatrixStoreKHR = 4458,
  kOpCooperativeMatrixMulAddKHR = 4459,
  kOpCooperativeMatrixLoadTensorNV = 5367,
  kOpTypeTensorLayoutNV = 5370,
  kOpCreateTensorLayoutNV = 5372,
  kOpTensorLayoutSetDimensionNV = 5373,
  kOpTensorLayoutSliceNV = 5375,
  kCapShader = 1,
  kCapFloat16 = 9,
  kCapStorageBuffer16BitAccess = 4433,
  kCapVulkanMemoryModel = 5345,
  kCapCooperativeMatrixKHR = 6022,
  kCapCooperativeMatrixTensorAddressingNV = 5433,
  kCapTensorAddressingNV = 5439,
  kStorageInput = 1,
  kStorageWorkgroup = 4,
  kStoragePushConstant = 9,
  kStorageBuffer = 12,
  kDecoBlock = 2,
  kDecoArrayStride = 6,
  kDecoBuiltIn = 11,
  kDecoBinding = 33,
  kDecoDescriptorSet = 34,
  kDecoOffset = 35,
  kBuiltInLocalInvocationId = 27,
  kBuiltInWorkgroupId = 26,
  kScopeWorkgroup = 2,
  kUseA = 0,
  kUseB = 1,
  kUseAccumulator = 2,
  kRowMajor = 0,
  kColumnMajor = 1,
};

}  // namespace

std::vector<std::uint32_t> workgroup_gemm_spirv(const WorkgroupGemm& g) {
  SpirvWriter w;
  std::vector<std::uint32_t> head, decorations, globals, code;
  w.op(head, kOpCapability, {kCapShader});
  w.op(head, kOpCapability, {kCapFloat16});
  w.op(head, kOpCapability, {kCapStorageBuffer16BitAccess});
  const bool staged = g.loop == WorkgroupGemm::Loop::staged;
  // The staged loop's shared-memory copies are ordered by plain barriers: GLSL450's model.
  if (!staged) w.op(head, kOpCapability, {kCapVulkanMemoryModel});
  w.op(head, kOpCapability, {kCapCooperativeMatrixKHR});
  if (g.tensor_loads) {
    w.op(head, kOpCapability, {kCapCooperativeMatrixTensorAddressingNV});
    w.op(head, kOpCapability, {kCapTensorAddressingNV});
  }
  w.op_str(head, kOpExtension, {}, "SPV_KHR_cooperative_matrix");
  if (g.tensor_loads) {
    w.op_str(head, kOpExtension, {}, "SPV_NV_cooperative_matrix2");
    w.op_str(head, kOpExtension, {}, "SPV_NV_tensor_addressing");
  }
  w.op(head, kOpMemoryModel, {0 /* Logical */, staged ? 1u /* GLSL450 */ : 3u /* Vulkan */});

  const std::uint32_t t_void = w.id(), t_fn = w.id(), t_bool = w.id(), t_u32 = w.id(),
                      t_f16 = w.id(), t_f32 = w.id(), t_v3u = w.id();
  w.op(globals, kOpTypeVoid, {t_void});
  w.op(globals, kOpTypeFunction, {t_fn, t_void});
  w.op(globals, kOpTypeBool, {t_bool});
  w.op(globals, kOpTypeInt, {t_u32, 32, 0});
  w.op(globals, kOpTypeFloat, {t_f16, 16});
  w.op(globals, kOpTypeFloat, {t_f32, 32});
  w.op(globals, kOpTypeVector, {t_v3u, t_u32, 3});
  std::map<std::uint32_t, std::uint32_t> u32s;
  auto u32 = [&](std::uint32_t v) {
    auto it = u32s.find(v);
    if (it != u32s.end()) return it->second;
    const std::uint32_t c = w.id();
    w.op(globals, kOpConstant, {t_u32, c, v});
    return u32s[v] = c;
  };
  const std::uint32_t c0 = u32(0), c1 = u32(1), c2 = u32(2), c_bm = u32(g.bm), c_bn = u32(g.bn),
                      c_bk = u32(g.bk), c_scope = u32(kScopeWorkgroup), c_use_a = u32(kUseA),
                      c_use_b = u32(kUseB), c_use_acc = u32(kUseAccumulator),
                      c_row_major = u32(kRowMajor), c_column_major = u32(kColumnMajor);
  const std::uint32_t f_zero = w.id();
  w.op(globals, kOpConstant, {t_f32, f_zero, 0});

  // Buffers: struct { T v[]; } at set 0, bindings 0..2.
  const std::uint32_t t_arr_h = w.id(), t_arr_f = w.id(), t_buf_h = w.id(), t_buf_f = w.id();
  w.op(globals, kOpTypeRuntimeArray, {t_arr_h, t_f16});
  w.op(globals, kOpTypeRuntimeArray, {t_arr_f, t_f32});
  w.op(globals, kOpTypeStruct, {t_buf_h, t_arr_h});
  w.op(globals, kOpTypeStruct, {t_buf_f, t_arr_f});
  w.op(decorations, kOpDecorate, {t_arr_h, kDecoArrayStride, 2});
  w.op(decorations, kOpDecorate, {t_arr_f, kDecoArrayStride, 4});
  for (std::uint32_t t : {t_buf_h, t_buf_f}) {
    w.op(decorations, kOpDecorate, {t, kDecoBlock});
    w.op(decorations, kOpMemberDecorate, {t, 0, kDecoOffset, 0});
  }
  const std::uint32_t p_buf_h = w.id(), p_buf_f = w.id(), p_h = w.id(), p_f = w.id();
  w.op(globals, kOpTypePointer, {p_buf_h, kStorageBuffer, t_buf_h});
  w.op(globals, kOpTypePointer, {p_buf_f, kStorageBuffer, t_buf_f});
  w.op(globals, kOpTypePointer, {p_h, kStorageBuffer, t_f16});
  w.op(globals, kOpTypePointer, {p_f, kStorageBuffer, t_f32});
  const std::uint32_t v_a = w.id(), v_b = w.id(), v_c = w.id();
  w.op(globals, kOpVariable, {p_buf_h, v_a, kStorageBuffer});
  w.op(globals, kOpVariable, {p_buf_h, v_b, kStorageBuffer});
  w.op(globals, kOpVariable, {p_buf_f, v_c, kStorageBuffer});
  std::uint32_t binding = 0;
  for (std::uint32_t v : {v_a, v_b, v_c}) {
    w.op(decorations, kOpDecorate, {v, kDecoDescriptorSet, 0});
    w.op(decorations, kOpDecorate, {v, kDecoBinding, binding++});
  }
  // Push constants: struct { uint m, n, k; }.
  const std::uint32_t t_push = w.id(), p_push = w.id(), p_push_u = w.id(), v_push = w.id();
  w.op(globals, kOpTypeStruct, {t_push, t_u32, t_u32, t_u32});
  w.op(decorations, kOpDecorate, {t_push, kDecoBlock});
  for (std::uint32_t m = 0; m < 3; ++m) {
    w.op(decorations, kOpMemberDecorate, {t_push, m, kDecoOffset, 4 * m});
  }
  w.op(globals, kOpTypePointer, {p_push, kStoragePushConstant, t_push});
  w.op(globals, kOpTypePointer, {p_push_u, kStoragePushConstant, t_u32});
  w.op(globals, kOpVariable, {p_push, v_push, kStoragePushConstant});
  // gl_WorkGroupID.
  const std::uint32_t p_in_v3u = w.id(), v_group = w.id();
  w.op(globals, kOpTypePointer, {p_in_v3u, kStorageInput, t_v3u});
  w.op(globals, kOpVariable, {p_in_v3u, v_group, kStorageInput});
  w.op(decorations, kOpDecorate, {v_group, kDecoBuiltIn, kBuiltInWorkgroupId});
  // The workgroup-scope matrices.
  const std::uint32_t t_ma = w.id(), t_mb = w.id(), t_acc = w.id(), acc_zero = w.id();
  w.op(globals, kOpTypeCooperativeMatrixKHR, {t_ma, t_f16, c_scope, c_bm, c_bk, c_use_a});
  w.op(globals, kOpTypeCooperativeMatrixKHR, {t_mb, t_f16, c_scope, c_bk, c_bn, c_use_b});
  w.op(globals, kOpTypeCooperativeMatrixKHR, {t_acc, t_f32, c_scope, c_bm, c_bn, c_use_acc});
  w.op(globals, kOpConstantComposite, {t_acc, acc_zero, f_zero});
  // Tensor loads: a 2-D layout type (clamp mode Undefined: every slice is inside), and the
  // operand matrices' zero values (a tensor load's Object operand).
  const std::uint32_t t_layout = w.id(), h_zero = w.id(), ma_zero = w.id(), mb_zero = w.id();
  if (g.tensor_loads) {
    w.op(globals, kOpTypeTensorLayoutNV, {t_layout, c2, c0});
    w.op(globals, kOpConstant, {t_f16, h_zero, 0});
    w.op(globals, kOpConstantComposite, {t_ma, ma_zero, h_zero});
    w.op(globals, kOpConstantComposite, {t_mb, mb_zero, h_zero});
  }

  // Staged: A and B also as uvec4 arrays (the same bindings), the invocation's index, and
  // two stages of A [BM][BK / 8 + 1] and B [BK][BN / 8 + 1] uvec4 rows in shared memory.
  const std::uint32_t pad = g.padded ? 1 : 0;
  const std::uint32_t a_pitch = g.bk / 8 + pad, b_pitch = g.bn / 8 + pad;
  const std::uint32_t a_size = g.bm * a_pitch, b_size = g.bk * b_pitch;
  const std::uint32_t t_v4u = w.id(), t_arr_v4 = w.id(), t_buf_v4 = w.id(), p_buf_v4 = w.id(),
                      p_v4 = w.id(), v_a4 = w.id(), v_b4 = w.id(), t_sh = w.id(), p_sh = w.id(),
                      p_sh_v4 = w.id(), v_sh = w.id(), v_local = w.id();
  std::vector<std::uint32_t> interface { v_a, v_b, v_c, v_push, v_group };
  if (staged) {
    w.op(globals, kOpTypeVector, {t_v4u, t_u32, 4});
    w.op(globals, kOpTypeRuntimeArray, {t_arr_v4, t_v4u});
    w.op(decorations, kOpDecorate, {t_arr_v4, kDecoArrayStride, 16});
    w.op(globals, kOpTypeStruct, {t_buf_v4, t_arr_v4});
    w.op(decorations, kOpDecorate, {t_buf_v4, kDecoBlock});
    w.op(decorations, kOpMemberDecorate, {t_buf_v4, 0, kDecoOffset, 0});
    w.op(globals, kOpTypePointer, {p_buf_v4, kStorageBuffer, t_buf_v4});
    w.op(globals, kOpTypePointer, {p_v4, kStorageBuffer, t_v4u});
    w.op(globals, kOpVariable, {p_buf_v4, v_a4, kStorageBuffer});
    w.op(globals, kOpVariable, {p_buf_v4, v_b4, kStorageBuffer});
    for (std::uint32_t b = 0; b < 2; ++b) {
      w.op(decorations, kOpDecorate, {b == 0 ? v_a4 : v_b4, kDecoDescriptorSet, 0});
      w.op(decorations, kOpDecorate, {b == 0 ? v_a4 : v_b4, kDecoBinding, b});
    }
    w.op(globals, kOpTypeArray, {t_sh, t_v4u, u32(2 * (a_size + b_size))});
    w.op(globals, kOpTypePointer, {p_sh, kStorageWorkgroup, t_sh});
    w.op(globals, kOpTypePointer, {p_sh_v4, kStorageWorkgroup, t_v4u});
    w.op(globals, kOpVariable, {p_sh, v_sh, kStorageWorkgroup});
    w.op(globals, kOpVariable, {p_in_v3u, v_local, kStorageInput});
    w.op(decorations, kOpDecorate, {v_local, kDecoBuiltIn, kBuiltInLocalInvocationId});
    interface.insert(interface.end(), {v_a4, v_b4, v_sh, v_local});
  }

  const std::uint32_t f_main = w.id();
  w.op_str(head, kOpEntryPoint, {5 /* GLCompute */, f_main}, "main", interface);
  w.op(head, kOpExecutionMode, {f_main, 17 /* LocalSize */, g.invocations, 1, 1});

  const std::uint32_t l_entry = w.id(), l_header = w.id(), l_body = w.id(), l_continue = w.id(),
                      l_merge = w.id();
  const std::uint32_t group = w.id(), gx = w.id(), gy = w.id(), pn = w.id(), n = w.id(),
                      pk = w.id(), k_end = w.id(), m0 = w.id(), n0 = w.id(), row_a = w.id(),
                      row_b = w.id();
  w.op(code, kOpFunction, {t_void, f_main, 0, t_fn});
  w.op(code, kOpLabel, {l_entry});
  w.op(code, kOpLoad, {t_v3u, group, v_group});
  w.op(code, kOpCompositeExtract, {t_u32, gx, group, 0});
  w.op(code, kOpCompositeExtract, {t_u32, gy, group, 1});
  w.op(code, kOpAccessChain, {p_push_u, pn, v_push, c1});
  w.op(code, kOpLoad, {t_u32, n, pn});
  w.op(code, kOpAccessChain, {p_push_u, pk, v_push, c2});
  w.op(code, kOpLoad, {t_u32, k_end, pk});
  w.op(code, kOpIMul, {t_u32, m0, gy, c_bm});
  w.op(code, kOpIMul, {t_u32, n0, gx, c_bn});
  w.op(code, kOpIMul, {t_u32, row_a, m0, k_end});
  w.op(code, kOpIMul, {t_u32, row_b, n0, k_end});
  const std::uint32_t pm = w.id(), m = w.id(), layout0 = w.id(), layout_a = w.id(),
                      layout_b = w.id(), ptr_a0 = w.id(), ptr_b0 = w.id();
  if (g.tensor_loads) {  // A as an M x K tensor, B as K x N, both row-major (packed)
    w.op(code, kOpAccessChain, {p_push_u, pm, v_push, c0});
    w.op(code, kOpLoad, {t_u32, m, pm});
    w.op(code, kOpCreateTensorLayoutNV, {t_layout, layout0});
    w.op(code, kOpTensorLayoutSetDimensionNV, {t_layout, layout_a, layout0, m, k_end});
    w.op(code, kOpTensorLayoutSetDimensionNV, {t_layout, layout_b, layout0, k_end, n});
    w.op(code, kOpAccessChain, {p_h, ptr_a0, v_a, c0, c0});
    w.op(code, kOpAccessChain, {p_h, ptr_b0, v_b, c0, c0});
  }
  // The BM x BK block of A and the BK x BN block of B at step `at`, into the current block.
  auto load_blocks = [&](std::uint32_t at) {
    const std::uint32_t ma = w.id(), mb = w.id();
    if (g.tensor_loads) {  // slices (offset, span) per dimension; no memory or tensor operands
      const std::uint32_t slice_a = w.id(), slice_b = w.id();
      w.op(code, kOpTensorLayoutSliceNV, {t_layout, slice_a, layout_a, m0, c_bm, at, c_bk});
      w.op(code, kOpCooperativeMatrixLoadTensorNV, {t_ma, ma, ptr_a0, ma_zero, slice_a, 0, 0});
      w.op(code, kOpTensorLayoutSliceNV, {t_layout, slice_b, layout_b, at, c_bk, n0, c_bn});
      w.op(code, kOpCooperativeMatrixLoadTensorNV, {t_mb, mb, ptr_b0, mb_zero, slice_b, 0, 0});
    } else {
      const std::uint32_t off_a = w.id(), ptr_a = w.id(), kn = w.id(), off_b = w.id(),
                          ptr_b = w.id();
      w.op(code, kOpIAdd, {t_u32, off_a, row_a, at});
      w.op(code, kOpAccessChain, {p_h, ptr_a, v_a, c0, off_a});
      w.op(code, kOpCooperativeMatrixLoadKHR, {t_ma, ma, ptr_a, c_row_major, k_end});
      if (g.b_transposed) {  // B^T's rows n0.., columns at..: column-major B, stride K
        w.op(code, kOpIAdd, {t_u32, off_b, row_b, at});
        w.op(code, kOpAccessChain, {p_h, ptr_b, v_b, c0, off_b});
        w.op(code, kOpCooperativeMatrixLoadKHR, {t_mb, mb, ptr_b, c_column_major, k_end});
      } else {
        w.op(code, kOpIMul, {t_u32, kn, at, n});
        w.op(code, kOpIAdd, {t_u32, off_b, kn, n0});
        w.op(code, kOpAccessChain, {p_h, ptr_b, v_b, c0, off_b});
        w.op(code, kOpCooperativeMatrixLoadKHR, {t_mb, mb, ptr_b, c_row_major, n});
      }
    }
    return std::pair{ma, mb};
  };
  using Loop = WorkgroupGemm::Loop;
  std::pair<std::uint32_t, std::uint32_t> first{0, 0};
  if (g.loop == Loop::prefetch || g.loop == Loop::peak) first = load_blocks(c0);

  // Staged: invocation t copies uvec4 units t, t + invocations, ... of each block; unit u of
  // A sits at row u / (BK / 8), column unit u % (BK / 8) (B: BN / 8 per row). Their global
  // offsets without the step's k, and their shared offsets within a stage, are fixed.
  const std::uint32_t a_units = g.bm * g.bk / 8, b_units = g.bk * g.bn / 8;
  std::vector<std::uint32_t> a_global, a_shared, b_global, b_shared;
  std::uint32_t k8 = 0, n8 = 0;
  const std::uint32_t c_sem = u32(0x108);  // AcquireRelease | WorkgroupMemory
  auto barrier = [&] { w.op(code, kOpControlBarrier, {c2, c2, c_sem}); };
  // fetch: the invocation's units of step `at`, loaded (their value ids); store: values into
  // shared stage `stage`.
  auto fetch = [&](std::uint32_t at) {
    std::vector<std::uint32_t> values;
    const std::uint32_t at8 = w.id(), at_n8 = w.id();
    w.op(code, kOpUDiv, {t_u32, at8, at, u32(8)});
    w.op(code, kOpIMul, {t_u32, at_n8, at, n8});
    for (std::size_t r = 0; r < a_global.size() + b_global.size(); ++r) {
      const bool is_a = r < a_global.size();
      const std::uint32_t index = w.id(), ptr = w.id(), value = w.id();
      w.op(code, kOpIAdd,
           {t_u32, index, is_a ? a_global[r] : b_global[r - a_global.size()], is_a ? at8 : at_n8});
      w.op(code, kOpAccessChain, {p_v4, ptr, is_a ? v_a4 : v_b4, c0, index});
      w.op(code, kOpLoad, {t_v4u, value, ptr});
      values.push_back(value);
    }
    return values;
  };
  auto store = [&](const std::vector<std::uint32_t>& values, std::uint32_t stage) {
    const std::uint32_t a_base = w.id(), b_stage = w.id(), b_base = w.id();
    w.op(code, kOpIMul, {t_u32, a_base, stage, u32(a_size)});
    w.op(code, kOpIMul, {t_u32, b_stage, stage, u32(b_size)});
    w.op(code, kOpIAdd, {t_u32, b_base, b_stage, u32(2 * a_size)});
    for (std::size_t r = 0; r < values.size(); ++r) {
      const bool is_a = r < a_shared.size();
      const std::uint32_t index = w.id(), ptr = w.id();
      w.op(code, kOpIAdd,
           {t_u32, index, is_a ? a_base : b_base,
            is_a ? a_shared[r] : b_shared[r - a_shared.size()]});
      w.op(code, kOpAccessChain, {p_sh_v4, ptr, v_sh, index});
      w.op(code, kOpStore, {ptr, values[r]});
    }
  };
  if (staged) {
    const std::uint32_t local = w.id(), tid = w.id(), n0_8 = w.id();
    k8 = w.id(), n8 = w.id();
    w.op(code, kOpLoad, {t_v3u, local, v_local});
    w.op(code, kOpCompositeExtract, {t_u32, tid, local, 0});
    w.op(code, kOpUDiv, {t_u32, k8, k_end, u32(8)});
    w.op(code, kOpUDiv, {t_u32, n8, n, u32(8)});
    w.op(code, kOpUDiv, {t_u32, n0_8, n0, u32(8)});
    for (int operand = 0; operand < 2; ++operand) {
      const bool is_a = operand == 0;
      const std::uint32_t units = is_a ? a_units : b_units;
      const std::uint32_t per_row = (is_a ? g.bk : g.bn) / 8, pitch = is_a ? a_pitch : b_pitch;
      for (std::uint32_t first_unit = 0; first_unit < units; first_unit += g.invocations) {
        const std::uint32_t u = w.id(), row = w.id(), col = w.id(), g_row = w.id(),
                            g_row_units = w.id(), global = w.id(), sh_row = w.id(), shared = w.id();
        w.op(code, kOpIAdd, {t_u32, u, tid, u32(first_unit)});
        w.op(code, kOpUDiv, {t_u32, row, u, u32(per_row)});
        w.op(code, kOpUMod, {t_u32, col, u, u32(per_row)});
        if (is_a) {  // A's unit (m0 + row) * K / 8 + col, + k / 8 per step
          w.op(code, kOpIAdd, {t_u32, g_row, m0, row});
          w.op(code, kOpIMul, {t_u32, g_row_units, g_row, k8});
        } else {  // B's unit row * N / 8 + n0 / 8 + col, + k * N / 8 per step
          w.op(code, kOpIMul, {t_u32, g_row, row, n8});
          w.op(code, kOpIAdd, {t_u32, g_row_units, g_row, n0_8});
        }
        w.op(code, kOpIAdd, {t_u32, global, g_row_units, col});
        w.op(code, kOpIMul, {t_u32, sh_row, row, u32(pitch)});
        w.op(code, kOpIAdd, {t_u32, shared, sh_row, col});
        (is_a ? a_global : b_global).push_back(global);
        (is_a ? a_shared : b_shared).push_back(shared);
      }
    }
    store(fetch(c0), c0);
    barrier();
  }
  w.op(code, kOpBranch, {l_header});

  const std::uint32_t k = w.id(), acc = w.id(), k_next = w.id(), acc_next = w.id(), more = w.id();
  const std::uint32_t a_cur = w.id(), b_cur = w.id();
  std::pair<std::uint32_t, std::uint32_t> next{0, 0};
  const std::uint32_t a_next = w.id(), b_next = w.id();  // the prefetch's phi operands
  w.op(code, kOpLabel, {l_header});
  w.op(code, kOpPhi, {t_u32, k, c0, l_entry, k_next, l_continue});
  w.op(code, kOpPhi, {t_acc, acc, acc_zero, l_entry, acc_next, l_continue});
  if (g.loop == Loop::prefetch) {
    w.op(code, kOpPhi, {t_ma, a_cur, first.first, l_entry, a_next, l_continue});
    w.op(code, kOpPhi, {t_mb, b_cur, first.second, l_entry, b_next, l_continue});
  }
  const std::uint32_t stage = w.id(), other = w.id();  // staged: the stage read, the one filled
  if (staged) w.op(code, kOpPhi, {t_u32, stage, c0, l_entry, other, l_continue});
  w.op(code, kOpULessThan, {t_bool, more, k, k_end});
  w.op(code, kOpLoopMerge, {l_merge, l_continue, 0});
  w.op(code, kOpBranchConditional, {more, l_body, l_merge});

  w.op(code, kOpLabel, {l_body});
  std::uint32_t ma = first.first, mb = first.second;
  std::vector<std::uint32_t> staged_values;
  std::uint32_t acc_in = acc;  // plain: the unrolled steps' chain of sums
  if (g.loop == Loop::plain) {
    for (std::uint32_t u = 0; u + 1 < g.unroll; ++u) {
      std::uint32_t at = k;
      if (u > 0) {
        at = w.id();
        w.op(code, kOpIAdd, {t_u32, at, k, u32(u * g.bk)});
      }
      const auto [a_u, b_u] = load_blocks(at);
      const std::uint32_t sum = w.id();
      w.op(code, kOpCooperativeMatrixMulAddKHR, {t_acc, sum, a_u, b_u, acc_in});
      acc_in = sum;
    }
    std::uint32_t at = k;
    if (g.unroll > 1) {
      at = w.id();
      w.op(code, kOpIAdd, {t_u32, at, k, u32((g.unroll - 1) * g.bk)});
    }
    std::tie(ma, mb) = load_blocks(at);
  } else if (g.loop == Loop::prefetch) {
    // The next step's blocks (the last step loads its own again: never past the end).
    const std::uint32_t after = w.id(), inside = w.id(), at = w.id();
    w.op(code, kOpIAdd, {t_u32, after, k, c_bk});
    w.op(code, kOpULessThan, {t_bool, inside, after, k_end});
    w.op(code, kOpSelect, {t_u32, at, inside, after, k});
    next = load_blocks(at);
    ma = a_cur, mb = b_cur;
  } else if (staged) {
    // The next step's units into registers, this step's blocks from shared memory, the
    // multiply, the registers into the other stage, one barrier (the last step loads its
    // own units again: never past the end).
    const std::uint32_t after = w.id(), inside = w.id(), at = w.id();
    w.op(code, kOpIAdd, {t_u32, after, k, c_bk});
    w.op(code, kOpULessThan, {t_bool, inside, after, k_end});
    w.op(code, kOpSelect, {t_u32, at, inside, after, k});
    staged_values = fetch(at);
    const std::uint32_t a_at = w.id(), b_stage = w.id(), b_at = w.id(), ptr_a = w.id(),
                        ptr_b = w.id();
    ma = w.id(), mb = w.id();
    w.op(code, kOpIMul, {t_u32, a_at, stage, u32(a_size)});
    w.op(code, kOpIMul, {t_u32, b_stage, stage, u32(b_size)});
    w.op(code, kOpIAdd, {t_u32, b_at, b_stage, u32(2 * a_size)});
    w.op(code, kOpAccessChain, {p_sh_v4, ptr_a, v_sh, a_at});
    w.op(code, kOpCooperativeMatrixLoadKHR, {t_ma, ma, ptr_a, c_row_major, u32(a_pitch)});
    w.op(code, kOpAccessChain, {p_sh_v4, ptr_b, v_sh, b_at});
    w.op(code, kOpCooperativeMatrixLoadKHR, {t_mb, mb, ptr_b, c_row_major, u32(b_pitch)});
    w.op(code, kOpISub, {t_u32, other, c1, stage});
  }
  w.op(code, kOpCooperativeMatrixMulAddKHR, {t_acc, acc_next, ma, mb, acc_in});
  if (staged) {
    store(staged_values, other);
    barrier();
  }
  w.op(code, kOpBranch, {l_continue});

  w.op(code, kOpLabel, {l_continue});
  w.op(code, kOpIAdd, {t_u32, k_next, k, g.loop == Loop::plain ? u32(g.unroll * g.bk) : c_bk});
  if (g.loop == Loop::prefetch) {  // copies under the ids the header's phis name
    w.op(code, kOpCopyObject, {t_ma, a_next, next.first});
    w.op(code, kOpCopyObject, {t_mb, b_next, next.second});
  }
  w.op(code, kOpBranch, {l_header});

  const std::uint32_t m0n = w.id(), off_c = w.id(), ptr_c = w.id();
  w.op(code, kOpLabel, {l_merge});
  w.op(code, kOpIMul, {t_u32, m0n, m0, n});
  w.op(code, kOpIAdd, {t_u32, off_c, m0n, n0});
  w.op(code, kOpAccessChain, {p_f, ptr_c, v_c, c0, off_c});
  w.op(code, kOpCooperativeMatrixStoreKHR, {ptr_c, acc, c_row_major, n});
  w.op(code, kOpReturn, {});
  w.op(code, kOpFunctionEnd, {});
  return w.module(0x00010500u, {&head, &decorations, &globals, &code});
}

std::uint32_t workgroup_gemm_shared_bytes(const WorkgroupGemm& g) {
  if (g.loop != WorkgroupGemm::Loop::staged) return 0;
  const std::uint32_t pad = g.padded ? 1 : 0;
  return 2 * (g.bm * (g.bk / 8 + pad) + g.bk * (g.bn / 8 + pad)) * 16;
}

}  // namespace probe
