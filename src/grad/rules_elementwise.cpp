// Derivative rules of the elementwise ops (Nx.Defn.Grad's where it defines them, else
// JAX's): x the input, y the output, g its cotangent. Binary rules sum each input's share
// back over the axes it was broadcast along.
#include <cmath>

#include "grad/rules.h"
#include "vkt/ops.h"

namespace vkt::detail {
namespace {

using Tensors = std::vector<Tensor>;

Tensor x_of(const RuleArgs& r) {
  return r.in[0];
}

Tensors one(Tensor t) {
  return {std::move(t)};
}

// Unary rules: d/dx as a product with g. Complex z: holomorphic, so g f'(z) with no conjugate
// under Nx's (and JAX's) convention (rules_spectral.cpp); abs and acosh say where they differ.
Tensors d_exp(const RuleArgs& r) {
  return one(multiply(r.g, r.out));
}
Tensors d_expm1(const RuleArgs& r) {
  return one(multiply(r.g, add(r.out, 1)));
}
Tensors d_log(const RuleArgs& r) {
  return one(divide(r.g, x_of(r)));
}
Tensors d_log1p(const RuleArgs& r) {
  return one(divide(r.g, add(x_of(r), 1)));
}
Tensors d_sigmoid(const RuleArgs& r) {
  return one(multiply(r.g, multiply(r.out, subtract(1, r.out))));
}
Tensors d_sin(const RuleArgs& r) {
  return one(multiply(r.g, cos(x_of(r))));
}
Tensors d_cos(const RuleArgs& r) {
  return one(negate(multiply(r.g, sin(x_of(r)))));
}
Tensors d_tan(const RuleArgs& r) {
  return one(multiply(r.g, add(multiply(r.out, r.out), 1)));
}
Tensors d_sinh(const RuleArgs& r) {
  return one(multiply(r.g, cosh(x_of(r))));
}
Tensors d_cosh(const RuleArgs& r) {
  return one(multiply(r.g, sinh(x_of(r))));
}
Tensors d_tanh(const RuleArgs& r) {
  return one(multiply(r.g, subtract(1, multiply(r.out, r.out))));
}
Tensors d_asin(const RuleArgs& r) {  // 1 / sqrt(1 - x^2)
  return one(multiply(r.g, rsqrt(subtract(1, multiply(x_of(r), x_of(r))))));
}
Tensors d_acos(const RuleArgs& r) {
  return one(negate(multiply(r.g, rsqrt(subtract(1, multiply(x_of(r), x_of(r)))))));
}
Tensors d_atan(const RuleArgs& r) {
  return one(divide(r.g, add(multiply(x_of(r), x_of(r)), 1)));
}
Tensors d_asinh(const RuleArgs& r) {
  return one(multiply(r.g, rsqrt(add(multiply(x_of(r), x_of(r)), 1))));
}
Tensors d_acosh(const RuleArgs& r) {
  // Complex: 1 / (sqrt(z - 1) sqrt(z + 1)), the principal branch's; sqrt(z^2 - 1) flips sign
  // where re(z) < 0. Equal for a real x > 1.
  if (is_complex(x_of(r).dtype())) {
    return one(multiply(r.g, multiply(rsqrt(subtract(x_of(r), 1)), rsqrt(add(x_of(r), 1)))));
  }
  return one(multiply(r.g, rsqrt(subtract(multiply(x_of(r), x_of(r)), 1))));
}
Tensors d_atanh(const RuleArgs& r) {
  return one(divide(r.g, subtract(1, multiply(x_of(r), x_of(r)))));
}
Tensors d_sqrt(const RuleArgs& r) {
  return one(divide(r.g, multiply(r.out, 2)));
}
Tensors d_rsqrt(const RuleArgs& r) {  // -x^(-3/2) / 2 = -y^3 / 2
  return one(multiply(r.g, multiply(multiply(r.out, multiply(r.out, r.out)), -0.5)));
}
Tensors d_cbrt(const RuleArgs& r) {  // 1 / (3 y^2)
  return one(divide(r.g, multiply(multiply(r.out, r.out), 3)));
}
Tensors d_erf(const RuleArgs& r) {  // 2 / sqrt(pi) exp(-x^2)
  const double c = 2.0 / std::sqrt(M_PI);
  return one(multiply(r.g, multiply(exp(negate(multiply(x_of(r), x_of(r)))), c)));
}
Tensors d_erfc(const RuleArgs& r) {
  const double c = -2.0 / std::sqrt(M_PI);
  return one(multiply(r.g, multiply(exp(negate(multiply(x_of(r), x_of(r)))), c)));
}
Tensors d_erf_inv(const RuleArgs& r) {  // sqrt(pi) / 2 exp(y^2)
  const double c = std::sqrt(M_PI) / 2.0;
  return one(multiply(r.g, multiply(exp(multiply(r.out, r.out)), c)));
}
// Nx: g where x >= 0, else -g (so the derivative at 0 is 1). Complex z (Nx): d|z| =
// re(conj(z) dz) / |z|, so the real g gives g conj(z) / |z|, and 0 at z = 0.
Tensors d_abs(const RuleArgs& r) {
  if (is_complex(x_of(r).dtype())) {
    const Tensor at_zero = equal(r.out, 0);
    const Tensor safe = select(at_zero, scalar_like(r.out, 1), r.out);
    return one(divide(multiply(r.g, conjugate(x_of(r))), safe));
  }
  return one(select(greater_equal(x_of(r), 0), r.g, negate(r.g)));
}
Tensors d_negate(const RuleArgs& r) {
  return one(negate(r.g));
}

// Binary rules: the two shares, each made only where wanted (a share of a constant, say a
// relu's 0, would be a product and a sum over the whole tensor for nothing) and summed
// back to its input's shape.
template <class A, class B>
Tensors both(const RuleArgs& r, const A& da, const B& db) {
  return {r.wants(0) ? unbroadcast(da(), r.in[0].shape()) : Tensor(),
          r.wants(1) ? unbroadcast(db(), r.in[1].shape()) : Tensor()};
}
Tensors d_add(const RuleArgs& r) {
  return both(
      r, [&] { return r.g; }, [&] { return r.g; });
}
Tensors d_subtract(const RuleArgs& r) {
  return both(
      r, [&] { return r.g; }, [&] { return negate(r.g); });
}
Tensors d_multiply(const RuleArgs& r) {
  return both(
      r, [&] { return multiply(r.g, r.in[1]); }, [&] { return multiply(r.g, r.in[0]); });
}
Tensors d_divide(const RuleArgs& r) {  // d/db a / b = -y / b
  return both(
      r, [&] { return divide(r.g, r.in[1]); },
      [&] { return negate(divide(multiply(r.g, r.out), r.in[1])); });
}
// b a^(b - 1), and a^b log(a). As JAX: the base's share is 0 where b == 0 (not 0 * 0^-1),
// and the exponent's is 0 where a == 0 (a^b is 0 or 1 there, not 0 * log 0).
Tensors d_pow(const RuleArgs& r) {
  const Tensor& a = r.in[0];
  const Tensor& b = r.in[1];
  const Tensor zero = scalar_like(r.g, 0);
  const Tensor one = scalar_like(a, 1);
  return both(
      r,
      [&] { return multiply(r.g, select(equal(b, 0), zero, multiply(b, pow(a, subtract(b, 1))))); },
      [&] { return multiply(r.g, multiply(r.out, log(select(equal(a, 0), one, a)))); });
}
Tensors d_atan2(const RuleArgs& r) {  // b / (a^2 + b^2), -a / (a^2 + b^2)
  const Tensor& a = r.in[0];
  const Tensor& b = r.in[1];
  const Tensor norm = add(multiply(a, a), multiply(b, b));
  return both(
      r, [&] { return divide(multiply(r.g, b), norm); },
      [&] { return negate(divide(multiply(r.g, a), norm)); });
}
// Nx: an input equal to the result gets g, halved where both are (a tie), 0 where only the
// other is (or the result is NaN). Two selects where the quotient of indicators took two
// conversions, an add and a divide: fewer full-size passes and temporaries in an eager step
// (a mask product in place of the outer select would convert the mask instead). The zero
// branch is a rank-0 tensor: one creation dispatch per rule in a compiled plan too, until
// the compiler folds rank-0 constants into the kernels that read them.
Tensors d_min_max(const RuleArgs& r) {
  const Tensor a_is = equal(r.in[0], r.out);
  const Tensor b_is = equal(r.in[1], r.out);
  const Tensor zero = scalar_like(r.g, 0);
  Tensor half;  // made once for both sides
  auto share = [&](const Tensor& mine, const Tensor& other) {
    if (!half.defined()) half = multiply(r.g, 0.5);
    return select(mine, select(other, half, r.g), zero);
  };
  return both(
      r, [&] { return share(a_is, b_is); }, [&] { return share(b_is, a_is); });
}
// remainder(a, b) = a - b trunc(a / b): 1, and -trunc(a / b) (both floats here).
Tensors d_remainder(const RuleArgs& r) {
  return both(
      r, [&] { return r.g; },
      [&] {
        const Tensor q = divide(r.in[0], r.in[1]);
        return negate(multiply(r.g, select(greater_equal(q, 0), floor(q), ceil(q))));
      });
}

}  // namespace

Tensor scalar_like(const Tensor& like, Scalar v) {
  return full({}, v, like.dtype(), &like.backend());
}

Tensor unbroadcast(const Tensor& g, const Shape& shape) {
  if (g.shape() == shape) return g;
  const std::size_t lead = g.shape().size() - shape.size();
  Axes axes;
  for (std::size_t a = 0; a < g.shape().size(); ++a) {
    if (a < lead || (shape[a - lead] == 1 && g.shape()[a] != 1)) {
      axes.push_back(static_cast<std::int64_t>(a));
    }
  }
  const Tensor summed = axes.empty() ? g : sum(g, axes, true);
  return reshape(summed, shape);
}

Rule elementwise_rule(Op op) {
  switch (op) {
    case Op::exp:
      return d_exp;
    case Op::expm1:
      return d_expm1;
    case Op::log:
      return d_log;
    case Op::log1p:
      return d_log1p;
    case Op::sigmoid:
      return d_sigmoid;
    case Op::sin:
      return d_sin;
    case Op::cos:
      return d_cos;
    case Op::tan:
      return d_tan;
    case Op::sinh:
      return d_sinh;
    case Op::cosh:
      return d_cosh;
    case Op::tanh:
      return d_tanh;
    case Op::asin:
      return d_asin;
    case Op::acos:
      return d_acos;
    case Op::atan:
      return d_atan;
    case Op::asinh:
      return d_asinh;
    case Op::acosh:
      return d_acosh;
    case Op::atanh:
      return d_atanh;
    case Op::sqrt:
      return d_sqrt;
    case Op::rsqrt:
      return d_rsqrt;
    case Op::cbrt:
      return d_cbrt;
    case Op::erf:
      return d_erf;
    case Op::erfc:
      return d_erfc;
    case Op::erf_inv:
      return d_erf_inv;
    case Op::abs:
      return d_abs;
    case Op::negate:
      return d_negate;
    case Op::add:
      return d_add;
    case Op::subtract:
      return d_subtract;
    case Op::multiply:
      return d_multiply;
    case Op::divide:
      return d_divide;
    case Op::pow:
      return d_pow;
    case Op::atan2:
      return d_atan2;
    case Op::min:
    case Op::max:
      return d_min_max;
    case Op::remainder:
      return d_remainder;
    default:
      return nullptr;
  }
}

}  // namespace vkt::detail
