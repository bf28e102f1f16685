// Bench cases of the decompositions and solvers: for size n, one r x r matrix (r the
// largest power of two with r*r <= n), symmetric and diagonally dominant (so it stays
// positive definite and non-singular after conversion to any dtype, integers included),
// and an r x r right-hand side. An op with several results returns its first one.
#include "cases.h"

namespace vkt::bench {
namespace {

std::int64_t side(std::int64_t n) {
  std::int64_t r = 1;
  while ((r * 2) * (r * 2) <= n) r *= 2;
  return r;
}

// (m + mᵀ)/2 + 2r·I with m's entries in (0.01, 1.01]: off-diagonal row sums stay below r.
Tensor dominant_matrix(std::int64_t r) {
  const Tensor m = seed_data(r * r, {r, r});
  const Tensor sym = divide(add(m, transpose(m)), 2.0);
  return add(sym, multiply(eye(r, DType::f32, &cpu()), static_cast<double>(2 * r)));
}

using Run = std::function<Tensor(const std::vector<Tensor>&)>;

OpCase matrix_case(const std::string& name, std::int64_t n, bool with_rhs, Run run) {
  const std::int64_t r = side(n);
  std::vector<BenchInput> inputs = {{dominant_matrix(r)}};
  if (with_rhs) inputs.push_back({seed_data(r * r, {r, r})});
  return {name, DType::f32, {r, r}, std::move(inputs), std::move(run)};
}

}  // namespace

std::map<std::string, std::function<OpCase(std::int64_t)>> linalg_makers() {
  std::map<std::string, std::function<OpCase(std::int64_t)>> r;
  r["triangular_solve"] = [](std::int64_t n) {
    return matrix_case("triangular_solve", n, true, [](const std::vector<Tensor>& in) {
      return triangular_solve(in[0], in[1]);
    });
  };
  r["solve"] = [](std::int64_t n) {
    return matrix_case("solve", n, true,
                       [](const std::vector<Tensor>& in) { return solve(in[0], in[1]); });
  };
  r["cholesky"] = [](std::int64_t n) {
    return matrix_case("cholesky", n, false,
                       [](const std::vector<Tensor>& in) { return cholesky(in[0]); });
  };
  r["qr"] = [](std::int64_t n) {
    return matrix_case("qr", n, false, [](const std::vector<Tensor>& in) { return qr(in[0]).q; });
  };
  r["lu"] = [](std::int64_t n) {
    return matrix_case("lu", n, false, [](const std::vector<Tensor>& in) { return lu(in[0]).u; });
  };
  r["eigh"] = [](std::int64_t n) {
    return matrix_case("eigh", n, false,
                       [](const std::vector<Tensor>& in) { return eigh(in[0]).eigenvalues; });
  };
  r["svd"] = [](std::int64_t n) {
    return matrix_case("svd", n, false, [](const std::vector<Tensor>& in) { return svd(in[0]).u; });
  };
  r["determinant"] = [](std::int64_t n) {
    return matrix_case("determinant", n, false,
                       [](const std::vector<Tensor>& in) { return determinant(in[0]); });
  };
  return r;
}

}  // namespace vkt::bench
