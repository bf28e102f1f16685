// dot on the cpu. Operands are viewed as [batch, M, K] and [batch, K, N] (a permuted copy
// only when the axes are not already in a gemm-compatible order). f32/f64 run OpenBLAS
// gemm per batch; f16/bf16 are widened to f32 and run sgemm (f32 accumulation), into an f32
// C directly when the core asks for an f32 result of 16-bit operands; integers
// accumulate in their own width with unsigned (wrapping) arithmetic; c64/c128 run cgemm/zgemm.

#include <algorithm>
#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "cpu/blas.h"
#include "cpu/kernels.h"
#include "cpu/linalg_lapack.h"

namespace vkt::cpu_kernels {
namespace {

// How one operand is laid out as a stack of matrices.
struct MatrixView {
  Axes perm;               // batch axes, row axes, column axes of the [batch, rows, cols] view
  bool contiguous = true;  // perm is the identity: the input is already that view
};

Axes concat(const Axes& x, const Axes& y, const Axes& z) {
  Axes out = x;
  out.insert(out.end(), y.begin(), y.end());
  out.insert(out.end(), z.begin(), z.end());
  return out;
}

bool is_identity(const Axes& perm) {
  for (std::size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] != static_cast<std::int64_t>(i)) return false;
  }
  return true;
}

// Picks [batch, rows, cols] or, when that needs a copy but [batch, cols, rows] does not,
// the transposed layout (gemm's transpose flag reads it without a copy).
MatrixView choose_view(const Axes& batch, const Axes& rows, const Axes& cols, bool& transposed) {
  const Axes direct = concat(batch, rows, cols);
  transposed = false;
  if (is_identity(direct)) return {direct, true};
  const Axes swapped = concat(batch, cols, rows);
  if (is_identity(swapped)) {
    transposed = true;
    return {swapped, true};
  }
  return {direct, false};
}

// dst = src permuted by perm (dst's axis i is src's axis perm[i]), converted to D.
template <class S, class D>
void permute_convert(const S* src, const Shape& shape, const Axes& perm, D* dst) {
  const std::int64_t n = numel(shape);
  const std::vector<std::int64_t> strides = contiguous_strides(shape);
  const std::size_t rank = perm.size();
  std::vector<std::int64_t> dims(rank), step(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    dims[i] = shape[static_cast<std::size_t>(perm[i])];
    step[i] = strides[static_cast<std::size_t>(perm[i])];
  }
  auto convert_one = [](S v) { return static_cast<D>(static_cast<compute_t<S>>(v)); };
  if (rank == 0) {
    if (n == 1) dst[0] = convert_one(src[0]);
    return;
  }
  // Walk dst in order; the innermost dst axis is a strided run of src.
  const std::int64_t inner = dims[rank - 1], inner_step = step[rank - 1];
  const std::int64_t rows = inner == 0 ? 0 : n / inner;
  parallel_for(rows, std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(inner, 1)),
               [&](std::int64_t begin, std::int64_t end) {
                 for (std::int64_t r = begin; r < end; ++r) {
                   std::int64_t rem = r, offset = 0;
                   for (std::size_t i = rank - 1; i-- > 0;) {
                     offset += (rem % dims[i]) * step[i];
                     rem /= dims[i];
                   }
                   const S* s = src + offset;
                   D* d = dst + r * inner;
                   for (std::int64_t j = 0; j < inner; ++j) d[j] = convert_one(s[j * inner_step]);
                 }
               });
}

// An operand as gemm sees it: a pointer to [batch, rows, cols] (or its transpose).
template <class D>
struct Operand {
  const D* ptr = nullptr;
  bool transposed = false;
  std::vector<D> storage;  // owns the permuted copy when one was needed
};

template <class S, class D>
Operand<D> prepare(const Tensor& t, const Axes& batch, const Axes& rows, const Axes& cols,
                   bool allow_transposed = true) {
  Operand<D> op;
  MatrixView view = choose_view(batch, rows, cols, op.transposed);
  if (op.transposed && !allow_transposed) {
    view = {concat(batch, rows, cols), false};
    op.transposed = false;
  }
  if (view.contiguous && std::is_same_v<S, D>) {
    op.ptr = reinterpret_cast<const D*>(data<S>(t));
    return op;
  }
  op.storage.resize(static_cast<std::size_t>(t.size()));
  permute_convert<S, D>(data<S>(t), t.shape(), view.perm, op.storage.data());
  op.ptr = op.storage.data();
  return op;
}

struct GemmShape {
  std::int64_t batch, m, n, k;
};

template <class F>
void blas_gemm(const Operand<F>& a, const Operand<F>& b, F* c, const GemmShape& s) {
  const CBLAS_TRANSPOSE ta = a.transposed ? CblasTrans : CblasNoTrans;
  const CBLAS_TRANSPOSE tb = b.transposed ? CblasTrans : CblasNoTrans;
  const auto lda = static_cast<blasint>(a.transposed ? s.m : s.k);
  const auto ldb = static_cast<blasint>(b.transposed ? s.k : s.n);
  const auto m = static_cast<blasint>(s.m), n = static_cast<blasint>(s.n);
  const auto k = static_cast<blasint>(s.k);
  const Blas& lib = blas();
  for (std::int64_t i = 0; i < s.batch; ++i) {
    const F* pa = a.ptr + i * s.m * s.k;
    const F* pb = b.ptr + i * s.k * s.n;
    F* pc = c + i * s.m * s.n;
    if constexpr (std::is_same_v<F, float>) {
      lib.sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, pa, lda, pb, ldb, 0.0f, pc, n);
    } else if constexpr (std::is_same_v<F, double>) {
      lib.dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, pa, lda, pb, ldb, 0.0, pc, n);
    } else {
      // Nx's dot does not conjugate: plain (not conjugate) transposes only.
      const F one(1), zero(0);
      auto gemm = std::is_same_v<F, std::complex<float>> ? lib.cgemm : lib.zgemm;
      gemm(CblasRowMajor, ta, tb, m, n, k, &one, pa, lda, pb, ldb, &zero, pc, n);
    }
  }
}

// Integer gemm, wrapping: products and sums in an unsigned type at least as wide as T
// (unsigned overflow is defined), truncated to T at the end. b is never transposed here
// (prepare copies it), so the inner loop is a contiguous, vectorisable row update. Tiles of
// kRowTile x kColTile accumulators reuse a kDepthTile x kColTile panel of b from cache.
template <class T>
void integer_gemm(const Operand<T>& a, const Operand<T>& b, T* c, const GemmShape& s) {
  using W = std::conditional_t<(sizeof(T) <= 4), std::uint32_t, std::uint64_t>;
  constexpr std::int64_t kRowTile = 32, kColTile = 256, kDepthTile = 256;
  const std::int64_t row_tiles = (s.m + kRowTile - 1) / kRowTile;
  const std::int64_t tiles = s.batch * row_tiles;
  const std::int64_t work_per_tile = std::min(s.m, kRowTile) * s.n * s.k;
  const std::int64_t grain =
      std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(work_per_tile, 1));
  parallel_for(tiles, grain, [&](std::int64_t begin, std::int64_t end) {
    std::vector<W> acc(static_cast<std::size_t>(kRowTile * kColTile));
    for (std::int64_t t = begin; t < end; ++t) {
      const std::int64_t bi = t / row_tiles;
      const std::int64_t r0 = (t % row_tiles) * kRowTile, r1 = std::min(s.m, r0 + kRowTile);
      const T* pa = a.ptr + bi * s.m * s.k;
      const T* pb = b.ptr + bi * s.k * s.n;
      T* pc = c + bi * s.m * s.n;
      for (std::int64_t j0 = 0; j0 < s.n; j0 += kColTile) {
        const std::int64_t jn = std::min(s.n - j0, kColTile);
        std::fill(acc.begin(), acc.end(), W{0});
        for (std::int64_t k0 = 0; k0 < s.k; k0 += kDepthTile) {
          const std::int64_t k1 = std::min(s.k, k0 + kDepthTile);
          for (std::int64_t r = r0; r < r1; ++r) {
            W* accrow = acc.data() + (r - r0) * kColTile;
            for (std::int64_t kk = k0; kk < k1; ++kk) {
              const T av = a.transposed ? pa[kk * s.m + r] : pa[r * s.k + kk];
              const W aw = static_cast<W>(av);
              const T* brow = pb + kk * s.n + j0;
              for (std::int64_t j = 0; j < jn; ++j) accrow[j] += aw * static_cast<W>(brow[j]);
            }
          }
        }
        for (std::int64_t r = r0; r < r1; ++r) {
          const W* accrow = acc.data() + (r - r0) * kColTile;
          T* crow = pc + r * s.n + j0;
          for (std::int64_t j = 0; j < jn; ++j) crow[j] = static_cast<T>(accrow[j]);
        }
      }
    }
  });
}

}  // namespace

Tensor run_linalg(const OpCall& call) {
  if (call.op == Op::triangular_solve || call.op == Op::solve) return run_lapack_solve(call);
  if (call.op != Op::dot) return run_lapack_factor(call);
  Tensor out = make_output(call);
  const DotParams& p = call.get<DotParams>();
  const Tensor& a = call.inputs[0];
  const Tensor& b = call.inputs[1];
  const Axes free_a = dot_free_axes(a.rank(), p.contract_a, p.batch_a);
  const Axes free_b = dot_free_axes(b.rank(), p.contract_b, p.batch_b);
  const GemmShape s{axes_product(a.shape(), p.batch_a), axes_product(a.shape(), free_a),
                    axes_product(b.shape(), free_b), axes_product(a.shape(), p.contract_a)};
  if (out.size() == 0) return out;
  // f16/bf16 operands of an f32 dot (the core's widening product): sgemm writes C itself.
  if (a.dtype() != call.out_dtype) {
    float* c = mutable_data<float>(out);
    if (s.k == 0) {
      std::fill(c, c + out.size(), 0.0f);
      return out;
    }
    visit_any_dtype(a.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (is_half_v<T>) {
        const auto oa = prepare<T, float>(a, p.batch_a, free_a, p.contract_a);
        const auto ob = prepare<T, float>(b, p.batch_b, p.contract_b, free_b);
        blas_gemm<float>(oa, ob, c, s);
      } else {
        throw Unsupported("[dot] " + std::string(dtype_name(a.dtype())) + " operands with an " +
                          std::string(dtype_name(call.out_dtype)) +
                          " result: only f16 and bf16 operands widen inside the product");
      }
    });
    return out;
  }
  visit_any_dtype(call.out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* c = mutable_data<T>(out);
    if (s.k == 0) {  // an empty sum
      std::fill(c, c + out.size(), static_cast<T>(compute_t<T>(0)));
      return;
    }
    if constexpr (std::is_integral_v<T>) {
      const auto oa = prepare<T, T>(a, p.batch_a, free_a, p.contract_a);
      const auto ob = prepare<T, T>(b, p.batch_b, p.contract_b, free_b, false);
      integer_gemm<T>(oa, ob, c, s);
    } else if constexpr (is_half_v<T>) {
      const auto oa = prepare<T, float>(a, p.batch_a, free_a, p.contract_a);
      const auto ob = prepare<T, float>(b, p.batch_b, p.contract_b, free_b);
      std::vector<float> wide(static_cast<std::size_t>(out.size()));
      blas_gemm<float>(oa, ob, wide.data(), s);
      for (std::size_t i = 0; i < wide.size(); ++i) c[i] = T(wide[i]);
    } else {
      const auto oa = prepare<T, T>(a, p.batch_a, free_a, p.contract_a);
      const auto ob = prepare<T, T>(b, p.batch_b, p.contract_b, free_b);
      blas_gemm<T>(oa, ob, c, s);
    }
  });
  return out;
}

}  // namespace vkt::cpu_kernels
