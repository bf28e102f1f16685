// Derivative rules of triangular_solve, cholesky, solve, determinant, qr, lu, eigh, svd (JAX's
// jvps transposed; real dtypes: the pullback refuses complex values before a rule runs).
// Every rule is written in public ops (matmul, transpose, triangular_solve, select on iota
// masks, ...), so it runs on any backend and inside vkt::compile; all are batched over the
// leading axes. A multi-output op's out and g are its packed result (op_call.h): the parts are
// sliced out of them, and a part no loss reads gets a zero cotangent there.
//
// Symmetric inputs (cholesky, eigh read a's lower triangle only): S, JAX's symmetric
// cotangent (the derivative of op((a + aᵀ) / 2), what JAX's cholesky and eigh(symmetrize_input)
// give), is folded onto the triangle read: S on the diagonal, 2 S below it, 0 above. That is
// the exact derivative of the op as it runs (an entry below the diagonal stands for both of
// its symmetric places; an entry above is never read), so it agrees with central differences
// taken one entry at a time; for any symmetric change of a (a = sym(x), x·xᵀ, ...) it gives
// JAX's values, since <fold(S), da> = <S, da> when da is symmetric.
#include <algorithm>
#include <string>

#include "core/linalg_parts.h"
#include "grad/rules.h"
#include "vkt/ops.h"

namespace vkt::detail {
namespace {

using Tensors = std::vector<Tensor>;

std::int64_t rows_of(const Tensor& t) {
  return t.shape()[t.shape().size() - 2];
}
std::int64_t cols_of(const Tensor& t) {
  return t.shape().back();
}
Shape batch_of(const Tensor& t, std::size_t trailing) {
  return Shape(t.shape().begin(), t.shape().end() - static_cast<std::ptrdiff_t>(trailing));
}
Shape with_tail(Shape s, std::initializer_list<std::int64_t> tail) {
  s.insert(s.end(), tail.begin(), tail.end());
  return s;
}

// Matrix transpose (the last two axes) and batched matrix product.
Tensor mT(const Tensor& t) {
  Axes perm;
  for (std::int64_t i = 0; i < t.rank(); ++i) perm.push_back(i);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return transpose(t, perm);
}
Tensor mm(const Tensor& a, const Tensor& b) {
  return matmul(a, b);
}

// Where (row i, column j) of an m x n matrix lies, as a u8 mask built from iotas.
enum class Part { strictly_lower, lower, diagonal, upper };
Tensor mask(std::int64_t m, std::int64_t n, Part part, Backend* backend) {
  const Tensor i = iota({m, n}, DType::s32, 0, backend);
  const Tensor j = iota({m, n}, DType::s32, 1, backend);
  switch (part) {
    case Part::strictly_lower:
      return greater(i, j);
    case Part::lower:
      return greater_equal(i, j);
    case Part::diagonal:
      return equal(i, j);
    case Part::upper:
      break;
  }
  return less_equal(i, j);
}
Tensor mask_of(const Tensor& x, Part part) {
  return mask(rows_of(x), cols_of(x), part, &x.backend());
}
// x where `part` holds, 0 elsewhere.
Tensor keep(const Tensor& x, Part part) {
  return select(mask_of(x, part), x, scalar_like(x, 0));
}
// [..., n] -> [..., n, n] with v on the diagonal.
Tensor diag_embed(const Tensor& v) {
  const std::int64_t n = cols_of(v);
  return select(mask(n, n, Part::diagonal, &v.backend()),
                reshape(v, with_tail(batch_of(v, 1), {1, n})), scalar_like(v, 0));
}
// v [..., k] as a row [..., 1, k] (scales columns) or a column [..., k, 1] (scales rows).
Tensor as_row(const Tensor& v) {
  return reshape(v, with_tail(batch_of(v, 1), {1, cols_of(v)}));
}
Tensor as_col(const Tensor& v) {
  return reshape(v, with_tail(batch_of(v, 1), {cols_of(v), 1}));
}
// 1 / d off the diagonal, 0 on it (d's diagonal is never divided by).
Tensor off_diagonal_reciprocal(const Tensor& d) {
  const Tensor diagonal = mask_of(d, Part::diagonal);
  const Tensor one = scalar_like(d, 1);
  return select(diagonal, scalar_like(d, 0), divide(one, select(diagonal, one, d)));
}
// f ∘ x and x / d, but 0 where x is 0: a cotangent no loss sends (the zeros a part nobody
// reads gets) adds nothing, as JAX's symbolic zeros, even where f or 1 / d is infinite
// (eigenvalues' cotangent alone at repeated eigenvalues, singular values' alone at repeated
// or zero ones: derivatives that exist there).
Tensor times_unless_zero(const Tensor& f, const Tensor& x) {
  return select(equal(x, 0), scalar_like(x, 0), multiply(f, x));
}
Tensor over_unless_zero(const Tensor& x, const Tensor& d) {
  return select(equal(x, 0), scalar_like(x, 0), divide(x, d));
}
// Columns [start, start + length) of x.
Tensor columns(const Tensor& x, std::int64_t start, std::int64_t length) {
  std::vector<std::int64_t> from(static_cast<std::size_t>(x.rank()), 0);
  std::vector<std::int64_t> lengths(x.shape().begin(), x.shape().end());
  from.back() = start;
  lengths.back() = length;
  return slice(x, from, lengths);
}

Tensor solve_triangle(const Tensor& a, const Tensor& b, bool left_side, bool lower,
                      bool transposed) {
  return triangular_solve(
      a, b,
      {left_side, lower, transposed ? TriangularTransform::transpose : TriangularTransform::none});
}

// JAX's symmetric cotangent (t + tᵀ) / 2 folded onto the lower triangle (the header).
Tensor fold_lower(const Tensor& t) {
  return select(mask_of(t, Part::strictly_lower), add(t, mT(t)), keep(t, Part::diagonal));
}

// The parts of a packed multi-output value [..., total] (op_call.h's order).
std::vector<Tensor> unpack(const Tensor& packed, const std::vector<Shape>& parts) {
  return unpack_parts(packed, batch_of(packed, 1), parts, packed.dtype());
}

// Nothing to differentiate: zero cotangents of each input's shape.
bool empty(const RuleArgs& r) {
  return std::any_of(r.in.begin(), r.in.end(), [](const Tensor& t) { return t.size() == 0; });
}
Tensors zeros_for(const RuleArgs& r) {
  Tensors out;
  for (const Tensor& t : r.in) out.push_back(full(t.shape(), 0, r.g.dtype(), &r.g.backend()));
  return out;
}

std::string dims_str(const Tensor& a) {
  return std::to_string(rows_of(a)) + "x" + std::to_string(cols_of(a));
}

// op(a) x = b (left) or x op(a) = b: b̄ = op(a)⁻ᵀ ḡ (or ḡ op(a)⁻ᵀ), the same solve with the
// other transform; op(a)'s cotangent is -b̄ xᵀ (or -xᵀ b̄), transposed back when op(a) = aᵀ,
// and kept on the triangle that is read.
Tensors d_triangular_solve(const RuleArgs& r) {
  if (empty(r)) return zeros_for(r);
  const auto& p = std::get<TriangularSolveParams>(r.node.params);
  const Tensor& a = r.in[0];
  const bool transposed = p.transform_a != TriangularTransform::none;  // real: aᴴ = aᵀ
  const Tensor gb = solve_triangle(a, r.g, p.left_side, p.lower, !transposed);
  const Tensor g_op = negate(p.left_side ? mm(gb, mT(r.out)) : mm(mT(r.out), gb));
  return {keep(transposed ? mT(g_op) : g_op, p.lower ? Part::lower : Part::upper), gb};
}

// x = a⁻¹ b: b̄ = a⁻ᵀ ḡ, ā = -b̄ xᵀ.
Tensors d_solve(const RuleArgs& r) {
  if (empty(r)) return zeros_for(r);
  const Tensor gb = solve(mT(r.in[0]), r.g);
  return {negate(mm(gb, mT(r.out))), gb};
}

// ā = ḡ cof(a), the cofactor matrix (det(a) a⁻ᵀ where a is invertible). Through the SVD
// a = u diag(s) vt it is det(u) det(vt) u diag(Π_{j≠i} s_j) vt, exact at a singular a too
// (JAX's cofactor solve covers rank n - 1; this every rank), with no division.
Tensors d_determinant(const RuleArgs& r) {
  if (empty(r)) return zeros_for(r);
  const Tensor& a = r.in[0];
  const SVD f = svd(a, false);
  const std::int64_t axis = f.s.rank() - 1;
  std::vector<PadAxis> before(static_cast<std::size_t>(f.s.rank())), after = before;
  before.back() = {1, -1, 0};  // s shifted right: exclusive products from the front
  after.back() = {-1, 1, 0};   // s shifted left: exclusive products from the back
  const Tensor others = multiply(cumulative_product(pad(f.s, 1, before), axis),
                                 cumulative_product(pad(f.s, 1, after), axis, true));
  const Tensor sign = multiply(determinant(f.u), determinant(f.vt));
  const Tensor scale = reshape(multiply(r.g, sign), with_tail(batch_of(a, 2), {1, 1}));
  return {multiply(mm(multiply(f.u, as_row(others)), f.vt), scale)};
}

// l·lᵀ = a: dl = l Φ(l⁻¹ da l⁻ᵀ), Φ the lower triangle with the diagonal halved, so
// t = l⁻ᵀ Φ(lᵀ ḡ) l⁻¹; the cotangent is t folded onto the lower triangle (the header).
Tensors d_cholesky(const RuleArgs& r) {
  if (empty(r)) return zeros_for(r);
  const Tensor& l = r.out;
  const Tensor p = mm(mT(l), r.g);
  const Tensor phi =
      select(mask_of(p, Part::strictly_lower), p, keep(multiply(p, 0.5), Part::diagonal));
  const Tensor t = solve_triangle(l, solve_triangle(l, phi, true, true, true), false, true, false);
  return {fold_lower(t)};
}

// a = q r, q [m, n] with orthonormal columns, r [n, n] upper (m >= n): with
// M = r̄ rᵀ - qᵀ q̄ and N its upper triangle mirrored below (copyltu), ā = (q̄ + q N) r⁻ᵀ
// (JAX's jvp transposed; j-towns.github.io/papers/qr-derivative.pdf).
Tensor qr_deep(const Tensor& q, const Tensor& r, const Tensor& qb, const Tensor& rb) {
  const Tensor m = subtract(mm(rb, mT(r)), mm(mT(q), qb));
  const Tensor n = select(mask_of(m, Part::strictly_lower), mT(m), m);
  return solve_triangle(r, add(qb, mm(q, n)), false, false, true);
}

// m >= n: qr_deep. m < n (TensorFlow's QrGrad): a = [x y], r = [u v] with x = q u the square
// case and v = qᵀ y, so ȳ = q v̄ and x̄ = qr_deep(q, u, q̄ + y v̄ᵀ, ū). Complete mode with
// m > n is refused: q's last m - n columns are any orthonormal basis of the complement of
// a's columns, not a function of a (JAX refuses it too).
Tensors d_qr(const RuleArgs& r) {
  const Tensor& a = r.in[0];
  const std::int64_t m = rows_of(a), n = cols_of(a), k = std::min(m, n);
  if (std::get<QrParams>(r.node.params).complete && m > n) {
    throw Unsupported("[grad] qr: QrMode::complete of a " + dims_str(a) +
                      " matrix (m > n) has no derivative: q's last " + std::to_string(m - n) +
                      " columns are not determined by a; differentiate QrMode::reduced");
  }
  if (empty(r)) return zeros_for(r);
  const std::vector<Shape> parts = {{m, k}, {k, n}};
  const Tensors out = unpack(r.out, parts);
  const Tensors g = unpack(r.g, parts);
  if (m >= n) return {qr_deep(out[0], out[1], g[0], g[1])};
  const Tensor vb = columns(g[1], m, n - m);
  const Tensor xb = qr_deep(out[0], columns(out[1], 0, m),
                            add(g[0], mm(columns(a, m, n - m), mT(vb))), columns(g[1], 0, m));
  return {concatenate({xb, mm(out[0], vb)}, a.rank() - 1)};
}

// a = p l u, p piecewise constant (no cotangent flows through it), l unit lower, u upper:
// f = l⁻¹ pᵀ da u⁻¹ gives dl = l tril(f, -1), du = triu(f) u (JAX's lu jvp), so with
// M = tril(lᵀ l̄, -1) + triu(ū uᵀ), ā = p l⁻ᵀ M u⁻ᵀ. A zero pivot gives inf/NaN, as JAX.
Tensors d_lu(const RuleArgs& r) {
  if (empty(r)) return zeros_for(r);
  const std::int64_t n = cols_of(r.in[0]);
  const std::vector<Shape> parts = {{n, n}, {n, n}, {n, n}};
  const Tensors out = unpack(r.out, parts);
  const Tensors g = unpack(r.g, parts);
  const Tensor& p = out[0];
  const Tensor& l = out[1];
  const Tensor& u = out[2];
  const Tensor m =
      add(keep(mm(mT(l), g[1]), Part::strictly_lower), keep(mm(g[2], mT(u)), Part::upper));
  const Tensor y = solve_triangle(u, solve_triangle(l, m, true, true, true), false, false, true);
  return {mm(p, y)};
}

// a = v diag(w) vᵀ: dw = diag(vᵀ da v), dv = v (F ∘ vᵀ da v) with F_ij = 1 / (w_j - w_i)
// off the diagonal (JAX's Fmat), so t = v (diag(w̄) + F ∘ vᵀ v̄) vᵀ, folded onto the lower
// triangle (the header). At equal eigenvalues a cotangent of the eigenvectors gives inf/NaN
// (their derivative is undefined there), as JAX; the eigenvalues' alone stays finite.
Tensors d_eigh(const RuleArgs& r) {
  if (empty(r)) return zeros_for(r);
  const std::int64_t n = cols_of(r.in[0]);
  const std::vector<Shape> parts = {{n}, {n, n}};
  const Tensors out = unpack(r.out, parts);
  const Tensors g = unpack(r.g, parts);
  const Tensor& w = out[0];
  const Tensor& v = out[1];
  const Tensor f = off_diagonal_reciprocal(subtract(as_row(w), as_col(w)));
  const Tensor inner = add(times_unless_zero(f, mm(mT(v), g[1])), diag_embed(g[0]));
  return {fold_lower(mm(mm(v, inner), mT(v)))};
}

// a = u diag(s) vt, k = min(m, n) (Townsend, "Differentiating the SVD", the transpose of
// JAX's jvp): with F_ij = 1 / (s_j² - s_i²) off the diagonal and v = vtᵀ,
//   ā = u [(F ∘ (uᵀū - ūᵀu)) S + diag(s̄) + S (F ∘ (vᵀv̄ - v̄ᵀv))] vt
//       + (I - u uᵀ) ū S⁻¹ vt  (m > k)  + u S⁻¹ v̄ᵀ (I - v vᵀ)  (n > k).
// At repeated singular values (or a zero one where m != n) a cotangent of u or vt gives
// inf/NaN (their derivative is undefined there), as JAX; s's alone stays finite. full_matrices of a
// non-square matrix is refused: the extra columns of u (rows of vt) are any basis of a complement,
// not a function of a.
Tensors d_svd(const RuleArgs& r) {
  const Tensor& a = r.in[0];
  const std::int64_t m = rows_of(a), n = cols_of(a), k = std::min(m, n);
  if (std::get<SvdParams>(r.node.params).full_matrices && m != n) {
    throw Unsupported("[grad] svd: full_matrices of a " + dims_str(a) +
                      " matrix has no derivative: the last " + std::to_string(std::max(m, n) - k) +
                      (m > n ? " columns of u" : " rows of vt") +
                      " are not determined by a; differentiate full_matrices = false");
  }
  if (empty(r)) return zeros_for(r);
  const std::vector<Shape> parts = {{m, k}, {k}, {k, n}};
  const Tensors out = unpack(r.out, parts);
  const Tensors g = unpack(r.g, parts);
  const Tensor& u = out[0];
  const Tensor& s = out[1];
  const Tensor& vt = out[2];
  const Tensor& ub = g[0];
  const Tensor vb = mT(g[2]);
  const Tensor s_row = as_row(s), s_col = as_col(s);
  const Tensor f = off_diagonal_reciprocal(multiply(subtract(s_row, s_col), add(s_row, s_col)));
  const Tensor ut_ub = mm(mT(u), ub);
  const Tensor vt_vb = mm(vt, vb);
  const Tensor j = times_unless_zero(f, subtract(ut_ub, mT(ut_ub)));
  const Tensor kk = times_unless_zero(f, subtract(vt_vb, mT(vt_vb)));
  const Tensor inner = add(add(multiply(j, s_row), diag_embed(g[1])), multiply(s_col, kk));
  Tensor ga = mm(mm(u, inner), vt);
  if (m > k) ga = add(ga, mm(over_unless_zero(subtract(ub, mm(u, ut_ub)), s_row), vt));
  if (n > k) ga = add(ga, mm(u, over_unless_zero(mT(subtract(vb, mm(mT(vt), vt_vb))), s_col)));
  return {ga};
}

}  // namespace

Rule linalg_rule(Op op) {
  switch (op) {
    case Op::triangular_solve:
      return d_triangular_solve;
    case Op::solve:
      return d_solve;
    case Op::determinant:
      return d_determinant;
    case Op::cholesky:
      return d_cholesky;
    case Op::qr:
      return d_qr;
    case Op::lu:
      return d_lu;
    case Op::eigh:
      return d_eigh;
    case Op::svd:
      return d_svd;
    default:
      return nullptr;
  }
}

}  // namespace vkt::detail
