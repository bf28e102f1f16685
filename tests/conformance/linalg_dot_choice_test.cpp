// dot's kernel rule for f16 and bf16 on cooperative matrices (linalg_dot_choice.h), checked without
// a device: the default tile, the smaller ones a small shared memory gets, the coopmat_tile
// override and its bad values, and the shared memory each one needs (which must match
// linalg_dot_coopmat.comp's smem).
#include "vulkan/ops/linalg_dot_choice.h"

#include <gtest/gtest.h>

#include "common/settings.h"
#include "vkt/error.h"

namespace vkt::testing {
namespace {

// Square, row-major A and B: 8-wide reads possible. 2560 has 400 tiles of 128 x 128.
vk::DotShape square(std::int64_t n) {
  return vk::DotShape{1, n, n, n, 0, n, 1, 0, n, 1};
}
const vk::DotShape kSquare = square(2560);

vk::DotChoice f16_choice(std::uint64_t shared, const vk::DotShape& s = kSquare) {
  return vk::choose_dot_kernel(s, DType::f16, vk::DotDevice{shared, true});
}

// By the number of tiles: 128 x 128 x 64 from 257 of them, 64 x 64 where 128 x 128 would
// give at most 256 (each the faster there on the H200: linalg_dot_choice.cpp).
TEST(DotChoice, CoopmatTileFollowsTheTileCount) {
  for (std::int64_t n : {2176, 4096, 8192}) {
    const vk::DotChoice big = f16_choice(49152, square(n));
    EXPECT_EQ(16 * big.tm, 128u) << n;
    EXPECT_EQ(16 * big.tn, 128u) << n;
    EXPECT_EQ(big.bk, 64u) << n;
    EXPECT_EQ(big.stages, 1u) << n;  // two need 70 KiB
  }
  EXPECT_EQ(f16_choice(81920, square(4096)).stages, 2u);
  const vk::DotChoice small = f16_choice(49152, square(2048));
  EXPECT_EQ(16 * small.tm, 64u);
  EXPECT_EQ(16 * small.tn, 64u);
  EXPECT_EQ(small.wm, 32u);
}

TEST(DotChoice, CoopmatDefaultIs128x128x64With64x64PerSubgroup) {
  const vk::DotChoice c = f16_choice(49152);
  EXPECT_EQ(c.kernel, vk::DotKernel::coopmat);
  EXPECT_EQ(16 * c.tm, 128u);
  EXPECT_EQ(16 * c.tn, 128u);
  EXPECT_EQ(c.bk, 64u);
  EXPECT_EQ(c.wm, 64u);
  EXPECT_EQ(c.wn, 64u);
  EXPECT_EQ(c.stages, 1u);
  EXPECT_EQ(c.threads(), 128u);
  EXPECT_TRUE(c.a_vec && c.b_vec && c.direct_c);
  // A [128][64 + 8] and B [64][128 + 8] halves, one stage.
  EXPECT_EQ(vk::dot_shared_bytes(c, 2), (128u * 72 + 64 * 136) * 2);
}

// bf16 takes the same cooperative-matrix tile where the device has bf16 matrices (the KHR
// rewrite of the module), the reg kernel where it has only f16 ones; f16 needs its own.
TEST(DotChoice, Bf16TakesCooperativeMatricesOnlyWhereTheDeviceHasThem) {
  const vk::DotChoice with = vk::choose_dot_kernel(kSquare, DType::bf16, {49152, true, true});
  EXPECT_EQ(with.kernel, vk::DotKernel::coopmat);
  EXPECT_EQ(16 * with.tm, f16_choice(49152).tm * 16);
  EXPECT_EQ(vk::choose_dot_kernel(kSquare, DType::bf16, {49152, true, false}).kernel,
            vk::DotKernel::reg);
  EXPECT_NE(vk::choose_dot_kernel(kSquare, DType::f16, {49152, false, true}).kernel,
            vk::DotKernel::coopmat);
}

// M or N of at most 64 (conv's 64 out channels) takes a 64-wide side of the tile.
TEST(DotChoice, CoopmatThinSideTakes64WideTiles) {
  const vk::DotDevice dev{49152, true};
  const vk::DotChoice rows64 = vk::choose_dot_kernel(
      vk::DotShape{32, 64, 3136, 576, 0, 576, 1, 576 * 3136, 3136, 1}, DType::f16, dev);
  EXPECT_EQ(rows64.kernel, vk::DotKernel::coopmat);
  EXPECT_EQ(16 * rows64.tm, 64u);
  EXPECT_EQ(16 * rows64.tn, 128u);
  EXPECT_EQ(rows64.wm, 32u);
  EXPECT_EQ(rows64.wn, 64u);
  // conv's im2col GEMM reads both operands in 16-byte words: the kernel along K, the im2col
  // matrix along the positions (its rows 3136 = 8 x 392 halves), and stores C directly.
  EXPECT_TRUE(rows64.a_k_contig);
  EXPECT_FALSE(rows64.b_k_contig);
  EXPECT_TRUE(rows64.a_vec && rows64.b_vec && rows64.direct_c);
  const vk::DotChoice cols64 =
      vk::choose_dot_kernel(vk::DotShape{1, 4096, 64, 4096, 0, 4096, 1, 0, 64, 1}, DType::f16, dev);
  EXPECT_EQ(16 * cols64.tm, 128u);
  EXPECT_EQ(16 * cols64.tn, 64u);
  EXPECT_EQ(cols64.threads(), 128u);
}

TEST(DotChoice, CoopmatShrinksToTheDeviceSharedMemory) {
  // The 32-deep tile with one stage (18.5 KiB) where the 64-deep one (35 KiB) does not fit,
  // then 64 x 64 x 32 with 32 x 32 per subgroup.
  const vk::DotChoice one_stage = f16_choice(24576);
  EXPECT_EQ(one_stage.kernel, vk::DotKernel::coopmat);
  EXPECT_EQ(16 * one_stage.tm, 128u);
  EXPECT_EQ(one_stage.bk, 32u);
  EXPECT_EQ(one_stage.stages, 1u);
  const vk::DotChoice small = f16_choice(16384);
  EXPECT_EQ(small.kernel, vk::DotKernel::coopmat);
  EXPECT_EQ(16 * small.tm, 64u);
  EXPECT_EQ(small.wm, 32u);
  EXPECT_EQ(small.stages, 1u);
  EXPECT_LE(vk::dot_shared_bytes(small, 2), 16384u);
  EXPECT_NE(f16_choice(8192).kernel, vk::DotKernel::coopmat);
  // Without cooperative matrices f16 takes the plain kernels.
  EXPECT_NE(vk::choose_dot_kernel(kSquare, DType::f16, vk::DotDevice{49152, false}).kernel,
            vk::DotKernel::coopmat);
}

TEST(DotChoice, CoopmatTileOverride) {
  {
    const OverrideScope force("coopmat_tile=256x128x64:64x32");
    const vk::DotChoice c = f16_choice(232448);
    EXPECT_EQ(16 * c.tm, 256u);
    EXPECT_EQ(16 * c.tn, 128u);
    EXPECT_EQ(c.bk, 64u);
    EXPECT_EQ(c.wm, 64u);
    EXPECT_EQ(c.wn, 32u);
    EXPECT_EQ(c.stages, 2u);
    EXPECT_EQ(c.threads(), 512u);
    // Two stages of A [256][64 + 8] and B [64][128 + 8] pass 48 KiB, one does not either.
    EXPECT_THROW((void)f16_choice(49152), Error);
  }
  {
    const OverrideScope force("coopmat_tile=128x256x32:64x64");
    EXPECT_EQ(f16_choice(49152).stages, 1u);  // two stages need 54 KiB
    EXPECT_EQ(f16_choice(65536).stages, 2u);
  }
  {
    // Two stages of a 192-wide tile fit in 48 KiB: A [128][32 + 8] and B [32][192 + 8].
    const OverrideScope force("coopmat_tile=128x192x32:64x96");
    const vk::DotChoice c = f16_choice(49152);
    EXPECT_EQ(16 * c.tn, 192u);
    EXPECT_EQ(c.stages, 2u);
    EXPECT_EQ(c.threads(), 128u);
    EXPECT_EQ(vk::dot_shared_bytes(c, 2), 2u * (128 * 5 + 32 * 25) * 16);
  }
  {
    const OverrideScope force("coopmat_tile=128x128x32:64x64:1,dot_vec=0");
    const vk::DotChoice c = f16_choice(49152);
    EXPECT_EQ(c.stages, 1u);
    EXPECT_FALSE(c.a_vec || c.b_vec || c.direct_c);
  }
}

// A bad tile is an error naming the override and the value.
TEST(DotChoice, CoopmatTileBadValuesAreErrors) {
  for (const std::string bad :
       {"128x128x32", "96x128x32:32x32", "128x128x48:64x64", "128x128x32:48x64",
        "128x128x32:128x128", "192x192x32:96x96", "256x256x32:16x16", "128x128x32:64x64:3",
        "128x128x32:64x64x", "big"}) {
    Overrides o;
    o.coopmat_tile = bad;
    const OverrideScope force(o);
    try {
      (void)f16_choice(49152);
      ADD_FAILURE() << bad << ": no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("coopmat_tile='" + bad + "'"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace vkt::testing
