#include "vulkan/ops/linalg_dot_choice.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "common/settings.h"
#include "vkt/error.h"

namespace vkt::vk {
namespace {

std::uint64_t tiles(std::int64_t extent, std::uint32_t tile) {
  return static_cast<std::uint64_t>((extent + tile - 1) / tile);
}

// The tiled kernel's configuration (its rule, unchanged): 128 x 128 with 8 x 8 per
// invocation where there are 256 such tiles, thin 128 x 16 / 16 x 128 for matrix-vector
// shapes, else 64 x 64; K steps of 16 (8 for 8-byte accumulators); a configuration past
// the device's shared memory becomes 64 x 64, then x 8.
DotChoice tiled_choice(const DotShape& s, std::uint64_t word, std::uint64_t shared_limit) {
  DotChoice square;
  square.bk = word == 8 ? 8 : 16;
  DotChoice t = square;
  const std::uint64_t big = static_cast<std::uint64_t>(s.batch) * tiles(s.m, 128) * tiles(s.n, 128);
  if (s.n <= 16 && s.m > 16) {
    t.tm = 8, t.tn = 1, t.bk = 16;  // BN * BK must be a multiple of the 256 invocations
  } else if (s.m <= 16 && s.n > 16) {
    t.tm = 1, t.tn = 8, t.bk = 16;
  } else if (big >= 256) {
    t.tm = 8, t.tn = 8;
  }
  for (const DotChoice& c : {t, square}) {
    if (dot_shared_bytes(c, word) <= shared_limit) return c;
  }
  square.bk = 8;  // 64 x 64 x 8: under 9 KiB for 8-byte words
  return square;
}

bool thin(const DotShape& s) {
  return (s.n <= 16 && s.m > 16) || (s.m <= 16 && s.n > 16);
}

// "128x128x16" -> tm 8, tn 8, bk 16.
bool parse_tile(const std::string& v, DotChoice& c) {
  unsigned bm = 0, bn = 0, bk = 0;
  char x1 = 0, x2 = 0;
  const int got = std::sscanf(v.c_str(), "%u%c%u%c%u", &bm, &x1, &bn, &x2, &bk);
  if (got != 5 || x1 != 'x' || x2 != 'x') return false;
  if ((bm != 64 && bm != 128) || (bn != 64 && bn != 128) || (bk != 8 && bk != 16 && bk != 32)) {
    return false;
  }
  c.tm = bm / 16, c.tn = bn / 16, c.bk = bk;
  return true;
}

// Wide reads need the unit-stride axis at stride 1, the other strides and that axis's extent
// multiples of the width (each read wholly inside or outside the matrix, and aligned).
bool wide_ok(std::int64_t unit_stride, std::int64_t other, std::int64_t batch_stride,
             std::int64_t extent, std::int64_t w) {
  return unit_stride == 1 && other % w == 0 && batch_stride % w == 0 && extent % w == 0;
}

// "128x256x32:64x64" or "128x256x32:64x64:1" -> the coopmat tile (stages 0: unset).
bool parse_coopmat_tile(const std::string& v, DotChoice& c) {
  unsigned bm = 0, bn = 0, bk = 0, wm = 0, wn = 0, stages = 0;
  char x1 = 0, x2 = 0, colon = 0, x3 = 0, colon2 = 0;
  const int got = std::sscanf(v.c_str(), "%u%c%u%c%u%c%u%c%u%c%u", &bm, &x1, &bn, &x2, &bk, &colon,
                              &wm, &x3, &wn, &colon2, &stages);
  if ((got != 9 && got != 11) || x1 != 'x' || x2 != 'x' || colon != ':' || x3 != 'x') {
    return false;
  }
  if (got == 11 && (colon2 != ':' || (stages != 1 && stages != 2))) return false;
  auto tile_side = [](unsigned b) { return b == 64 || b == 128 || b == 192 || b == 256; };
  auto block_side = [](unsigned w, unsigned b) { return w >= 16 && w % 16 == 0 && b % w == 0; };
  if (!tile_side(bm) || !tile_side(bn) || (bk != 16 && bk != 32 && bk != 64) ||
      !block_side(wm, bm) || !block_side(wn, bn) || (wm / 16) * (wn / 16) > 24) {
    return false;
  }
  c.tm = bm / 16, c.tn = bn / 16, c.bk = bk, c.wm = wm, c.wn = wn, c.stages = stages;
  return c.threads() <= 1024;
}

// The coopmat configuration: the coopmat_tile override's, else the first of the rule's tiles that
// fits in shared memory, with two stages, else one (a large tile with one stage before a
// small one with two). Empty when none fits.
std::optional<DotChoice> coopmat_choice(const DotChoice& base, const DotShape& s,
                                        std::uint64_t shared_limit,
                                        const std::optional<std::string>& forced) {
  DotChoice m = base;
  m.kernel = DotKernel::coopmat;
  auto fit_stages = [&](DotChoice& c) {
    for (std::uint32_t st : {2u, 1u}) {
      c.stages = st;
      if (dot_shared_bytes(c, 2) <= shared_limit) return true;
    }
    return false;
  };
  if (forced) {
    const std::string& tile = *forced;
    if (!parse_coopmat_tile(tile, m)) {
      throw Error("[dot] override coopmat_tile='" + tile +
                  "': expected <BM>x<BN>x<BK>:<WM>x<WN>[:<stages>], BM and BN 64, 128, 192 or "
                  "256, BK 16, 32 or 64, WM and WN multiples of 16 dividing BM and BN, at most 24 "
                  "fragments per subgroup and 1024 invocations, stages 1 or 2");
    }
    const bool fits = m.stages == 0 ? fit_stages(m) : dot_shared_bytes(m, 2) <= shared_limit;
    if (!fits) {
      throw Error("[dot] override coopmat_tile='" + tile + "' needs " +
                  std::to_string(dot_shared_bytes(m, 2)) +
                  " bytes of shared memory, the device has " + std::to_string(shared_limit));
    }
    return m;
  }
  // BM, BN, BK, WM, WN: a 64-wide side where M or N is at most 64 (conv's 64 out channels),
  // so that no half of each tile's products falls outside C; 64 x 64 where 128 x 128 would
  // give at most 256 tiles (f16 at 2048 ran faster on 64 x 64 tiles on the H200). Else
  // 128 x 128 with 64-deep K steps (one stage in 48 KiB), which since its reads are hoisted
  // passes the 32-deep tile with two stages at every size from 3072 to 8192, bf16 too
  // (bench_results/h200/matmul.csv, auto against k32s2: f16 312.6 against 280.6 TFLOP/s at
  // 4096, 339.2 against 300.6 at 8192); the latter passed 128 x 256 x 32 with one on the H200.
  // Where shared memory is smaller: the 32-deep tile, then 64 x 64.
  using Tile = std::array<std::uint32_t, 5>;
  const Tile deep{128, 128, 64, 64, 64}, square{128, 128, 32, 64, 64}, small{64, 64, 32, 32, 32};
  const std::uint64_t batch = static_cast<std::uint64_t>(s.batch);
  const Tile first = s.m <= 64 && s.n > 64                              ? Tile{64, 128, 32, 32, 64}
                     : s.n <= 64 && s.m > 64                            ? Tile{128, 64, 32, 64, 32}
                     : batch * tiles(s.m, 128) * tiles(s.n, 128) <= 256 ? small
                                                                        : deep;
  // The 64-deep tile falls back to the 32-deep one; every rule tile then to 64 x 64.
  const std::array<Tile, 3> tries{first, first == deep ? square : small, small};
  for (const Tile& t : tries) {
    m.tm = t[0] / 16, m.tn = t[1] / 16, m.bk = t[2], m.wm = t[3], m.wn = t[4];
    if (fit_stages(m)) return m;
  }
  return std::nullopt;
}

}  // namespace

std::uint64_t dot_shared_bytes(const DotChoice& c, std::uint64_t word) {
  switch (c.kernel) {
    case DotKernel::tiled:  // As and Bs rows padded by one word
      return std::uint64_t{c.bk} * ((16 * c.tm + 1) + (16 * c.tn + 1)) * word;
    case DotKernel::reg:  // two K steps of vec4 rows, padded by one vec4
      return 2 * std::uint64_t{c.bk} * ((4 * c.tm + 1) + (4 * c.tn + 1)) * 4 * word;
    case DotKernel::coopmat: {  // linalg_dot_coopmat.comp's smem, in uvec4 (8 halves)
      const std::uint64_t bm = 16 * c.tm, bn = 16 * c.tn;
      // Rows along the non-unit axis, each the unit axis's extent / 8 plus one of padding.
      const std::uint64_t a = c.a_k_contig ? bm * (c.bk / 8 + 1) : c.bk * (bm / 8 + 1);
      const std::uint64_t b = c.b_k_contig ? bn * (c.bk / 8 + 1) : c.bk * (bn / 8 + 1);
      const std::uint64_t patches = c.threads() / 32 * 64;  // a 16 x 16 f32 patch each
      return std::max<std::uint64_t>(c.stages * (a + b), patches) * 16;
    }
  }
  return 0;
}

DotChoice choose_dot_kernel(const DotShape& s, DType d, const DotDevice& dev) {
  const std::uint64_t word = d == DType::f64 || itemsize(d) == 8 ? 8 : 4;
  DotChoice c = tiled_choice(s, word, dev.shared_bytes);
  // Loads run along k unless the other axis is the unit-stride one (a transposed operand);
  // a group of unit axes has stride 0 and never counts as unit-stride.
  c.a_k_contig = !(s.sam == 1 && s.sak != 1);
  c.b_k_contig = s.sbk == 1 && s.sbn != 1;
  const auto o = overrides();
  const std::string kernel = o->dot_kernel.value_or("auto");
  if (kernel != "auto" && kernel != "tiled" && kernel != "reg") {
    throw Error("[dot] override dot_kernel='" + kernel + "': expected auto, tiled or reg");
  }
  const bool reg_asked = kernel == "reg";
  if (!is_float(d) || kernel == "tiled") return c;
  const bool vec = o->dot_vec.value_or(true);

  // coopmat: false never, true always, unset by the rule.
  const bool coopmat_dtype =
      (d == DType::f16 && dev.coopmat_f16) || (d == DType::bf16 && dev.coopmat_bf16);
  if (coopmat_dtype && o->coopmat.value_or(s.m >= 64 && s.n >= 64)) {
    if (std::optional<DotChoice> m = coopmat_choice(c, s, dev.shared_bytes, o->coopmat_tile)) {
      m->a_vec = vec && (m->a_k_contig ? wide_ok(s.sak, s.sam, s.sab, s.k, 8)
                                       : wide_ok(s.sam, s.sak, s.sab, s.m, 8));
      m->b_vec = vec && (m->b_k_contig ? wide_ok(s.sbk, s.sbn, s.sbb, s.k, 8)
                                       : wide_ok(s.sbn, s.sbk, s.sbb, s.n, 8));
      m->direct_c = vec;
      return *m;
    }
  }

  // Measured on the H200 (bench_results/h200/matmul-kernels.csv): the reg kernel
  // with 128 x 128 x 8 tiles is the fastest f32 and bf16 path (f32 4096: 38.0 TFLOP/s, 33.0
  // with x 16, 32.6 tiled); f16 without cooperative matrices wants 64 x 64 (29.4 against 2.3
  // with 128 x 128); f64 stays on the tiled kernel (19.1 against 1.2 on reg).
  if (!reg_asked && (thin(s) || d == DType::f64)) return c;
  DotChoice r = c;
  r.kernel = DotKernel::reg;
  if (r.tm != r.tn || r.tm < 4 || d == DType::f16) r.tm = 4, r.tn = 4;  // 64 x 64
  r.bk = 8;
  if (o->dot_tile) {
    const std::string& tile = *o->dot_tile;
    if (!parse_tile(tile, r)) {
      throw Error("[dot] override dot_tile='" + tile +
                  "': expected <BM>x<BN>x<BK>, BM and BN 64 or 128, BK 8, 16 or 32");
    }
    if (dot_shared_bytes(r, word) > dev.shared_bytes) {
      throw Error("[dot] override dot_tile='" + tile + "' needs " +
                  std::to_string(dot_shared_bytes(r, word)) +
                  " bytes of shared memory, the device has " + std::to_string(dev.shared_bytes));
    }
  }
  while (dot_shared_bytes(r, word) > dev.shared_bytes && (r.bk > 8 || r.tm > 4 || r.tn > 4)) {
    if (r.bk > 8) {
      r.bk /= 2;
    } else {
      r.tm = 4, r.tn = 4;
    }
  }
  if (dot_shared_bytes(r, word) > dev.shared_bytes) return c;
  r.a_vec = vec && (r.a_k_contig ? wide_ok(s.sak, s.sam, s.sab, s.k, 4)
                                 : wide_ok(s.sam, s.sak, s.sab, s.m, 4));
  r.b_vec = vec && (r.b_k_contig ? wide_ok(s.sbk, s.sbn, s.sbb, s.k, 4)
                                 : wide_ok(s.sbn, s.sbk, s.sbb, s.n, 4));
  return r;
}

}  // namespace vkt::vk
