// c64/c128 movement, indexing, reductions, scans, windows, dot, conv, linear algebra,
// all_close and to_batched on Vulkan tensors against the cpu backend. Today these run by
// the fallback rule (the cpu's kernels: equal bits); once a family is native on Vulkan the
// same checks hold it to the cpu, exactly for ops that only move values and within the
// per-dtype tolerance for arithmetic.
#include <complex>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "conformance/fixture.h"
#include "support/compare.h"

namespace vkt::testing {
namespace {

class ComplexData : public VulkanTest {};

// Parts in [-2, 2) from a fixed sequence; with `special`, signed zeros, inf and NaN parts
// first (movement must carry them bit for bit).
Tensor complex_values(DType d, const Shape& shape, unsigned seed, bool special = false) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::complex<double>> v;
  if (special) v = {{-0.0, 0}, {inf, -inf}, {std::nan(""), 1}, {0, -0.0}, {1e-310, -inf}};
  unsigned state = seed;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<double>(state >> 8) / static_cast<double>(1u << 24) * 4 - 2;
  };
  while (static_cast<std::int64_t>(v.size()) < numel(shape)) v.emplace_back(next(), next());
  v.resize(static_cast<std::size_t>(numel(shape)));
  return as_type(from_vector(v, shape, &cpu()), d);
}

// A Hermitian positive definite batch {2, n, n}: B·Bᴴ + n·I.
Tensor hermitian_pd(DType d, std::int64_t n) {
  const Tensor b = complex_values(d, {2, n, n}, 5);
  const Tensor bh = unary(Op::conjugate, transpose(b, {0, 2, 1}));
  return add(dot(b, {2}, {0}, bh, {1}, {0}), multiply(eye({2, n, n}, d, &cpu()), Scalar(n)));
}

Tensor ints(const std::vector<std::int64_t>& v, const Shape& shape) {
  return from_vector(v, shape, &cpu());
}

struct Case {
  std::string name;
  std::vector<Tensor> inputs;  // on the cpu; the Vulkan run gets copies on the device
  std::function<std::vector<Tensor>(const std::vector<Tensor>&)> run;
  bool exact;  // moves values only
};

std::vector<Tensor> one(Tensor t) {
  return {std::move(t)};
}

std::vector<Case> cases(DType d) {
  const Tensor a = complex_values(d, {6, 5, 7}, 1, true);
  const Tensor m = complex_values(d, {9, 13}, 2);
  const Tensor h = hermitian_pd(d, 5);
  const Tensor rhs = complex_values(d, {2, 5, 3}, 3);
  const Tensor pred = as_type(from_vector<std::complex<double>>(
                                  {{0, 0}, {0, 1}, {1, 0}, {-0.0, 0}, {std::nan(""), 0}}, &cpu()),
                              d);
  using V = std::vector<Tensor>;
  return {
      {"broadcast",
       {m},
       [](const V& x) {
         return one(broadcast(x[0], {2, 9, 13}, {1, 2}));
       },
       true},
      {"transpose",
       {a},
       [](const V& x) {
         return one(transpose(x[0], {2, 0, 1}));
       },
       true},
      {"pad",
       {a},
       [](const V& x) {
         return one(
             pad(x[0], Scalar(std::complex<double>(1.5, -2)), {{1, -1, 1}, {0, 2, 0}, {-2, 1, 2}}));
       },
       true},
      {"reverse",
       {a},
       [](const V& x) {
         return one(reverse(x[0], {0, 2}));
       },
       true},
      {"slice",
       {a},
       [](const V& x) {
         return one(slice(x[0], {1, 0, 2}, {3, 2, 2}, {2, 3, 2}));
       },
       true},
      {"put_slice",
       {a, m},
       [](const V& x) {
         return one(put_slice(x[0], {2, 1, 0}, reshape(slice(x[1], {0, 0}, {2, 4}), {1, 2, 4})));
       },
       false},  // the update is sliced first: a chain of two ops
      {"concatenate", {a, a}, [](const V& x) { return one(concatenate(x, 2)); }, true},
      {"gather",
       {a, ints({5, 4, 0, 0, 2, 3}, {3, 2})},
       [](const V& x) { return one(gather(x[0], x[1])); },
       true},
      {"take",
       {a, ints({6, 0, 3}, {3})},
       [](const V& x) { return one(take(x[0], x[1], 2)); },
       true},
      {"take_along_axis",
       {m, ints(std::vector<std::int64_t>(9 * 13, 4), {9, 13})},
       [](const V& x) { return one(take_along_axis(x[0], x[1], 1)); },
       true},
      {"select",
       {pred, slice(m, {0, 0}, {1, 5}), slice(m, {1, 0}, {1, 5})},
       [](const V& x) { return one(select(x[0], reshape(x[1], {5}), reshape(x[2], {5}))); },
       true},
      {"indexed_add",
       {m, ints({1, 3, 1, 20}, {4, 1}), complex_values(d, {4, 13}, 4)},
       [](const V& x) { return one(indexed_add(x[0], x[1], x[2])); },
       false},
      {"indexed_put",
       {m, ints({1, 3, 1, 20}, {4, 1}), complex_values(d, {4, 13}, 4)},
       [](const V& x) { return one(indexed_put(x[0], x[1], x[2])); },
       true},
      {"sum",
       {m},
       [](const V& x) {
         return V{sum(x[0]), sum(x[0], {0})};
       },
       false},
      {"product", {m}, [](const V& x) { return V{product(x[0], {1})}; }, false},
      {"all_any",
       {a},
       [](const V& x) {
         return V{all(x[0], {1}), any(x[0], {0, 2})};
       },
       true},
      {"cumulative",
       {m},
       [](const V& x) {
         return V{cumulative_sum(x[0], 1), cumulative_product(x[0], 0, true)};
       },
       false},
      {"window",
       {m},
       [](const V& x) {
         WindowOptions o;
         o.strides = {2, 1};
         o.padding = {{1, 0}, {0, 2}};
         return V{window_sum(x[0], {2, 3}, o), window_product(x[0], {3, 2}, o)};
       },
       false},
      {"dot",
       {m, complex_values(d, {13, 4}, 6)},
       [](const V& x) { return one(dot(x[0], x[1])); },
       false},
      {"conv",
       {complex_values(d, {2, 4, 6, 5}, 7), complex_values(d, {4, 2, 3, 3}, 8)},
       [](const V& x) {
         ConvOptions o;
         o.padding = {{1, 1}, {0, 1}};
         o.feature_group_size = 2;
         return one(conv(x[0], x[1], o));
       },
       false},
      {"triangular_solve",
       {h, rhs},
       [](const V& x) {
         return one(
             triangular_solve(x[0], x[1], {true, true, TriangularTransform::conjugate_transpose}));
       },
       false},
      {"solve_determinant",
       {h, rhs},
       [](const V& x) {
         return V{solve(x[0], x[1]), determinant(x[0])};
       },
       false},
      {"cholesky_lu",
       {h},
       [](const V& x) {
         const LU f = lu(x[0]);
         return V{cholesky(x[0]), f.p, f.l, f.u};
       },
       false},
      {"qr_eigh_svd",
       {h},
       [](const V& x) {
         const QR q = qr(x[0]);
         const Eigh e = eigh(x[0]);
         const SVD s = svd(x[0]);
         return V{q.q, q.r, e.eigenvalues, e.eigenvectors, s.u, s.s, s.vt};
       },
       false},
      {"all_close",
       {m, m},
       [](const V& x) { return one(all_close(x[0], add(x[1], Scalar(1e-9)))); },
       true},
      {"to_batched", {a}, [](const V& x) { return to_batched(x[0], 4); }, true},
  };
}

TEST_F(ComplexData, OpsOnVulkanTensorsEqualTheCpu) {
  for (DType d : kComplexDTypes) {
    for (const Case& c : cases(d)) {
      SCOPED_TRACE(c.name + " " + std::string(dtype_name(d)));
      std::vector<Tensor> on_gpu;
      for (const Tensor& t : c.inputs) on_gpu.push_back(transfer(t, gpu()));
      const std::vector<Tensor> want = c.run(c.inputs);
      const std::vector<Tensor> got = c.run(on_gpu);
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t i = 0; i < want.size(); ++i) {
        const Tolerance tol = c.exact ? Tolerance{0, 0} : default_tolerance(want[i].dtype());
        EXPECT_TRUE(tensors_close(got[i], want[i], tol)) << "result " << i;
      }
    }
  }
}

}  // namespace
}  // namespace vkt::testing
