// The probe's hand-written SPIR-V (tools/workgroup_gemm.cpp) checked by SPIRV-Tools' validator.
// Debian 12's SPIRV-Tools predates SPV_KHR_cooperative_matrix, so each module is first
// rewritten to the older SPV_NV_cooperative_matrix forms (the same operands less the KHR
// use and layout, which only the driver reads): what the validator then sees is the rest
// of the module, its types, control flow, memory and interface. Tensor-addressing loads
// have no older form and stay out.
#include "workgroup_gemm.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <spirv-tools/libspirv.hpp>
#include <string>
#include <vector>

#include "spirv_writer.h"

namespace {

// SPV_KHR_cooperative_matrix -> SPV_NV_cooperative_matrix, instruction by instruction.
std::vector<std::uint32_t> as_nv_coopmat(const std::vector<std::uint32_t>& khr) {
  probe::SpirvWriter names;
  std::vector<std::uint32_t> khr_name, nv_name;
  names.op_str(khr_name, 10, {}, "SPV_KHR_cooperative_matrix");
  names.op_str(nv_name, 10, {}, "SPV_NV_cooperative_matrix");
  std::vector<std::uint32_t> out(khr.begin(), khr.begin() + 5);
  const std::uint32_t column_major = out[3]++;  // a new id: OpConstantFalse
  for (std::size_t at = 5; at < khr.size();) {
    const std::uint32_t count = khr[at] >> 16, opcode = khr[at] & 0xffffu;
    std::vector<std::uint32_t> ops(khr.begin() + at + 1, khr.begin() + at + count);
    at += count;
    auto emit = [&](std::uint32_t op, const std::vector<std::uint32_t>& operands) {
      out.push_back(static_cast<std::uint32_t>((operands.size() + 1) << 16) | op);
      out.insert(out.end(), operands.begin(), operands.end());
    };
    if (opcode == 17 && ops[0] == 6022) {
      emit(17, {5357});  // CooperativeMatrixNV
    } else if (opcode == 10 &&
               std::vector<std::uint32_t>(khr_name.begin() + 1, khr_name.end()) == ops) {
      out.insert(out.end(), nv_name.begin(), nv_name.end());
    } else if (opcode == 20) {  // OpTypeBool, then the constant the NV loads and stores take
      emit(20, ops);
      emit(42, {ops[0], column_major});
    } else if (opcode == 4456) {  // type: result, component, scope, rows, columns (no use)
      emit(5358, {ops[0], ops[1], ops[2], ops[3], ops[4]});
    } else if (opcode == 4457) {  // load: type, result, pointer, stride, column-major
      emit(5359, {ops[0], ops[1], ops[2], ops[4], column_major});
    } else if (opcode == 4458) {  // store: pointer, object, stride, column-major
      emit(5360, {ops[0], ops[1], ops[3], column_major});
    } else if (opcode == 4459) {
      emit(5361, ops);
    } else {
      emit(opcode, ops);
    }
  }
  return out;
}

// The validator's verdict, with its messages where it refuses.
testing::AssertionResult valid(const std::vector<std::uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string messages;
  tools.SetMessageConsumer(
      [&](spv_message_level_t, const char*, const spv_position_t& p, const char* m) {
        messages += "word " + std::to_string(p.index) + ": " + m + "\n";
      });
  if (tools.Validate(words)) return testing::AssertionSuccess();
  return testing::AssertionFailure() << messages;
}

// Whether no KHR cooperative-matrix instruction or capability is left (the rewrite is whole).
bool only_nv_coopmat(const std::vector<std::uint32_t>& words) {
  for (std::size_t at = 5; at < words.size(); at += words[at] >> 16) {
    const std::uint32_t opcode = words[at] & 0xffffu;
    if ((opcode >= 4456 && opcode <= 4459) || (opcode == 17 && words[at + 1] == 6022)) {
      return false;
    }
  }
  return true;
}

using Loop = probe::WorkgroupGemm::Loop;

TEST(WorkgroupGemmSpirv, EveryLoopValidates) {
  for (const Loop loop : {Loop::plain, Loop::prefetch, Loop::peak, Loop::staged}) {
    for (const probe::WorkgroupGemm g : {probe::WorkgroupGemm{128, 128, 32, 256, false, loop},
                                         probe::WorkgroupGemm{64, 128, 32, 128, false, loop}}) {
      const std::vector<std::uint32_t> nv = as_nv_coopmat(probe::workgroup_gemm_spirv(g));
      EXPECT_TRUE(only_nv_coopmat(nv));
      EXPECT_TRUE(valid(nv)) << "loop " << static_cast<int>(loop) << " block " << g.bm << "x"
                             << g.bn << "x" << g.bk;
    }
  }
}

// The plain loop with its steps written out, and B held transposed.
TEST(WorkgroupGemmSpirv, UnrolledAndTransposedLoopsValidate) {
  for (const std::uint32_t unroll : {1u, 4u, 8u}) {
    for (const bool b_transposed : {false, true}) {
      probe::WorkgroupGemm g{128, 256, 64, 256};
      g.unroll = unroll;
      g.b_transposed = b_transposed;
      const std::vector<std::uint32_t> nv = as_nv_coopmat(probe::workgroup_gemm_spirv(g));
      EXPECT_TRUE(only_nv_coopmat(nv));
      EXPECT_TRUE(valid(nv)) << "unroll " << unroll << " transposed " << b_transposed;
    }
  }
}

// The check can fail: a loop header without its merge instruction is refused.
TEST(WorkgroupGemmSpirv, AMissingLoopMergeIsRefused) {
  const std::vector<std::uint32_t> words =
      as_nv_coopmat(probe::workgroup_gemm_spirv({128, 128, 32, 256}));
  std::vector<std::uint32_t> broken(words.begin(), words.begin() + 5);
  for (std::size_t at = 5; at < words.size();) {
    const std::uint32_t count = words[at] >> 16;
    if ((words[at] & 0xffffu) != 246) {  // OpLoopMerge
      broken.insert(broken.end(), words.begin() + at, words.begin() + at + count);
    }
    at += count;
  }
  ASSERT_LT(broken.size(), words.size());
  EXPECT_FALSE(valid(broken));
}

TEST(WorkgroupGemmSpirv, StagedSharedMemoryIsTwoPaddedStages) {
  // A [128][32 / 8 + 1] and B [32][128 / 8 + 1] uvec4 rows, twice.
  EXPECT_EQ(probe::workgroup_gemm_shared_bytes({128, 128, 32, 256, false, Loop::staged}),
            2u * (128 * 5 + 32 * 17) * 16);
  EXPECT_EQ(probe::workgroup_gemm_shared_bytes({128, 128, 32, 256}), 0u);
  probe::WorkgroupGemm packed{128, 128, 32, 256, false, Loop::staged};
  packed.padded = false;
  EXPECT_EQ(probe::workgroup_gemm_shared_bytes(packed), 2u * (128 * 4 + 32 * 16) * 16);
  const std::vector<std::uint32_t> nv = as_nv_coopmat(probe::workgroup_gemm_spirv(packed));
  EXPECT_TRUE(valid(nv));
}

TEST(SpirvWriter, StringsArePaddedWithAtLeastOneNul) {
  probe::SpirvWriter w;
  std::vector<std::uint32_t> words;
  w.op_str(words, 10, {}, "main");  // 4 bytes: a second word for the NUL
  ASSERT_EQ(words.size(), 3u);
  EXPECT_EQ(words[0], (3u << 16) | 10u);
  EXPECT_EQ(words[1], 0x6e69616du);
  EXPECT_EQ(words[2], 0u);
}

}  // namespace
