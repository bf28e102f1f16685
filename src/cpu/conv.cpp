// conv on the cpu: per output image and group, im2col of the input into a [Cg * KS, P]
// column matrix (KS kernel taps, P output positions) and one OpenBLAS gemm of the group's
// kernel rows [Og, Cg * KS] with it, written straight into the output's [Og, P] block. A 1x1
// kernel with unit strides, no padding and no dilation reads the input itself as the column
// matrix. f32/f64/c64/c128 run sgemm/dgemm/cgemm/zgemm; f16/bf16 are widened to f32 once (f32
// accumulation, one rounding on store, as dot does).
#include <algorithm>
#include <complex>
#include <type_traits>
#include <vector>

#include "cpu/blas.h"
#include "cpu/kernels.h"

namespace vkt::cpu_kernels {
namespace {

// The sizes of one call, spatial axes in row-major order.
struct ConvGeometry {
  std::int64_t out_batch = 0, out_channels = 0, group_out = 0, group_in = 0, channels = 0;
  std::int64_t groups = 1, taps = 1, positions = 1, in_plane = 1;
  std::vector<std::int64_t> in_dims, out_dims, k_dims, strides, pad_lo, in_dil, k_dil;
};

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

// The input index on one axis for output index o and kernel tap t, or -1 where the tap
// falls on padding or between dilated input elements.
inline std::int64_t source_index(const ConvGeometry& g, std::size_t a, std::int64_t o,
                                 std::int64_t t) {
  const std::int64_t pos = o * g.strides[a] + t * g.k_dil[a] - g.pad_lo[a];
  if (pos < 0 || pos % g.in_dil[a] != 0) return -1;
  const std::int64_t i = pos / g.in_dil[a];
  return i < g.in_dims[a] ? i : -1;
}

// col[k, pos] for the group's channels of one image (img points at its first channel).
template <class F>
void im2col(const ConvGeometry& g, const F* img, F* col) {
  const std::size_t rank = g.in_dims.size();
  const std::int64_t rows = g.group_in * g.taps;
  const std::int64_t last_out = g.out_dims[rank - 1];
  const std::int64_t outer = g.positions / std::max<std::int64_t>(last_out, 1);
  parallel_for(rows, std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(g.positions, 1)),
               [&](std::int64_t begin, std::int64_t end) {
                 std::vector<std::int64_t> tap(rank), o(rank);
                 for (std::int64_t row = begin; row < end; ++row) {
                   const std::int64_t c = row / g.taps;
                   std::int64_t rem = row % g.taps;
                   for (std::size_t a = rank; a-- > 0;) {
                     tap[a] = rem % g.k_dims[a];
                     rem /= g.k_dims[a];
                   }
                   const F* chan = img + c * g.in_plane;
                   F* dst = col + row * g.positions;
                   for (std::int64_t r = 0; r < outer; ++r) {
                     // The offset of the outer axes' source row, or -1 when it is padding.
                     std::int64_t idx = r, offset = 0, scale = 1;
                     bool inside = true;
                     for (std::size_t a = rank - 1; a-- > 0;) {
                       o[a] = idx % g.out_dims[a];
                       idx /= g.out_dims[a];
                     }
                     for (std::size_t a = rank - 1; a-- > 0;) {
                       const std::int64_t i = source_index(g, a, o[a], tap[a]);
                       inside = inside && i >= 0;
                       offset += i * scale * g.in_dims[rank - 1];
                       scale *= g.in_dims[a];
                     }
                     F* out_row = dst + r * last_out;
                     if (!inside) {
                       std::fill(out_row, out_row + last_out, F(0));
                       continue;
                     }
                     const F* src = chan + offset;
                     for (std::int64_t x = 0; x < last_out; ++x) {
                       const std::int64_t i = source_index(g, rank - 1, x, tap[rank - 1]);
                       out_row[x] = i < 0 ? F(0) : src[i];
                     }
                   }
                 }
               });
}

// out[n, o, pos] for float type F, input and kernel already in F.
template <class F>
void conv_gemm(const ConvGeometry& g, const ConvParams& p, const F* input, const F* kernel,
               F* out) {
  const std::int64_t k = g.group_in * g.taps;
  const bool pointwise = is_pointwise(g);
  const Blas& lib = blas();
  const auto m = static_cast<blasint>(g.group_out), n = static_cast<blasint>(g.positions);
  const auto kk = static_cast<blasint>(k);
  const std::int64_t in_image = g.channels * g.in_plane;
  // Item i is one (image, group) GEMM: im2col of the group's channels, then C = W x cols.
  auto run_item = [&](std::int64_t item, F* col) {
    const std::int64_t b = item / g.groups, grp = item % g.groups;
    // Feature groups read a channel slice; batch groups read another input image.
    const std::int64_t image = p.batch_groups > 1 ? b + grp * g.out_batch : b;
    const std::int64_t channel0 = p.feature_groups > 1 ? grp * g.group_in : 0;
    const F* img = input + image * in_image + channel0 * g.in_plane;
    const F* cols = img;
    if (!pointwise) {
      im2col(g, img, col);
      cols = col;
    }
    const F* a = kernel + grp * g.group_out * k;
    F* c = out + (b * g.out_channels + grp * g.group_out) * g.positions;
    if constexpr (std::is_same_v<F, float>) {
      lib.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, kk, 1.0f, a, kk, cols, n, 0.0f, c,
                n);
    } else if constexpr (std::is_same_v<F, double>) {
      lib.dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, kk, 1.0, a, kk, cols, n, 0.0, c,
                n);
    } else {  // c64, c128: no conjugation (Nx's conv)
      const F one(1), zero(0);
      auto gemm = std::is_same_v<F, std::complex<float>> ? lib.cgemm : lib.zgemm;
      gemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, kk, &one, a, kk, cols, n, &zero, c, n);
    }
  };
  const std::int64_t items = g.out_batch * g.groups;
  const auto col_size = static_cast<std::size_t>(pointwise ? 0 : k * g.positions);
  // With an item for every thread, each thread runs whole items (its im2col and a one-thread
  // GEMM: OpenBLAS's OpenMP build runs one thread inside a parallel region); else items run
  // in turn, each threaded inside. OpenBLAS's pthreads build keeps the second way (its own
  // threads would contend). On the H200 host the first way is the batch-32 ResNet layer's
  // case: items in turn took 35.6 ms (bench_results/h200/run14-2ea8ca0).
  if (items >= max_threads() && max_threads() > 1 && lib.threading != "pthreads") {
    parallel_for(items, 1, [&](std::int64_t begin, std::int64_t end) {
      std::vector<F> col(col_size);
      for (std::int64_t i = begin; i < end; ++i) run_item(i, col.data());
    });
  } else {
    std::vector<F> col(col_size);
    for (std::int64_t i = 0; i < items; ++i) run_item(i, col.data());
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
