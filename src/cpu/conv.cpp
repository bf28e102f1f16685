// conv on the cpu: im2col + OpenBLAS GEMM. The output positions of each (image, group)
// are cut into column tiles; a tile's column matrix [Cg * KS, width] (KS kernel taps) is
// filled (conv_columns.h) and one GEMM of the group's kernel rows [Og, Cg * KS] with it
// writes the tile's [Og, width] block of the output in place. A tile is sized to half of
// this core's L2, so the GEMM reads what im2col just wrote from L2 rather than memory (the
// whole batch's columns are 9x the input for a 3x3 kernel). A 1x1 kernel with unit strides,
// no padding and no dilation reads the input itself. f32/f64/c64/c128 run sgemm/dgemm/cgemm/
// zgemm; f16/bf16 are widened to f32 once (f32 accumulation, one rounding on store).
#include <unistd.h>

#include <algorithm>
#include <complex>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "common/settings.h"
#include "cpu/blas.h"
#include "cpu/conv_columns.h"
#include "cpu/kernels.h"

namespace vkt::cpu_kernels {
namespace {

ConvGeometry geometry(const OpCall& call) {
  const ConvParams& p = call.get<ConvParams>();
  const Shape& in = call.inputs[0].shape();
  const Shape& k = call.inputs[1].shape();
  ConvGeometry g;
  g.out_batch = call.out_shape[0];
  g.out_channels = call.out_shape[1];
  g.channels = in[1];
  g.group_in = k[1];
  g.groups = p.feature_groups * p.batch_groups;
  g.group_out = g.out_channels / g.groups;
  for (std::size_t a = 2; a < in.size(); ++a) {
    g.in_dims.push_back(in[a]);
    g.out_dims.push_back(call.out_shape[a]);
    g.k_dims.push_back(k[a]);
    g.in_plane *= in[a];
    g.positions *= call.out_shape[a];
    g.taps *= k[a];
  }
  g.strides = p.strides;
  g.in_dil = p.input_dilation;
  g.k_dil = p.kernel_dilation;
  for (const auto& pad : p.padding) g.pad_lo.push_back(pad.first);
  return g;
}

bool is_pointwise(const ConvGeometry& g) {
  for (std::size_t a = 0; a < g.k_dims.size(); ++a) {
    if (g.k_dims[a] != 1 || g.strides[a] != 1 || g.pad_lo[a] != 0 || g.in_dil[a] != 1 ||
        g.out_dims[a] != g.in_dims[a]) {
      return false;
    }
  }
  return true;
}

// tiles: every thread runs whole tiles (its im2col and a one-thread GEMM: OpenBLAS's OpenMP
// build runs one thread inside a parallel region). images: one image's columns at a time,
// filled by every thread, then one GEMM threaded by OpenBLAS. OpenBLAS's pthreads build
// takes `images` (calls from several of our threads would each start its thread pool), and
// so does a conv with fewer tiles of kMinTile columns than threads (a deep layer of a small
// batch: thinner tiles would each pack the whole kernel for a few columns' work).
// Tests force either (Overrides::cpu_conv_split), so both run on any host.
enum class Split { tiles, images };
constexpr std::int64_t kMinTile = 64;

Split split_for(const Blas& lib, const ConvGeometry& g) {
  if (const std::optional<std::string> forced = overrides()->cpu_conv_split) {
    return *forced == "tiles" ? Split::tiles : Split::images;
  }
  const std::int64_t tiles = g.out_batch * g.groups * ((g.positions + kMinTile - 1) / kMinTile);
  return lib.threading == "pthreads" || tiles < max_threads() ? Split::images : Split::tiles;
}

// Columns per tile: the column matrix in half of L2 (sysconf; 256 KiB, the smallest L2 of
// an x86 core with AVX2, where the system does not say), at least kMinTile columns so the
// GEMM has a few of OpenBLAS's column blocks; narrower (not below kMinTile) when the batch
// alone would leave threads idle. A multiple of 16 (the widest GEMM micro-kernel's columns)
// where that fits.
std::int64_t tile_width(const ConvGeometry& g, std::size_t item_bytes) {
  long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l2 <= 0) l2 = 256 << 10;
  const auto column_bytes =
      static_cast<std::int64_t>(item_bytes) * std::max<std::int64_t>(g.rows(), 1);
  std::int64_t width = std::max(kMinTile, (l2 / 2) / column_bytes / 16 * 16);
  const std::int64_t spans = g.out_batch * g.groups;
  const std::int64_t tiles_for_threads =
      (max_threads() + spans - 1) / std::max<std::int64_t>(spans, 1);
  width = std::min(width,
                   std::max(kMinTile, (g.positions + tiles_for_threads - 1) / tiles_for_threads));
  return std::clamp<std::int64_t>(width, 1, g.positions);
}

// C[m, n] = A[m, k] . B, B stored [k, n] (ldb) or, with b_transposed, [n, k] (ldb = k);
// no conjugation for complex types (Nx's conv).
template <class F>
void gemm(const Blas& lib, std::int64_t m, std::int64_t n, std::int64_t k, const F* a, const F* b,
          std::int64_t ldb, F* c, std::int64_t ldc, bool b_transposed = false) {
  const auto M = static_cast<blasint>(m), N = static_cast<blasint>(n), K = static_cast<blasint>(k);
  const auto LDB = static_cast<blasint>(ldb), LDC = static_cast<blasint>(ldc);
  const CBLAS_TRANSPOSE tb = b_transposed ? CblasTrans : CblasNoTrans;
  if constexpr (std::is_same_v<F, float>) {
    lib.sgemm(CblasRowMajor, CblasNoTrans, tb, M, N, K, 1.0f, a, K, b, LDB, 0.0f, c, LDC);
  } else if constexpr (std::is_same_v<F, double>) {
    lib.dgemm(CblasRowMajor, CblasNoTrans, tb, M, N, K, 1.0, a, K, b, LDB, 0.0, c, LDC);
  } else {
    const F one(1), zero(0);
    auto complex_gemm = std::is_same_v<F, std::complex<float>> ? lib.cgemm : lib.zgemm;
    complex_gemm(CblasRowMajor, CblasNoTrans, tb, M, N, K, &one, a, K, b, LDB, &zero, c, LDC);
  }
}

// Few output positions over a long K (a kernel cotangent as a conv: the input and g with
// batch and channels swapped, 3x3 outputs of a 56x56 kernel), where im2col's rows are a few
// positions each: each column is filled along K instead (conv_column_along_k), the columns
// of several images at once (at most 32 MiB, whole images), and one GEMM per group gives
// their outputs transposed (columns x out channels: a long side for BLAS, where the
// positions of one image are a handful), scattered into the [n, o, pos] output.
template <class F>
void conv_long_k(const ConvGeometry& g, const ConvParams& p, const F* input, const F* kernel,
                 F* out) {
  const std::int64_t k = g.rows();
  const Blas& lib = blas();
  const std::int64_t column_bytes = k * static_cast<std::int64_t>(sizeof(F));
  const std::int64_t per_chunk = std::clamp<std::int64_t>(
      (std::int64_t{32} << 20) / std::max<std::int64_t>(column_bytes * g.positions, 1), 1,
      g.out_batch);
  const std::size_t rank = g.in_dims.size();
  const Tensor col =
      make_tensor(DType::u8, {per_chunk * g.positions * column_bytes});  // the host pool's bytes
  F* cols = mutable_data<F>(col);
  const Tensor block_bytes = make_tensor(
      DType::u8, {per_chunk * g.positions * g.group_out * static_cast<std::int64_t>(sizeof(F))});
  F* block = mutable_data<F>(block_bytes);
  const std::int64_t in_image = g.channels * g.in_plane;
  for (std::int64_t grp = 0; grp < g.groups; ++grp) {
    for (std::int64_t b0 = 0; b0 < g.out_batch; b0 += per_chunk) {
      const std::int64_t b1 = std::min(g.out_batch, b0 + per_chunk);
      const std::int64_t n = (b1 - b0) * g.positions;
      parallel_for(n, std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(k, 1)),
                   [&](std::int64_t j0, std::int64_t j1) {
                     std::vector<std::int64_t> scratch(2 * rank);
                     for (std::int64_t j = j0; j < j1; ++j) {
                       const std::int64_t b = b0 + j / g.positions;
                       // Feature groups read a channel slice; batch groups another image.
                       const std::int64_t image = p.batch_groups > 1 ? b + grp * g.out_batch : b;
                       const std::int64_t channel0 = p.feature_groups > 1 ? grp * g.group_in : 0;
                       conv_column_along_k(g, input + image * in_image + channel0 * g.in_plane,
                                           j % g.positions, cols + j * k, scratch.data());
                     }
                   });
      gemm<F>(lib, n, g.group_out, k, cols, kernel + grp * g.group_out * k, k, block, g.group_out,
              true);
      for (std::int64_t j = 0; j < n; ++j) {
        const std::int64_t b = b0 + j / g.positions, pos = j % g.positions;
        F* dst = out + (b * g.out_channels + grp * g.group_out) * g.positions + pos;
        const F* src = block + j * g.group_out;
        for (std::int64_t o = 0; o < g.group_out; ++o) dst[o * g.positions] = src[o];
      }
    }
  }
}

// out[n, o, pos] for float type F, input and kernel already in F.
template <class F>
void conv_gemm(const ConvGeometry& g, const ConvParams& p, const F* input, const F* kernel,
               F* out) {
  const std::int64_t k = g.rows();
  const bool pointwise = is_pointwise(g);
  if (!pointwise && g.positions < g.taps) {
    conv_long_k(g, p, input, kernel, out);
    return;
  }
  const Blas& lib = blas();
  const Split split = split_for(lib, g);
  const std::int64_t width = split == Split::images ? g.positions : tile_width(g, sizeof(F));
  const std::int64_t tiles = (g.positions + width - 1) / width;
  const std::int64_t in_image = g.channels * g.in_plane;
  const std::size_t rank = g.in_dims.size();
  // The image, group and first channel of span s = (output image, group).
  auto group_input = [&](std::int64_t s) {
    const std::int64_t b = s / g.groups, grp = s % g.groups;
    // Feature groups read a channel slice; batch groups read another input image.
    const std::int64_t image = p.batch_groups > 1 ? b + grp * g.out_batch : b;
    const std::int64_t channel0 = p.feature_groups > 1 ? grp * g.group_in : 0;
    return input + image * in_image + channel0 * g.in_plane;
  };
  // The GEMM of tile t of span s, its columns already in `cols` (ldb) when not pointwise.
  auto multiply = [&](std::int64_t s, std::int64_t t, const F* cols, std::int64_t ldb) {
    const std::int64_t b = s / g.groups, grp = s % g.groups;
    const std::int64_t p0 = t * width, n = std::min(width, g.positions - p0);
    F* c = out + (b * g.out_channels + grp * g.group_out) * g.positions + p0;
    gemm<F>(lib, g.group_out, n, k, kernel + grp * g.group_out * k, cols, ldb, c, g.positions);
  };
  const std::int64_t spans = g.out_batch * g.groups;
  const std::size_t col_size = pointwise ? 0 : static_cast<std::size_t>(k * width);
  if (split == Split::tiles) {
    // A thread's share is at least 16 * kGrain multiply-adds (~10 us on one core), so a
    // small conv is not spread thinner than a fork/join is worth.
    const std::int64_t macs = std::max<std::int64_t>(1, g.group_out * k * width);
    parallel_for(spans * tiles, std::max<std::int64_t>(1, 16 * kGrain / macs),
                 [&](std::int64_t begin, std::int64_t end) {
                   // From the host pool: a steady loop of convs takes no fresh pages.
                   const Tensor col =
                       make_tensor(DType::u8, {static_cast<std::int64_t>(col_size * sizeof(F))});
                   F* cols = mutable_data<F>(col);
                   std::vector<std::int64_t> scratch(2 * rank);
                   for (std::int64_t i = begin; i < end; ++i) {
                     const std::int64_t s = i / tiles, t = i % tiles;
                     const F* img = group_input(s);
                     const std::int64_t p0 = t * width, p1 = std::min(g.positions, p0 + width);
                     if (pointwise) {
                       multiply(s, t, img + p0, g.in_plane);
                       continue;
                     }
                     for (std::int64_t r = 0; r < k; ++r) {
                       conv_column_row(g, img, r, p0, p1, cols + r * (p1 - p0), scratch.data());
                     }
                     multiply(s, t, cols, p1 - p0);
                   }
                 });
    return;
  }
  const Tensor col = make_tensor(DType::u8, {static_cast<std::int64_t>(col_size * sizeof(F))});
  F* cols = mutable_data<F>(col);
  for (std::int64_t s = 0; s < spans; ++s) {
    const F* img = group_input(s);
    if (pointwise) {
      multiply(s, 0, img, g.in_plane);
      continue;
    }
    parallel_for(
        k, std::max<std::int64_t>(1, kGrain / g.positions), [&](std::int64_t r0, std::int64_t r1) {
          std::vector<std::int64_t> scratch(2 * rank);
          for (std::int64_t r = r0; r < r1; ++r) {
            conv_column_row(g, img, r, 0, g.positions, cols + r * g.positions, scratch.data());
          }
        });
    multiply(s, 0, cols, g.positions);
  }
}

template <class T>
std::vector<float> widen(const Tensor& t) {
  const T* src = data<T>(t);
  std::vector<float> out(static_cast<std::size_t>(t.size()));
  parallel_for(t.size(), kGrain, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) out[static_cast<std::size_t>(i)] = float(src[i]);
  });
  return out;
}

}  // namespace

Tensor run_conv(const OpCall& call) {
  if (call.op != Op::conv) {
    throw Unsupported("[" + std::string(op_name(call.op)) + "] is not a conv op");
  }
  Tensor out = make_output(call);
  if (out.size() == 0) return out;
  const ConvGeometry g = geometry(call);
  const ConvParams& p = call.get<ConvParams>();
  visit_any_dtype(call.out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T> || is_complex_v<T>) {
      T* c = mutable_data<T>(out);
      if (g.group_in * g.taps == 0) {  // an empty sum
        std::fill(c, c + out.size(), T(compute_t<T>(0)));
        return;
      }
      if constexpr (is_half_v<T>) {
        const std::vector<float> input = widen<T>(call.inputs[0]);
        const std::vector<float> kernel = widen<T>(call.inputs[1]);
        std::vector<float> wide(static_cast<std::size_t>(out.size()));
        conv_gemm<float>(g, p, input.data(), kernel.data(), wide.data());
        parallel_for(out.size(), kGrain, [&](std::int64_t begin, std::int64_t end) {
          for (std::int64_t i = begin; i < end; ++i) c[i] = T(wide[static_cast<std::size_t>(i)]);
        });
      } else {
        conv_gemm<T>(g, p, data<T>(call.inputs[0]), data<T>(call.inputs[1]), c);
      }
    } else {
      throw Unsupported("[conv] has no " + std::string(dtype_name(call.out_dtype)) +
                        " kernel (the core promotes to a float type)");
    }
  });
  return out;
}

}  // namespace vkt::cpu_kernels
