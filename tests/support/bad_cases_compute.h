// Bad-input cases: reductions, windows, scans, sorting, linear algebra, and fallbacks that
// policy 'error' forbids.
#pragma once

#include <cstdint>

#include "support/bad_inputs.h"
#include "support/run_op.h"

namespace vkt::testing {

inline void add_reduce_cases(std::vector<BadCase>& v) {
  const Expect S = Expect::shape, A = Expect::axis, E = Expect::error;
  for (Op op : {Op::all, Op::any, Op::sum, Op::product, Op::reduce_max, Op::reduce_min}) {
    const std::string n(op_name(op));
    add_case(v, n + "/axis 2 of rank 2", A, n, {on_home({2, 3})},
             [op](const Inputs& x) { (void)run_reduce(op, x[0], {2}, false); });
    add_case(v, n + "/repeated axis", A, n, {on_home({2, 3})}, [op](const Inputs& x) {
      (void)run_reduce(op, x[0], {0, -2}, false);
    });
    add_case(v, n + "/empty tensor", E, n, {empty_tensor()},
             [op](const Inputs& x) { (void)run_reduce(op, x[0], {}, false); });
  }
  for (Op op : {Op::argmax, Op::argmin}) {
    const std::string n(op_name(op));
    auto arg = [op](const Tensor& t, std::optional<std::int64_t> axis) {
      (void)(op == Op::argmax ? argmax(t, axis) : argmin(t, axis));
    };
    add_case(v, n + "/axis -3 of rank 2", A, n, {on_home({2, 3})},
             [arg](const Inputs& x) { arg(x[0], -3); });
    add_case(v, n + "/no elements", S, n, {on_home({0})},
             [arg](const Inputs& x) { arg(x[0], std::nullopt); });
    add_case(v, n + "/axis of size 0", S, n, {on_home({3, 0})},
             [arg](const Inputs& x) { arg(x[0], 1); });
    add_case(v, n + "/empty tensor", E, n, {empty_tensor()},
             [arg](const Inputs& x) { arg(x[0], 0); });
  }
  const std::int64_t big = std::int64_t{1} << 62;
  struct Bad {
    const char* what;
    Shape window;
    WindowOptions opts;
  };
  const Bad windows[] = {
      {"window of rank 1", {2}, {}},
      {"window size 0", {0, 2}, {}},
      {"stride 0", {2, 2}, {{1, 0}, {}, {}}},
      {"strides count", {2, 2}, {{1}, {}, {}}},
      {"negative padding", {2, 2}, {{}, {{-1, 0}, {0, 0}}, {}}},
      {"padding count", {2, 2}, {{}, {{1, 1}}, {}}},
      {"dilation 0", {2, 2}, {{}, {}, {0, 1}}},
      {"dilated window past int64", {3, 2}, {{}, {}, {big, 1}}},
      {"padded size past int64", {2, 2}, {{}, {{big, big}, {0, 0}}, {}}},
  };
  for (Op op : {Op::window_sum, Op::window_product, Op::window_max, Op::window_min}) {
    const std::string n(op_name(op));
    for (const Bad& b : windows) {
      add_case(v, n + "/" + b.what, S, n, {on_home({4, 4})},
               [op, b](const Inputs& x) { (void)run_window(op, x[0], b.window, b.opts); });
    }
    add_case(v, n + "/empty tensor", E, n, {empty_tensor()},
             [op](const Inputs& x) { (void)run_window(op, x[0], {}, {}); });
  }
  for (Op op :
       {Op::cumulative_sum, Op::cumulative_product, Op::cumulative_min, Op::cumulative_max}) {
    const std::string n(op_name(op));
    add_case(v, n + "/axis 2 of rank 2", A, n, {on_home({2, 3})},
             [op](const Inputs& x) { (void)run_scan(op, x[0], 2, false); });
    add_case(v, n + "/axis -3 of rank 2", A, n, {on_home({2, 3})},
             [op](const Inputs& x) { (void)run_scan(op, x[0], -3, true); });
    add_case(v, n + "/empty tensor", E, n, {empty_tensor()},
             [op](const Inputs& x) { (void)run_scan(op, x[0], 0, false); });
  }
}

// Decompositions and solvers. Inputs hold 0, 1, 2, ...: iota {2, 2} is not positive
// definite, iota {3, 3} is singular (its LU meets an exact zero pivot).
inline void add_decomposition_cases(std::vector<BadCase>& v) {
  const Expect S = Expect::shape, E = Expect::error, L = Expect::linalg;
  auto one = [&](std::string what, Expect x, std::string op, Spec a,
                 std::function<void(const Tensor&)> f) {
    add_case(v, op + "/" + what, x, op, {std::move(a)}, [f](const Inputs& in) { f(in[0]); });
  };
  auto two = [&](std::string what, Expect x, std::string op, Spec a, Spec b,
                 std::function<void(const Tensor&, const Tensor&)> f) {
    add_case(v, op + "/" + what, x, op, {std::move(a), std::move(b)},
             [f](const Inputs& in) { f(in[0], in[1]); });
  };
  auto tri = [](const Tensor& a, const Tensor& b) { (void)triangular_solve(a, b); };
  auto right = [](const Tensor& a, const Tensor& b) {
    (void)triangular_solve(a, b, {false, true, TriangularTransform::none});
  };
  two("a not square", S, "triangular_solve", on_home({2, 3}), on_home({2}), tri);
  two("a of rank 1", S, "triangular_solve", on_home({2}), on_home({2}), tri);
  two("b rows 3 for a 2x2", S, "triangular_solve", on_home({2, 2}), on_home({3, 1}), tri);
  two("b columns 3 for a 2x2 on the right", S, "triangular_solve", on_home({2, 2}), on_home({2, 3}),
      right);
  two("batch dims 2 and 3", S, "triangular_solve", on_home({2, 2, 2}), on_home({3, 2, 1}), tri);
  two("two devices", Expect::incompatible, "triangular_solve", on_dev({2, 2}), on_dev2({2, 1}),
      tri);
  two("empty operand", E, "triangular_solve", on_home({2, 2}), empty_tensor(), tri);
  auto slv = [](const Tensor& a, const Tensor& b) { (void)solve(a, b); };
  two("a not square", S, "solve", on_home({2, 3}), on_home({2}), slv);
  two("b size 3 for a 2x2", S, "solve", on_home({2, 2}), on_home({3}), slv);
  two("singular a", L, "solve", on_home({3, 3}), on_home({3}), slv);
  two("singular a on the device", L, "solve", on_dev({3, 3}), on_dev({3, 2}), slv);
  two("two devices", Expect::incompatible, "solve", on_dev({2, 2}), on_dev2({2}), slv);
  one("not square", S, "cholesky", on_home({2, 3}), [](auto& a) { (void)cholesky(a); });
  one("rank 1", S, "cholesky", on_home({4}), [](auto& a) { (void)cholesky(a); });
  one("not positive definite", L, "cholesky", on_home({2, 2}), [](auto& a) { (void)cholesky(a); });
  one("not positive definite on the device", L, "cholesky", on_dev({2, 2, 2}),
      [](auto& a) { (void)cholesky(a); });
  one("empty tensor", E, "cholesky", empty_tensor(), [](auto& a) { (void)cholesky(a); });
  one("rank 1", S, "qr", on_home({3}), [](auto& a) { (void)qr(a); });
  one("empty tensor", E, "qr", empty_tensor(), [](auto& a) { (void)qr(a); });
  one("not square", S, "lu", on_home({2, 3}), [](auto& a) { (void)lu(a); });
  one("not square", S, "eigh", on_dev({3, 2}), [](auto& a) { (void)eigh(a); });
  one("rank 0", S, "svd", on_home({}), [](auto& a) { (void)svd(a); });
  one("not square", S, "determinant", on_home({3, 2}), [](auto& a) { (void)determinant(a); });
  one("empty tensor", E, "determinant", empty_tensor(), [](auto& a) { (void)determinant(a); });
}

inline void add_sort_linalg_cases(std::vector<BadCase>& v) {
  const Expect S = Expect::shape, A = Expect::axis, E = Expect::error;
  add_case(v, "sort/axis 2 of rank 2", A, "sort", {on_home({2, 3})},
           [](const Inputs& x) { (void)sort(x[0], 2); });
  add_case(v, "sort/empty tensor", E, "sort", {empty_tensor()},
           [](const Inputs& x) { (void)sort(x[0]); });
  add_case(v, "argsort/axis -3 of rank 2", A, "argsort", {on_home({2, 3})},
           [](const Inputs& x) { (void)argsort(x[0], -3); });
  add_case(v, "argsort/empty tensor", E, "argsort", {empty_tensor()},
           [](const Inputs& x) { (void)argsort(x[0]); });
  add_case(v, "top_k/k 4 of 3", S, "top_k", {on_home({2, 3})},
           [](const Inputs& x) { (void)top_k(x[0], 4); });
  add_case(v, "top_k/k -1", S, "top_k", {on_home({3})},
           [](const Inputs& x) { (void)top_k(x[0], -1); });
  add_case(v, "top_k/rank 0", S, "top_k", {on_home({})},
           [](const Inputs& x) { (void)top_k(x[0], 1); });
  add_case(v, "top_k/empty tensor", E, "top_k", {empty_tensor()},
           [](const Inputs& x) { (void)top_k(x[0], 1); });
  auto two = [&](std::string what, Expect x, std::string op, Spec a, Spec b,
                 std::function<void(const Tensor&, const Tensor&)> f) {
    add_case(v, op + "/" + what, x, op, {std::move(a), std::move(b)},
             [f](const Inputs& in) { f(in[0], in[1]); });
  };
  two("contracting axes count", A, "dot", on_home({2, 3}), on_home({3, 2}), [](auto& a, auto& b) {
    (void)dot(a, {1}, {}, b, {0, 1}, {});
  });
  two("contracting sizes 3 and 2", S, "dot", on_home({2, 3}), on_home({2, 2}),
      [](auto& a, auto& b) { (void)dot(a, {1}, {}, b, {0}, {}); });
  two("axis 2 of rank 2", A, "dot", on_home({2, 3}), on_home({3, 2}),
      [](auto& a, auto& b) { (void)dot(a, {2}, {}, b, {0}, {}); });
  two("axis both contracted and batch", A, "dot", on_home({3, 3}), on_home({3, 3}),
      [](auto& a, auto& b) { (void)dot(a, {0}, {0}, b, {0}, {1}); });
  two("batch sizes 2 and 4", S, "dot", on_home({2, 3}), on_home({4, 3}),
      [](auto& a, auto& b) { (void)dot(a, {1}, {0}, b, {1}, {0}); });
  two("two devices", Expect::incompatible, "dot", on_dev({2, 3}), on_dev2({3, 2}),
      [](auto& a, auto& b) { (void)dot(a, b); });
  two("empty operand", E, "dot", on_home({2, 3}), empty_tensor(),
      [](auto& a, auto& b) { (void)dot(a, b); });
  two("inner sizes 3 and 2", S, "matmul", on_home({2, 3}), on_home({2, 2}),
      [](auto& a, auto& b) { (void)matmul(a, b); });
  two("rank 0", S, "matmul", on_home({}), on_home({2, 2}),
      [](auto& a, auto& b) { (void)matmul(a, b); });
  two("batch dims 2 and 3", S, "matmul", on_home({2, 2, 2}), on_home({3, 2, 2}),
      [](auto& a, auto& b) { (void)matmul(a, b); });
  two("two devices", Expect::incompatible, "matmul", on_dev({2, 2}), on_dev2({2, 2}),
      [](auto& a, auto& b) { (void)matmul(a, b); });
  two("empty operand", E, "matmul", empty_tensor(), on_home({2, 2}),
      [](auto& a, auto& b) { (void)matmul(a, b); });
  // Options set by a mutator (designated initializers would trip clang's
  // missing-field-initializers).
  auto conv_with = [](std::function<void(ConvOptions&)> set) {
    ConvOptions o;
    set(o);
    return [o](const Tensor& a, const Tensor& b) { (void)conv(a, b, o); };
  };
  auto defaults = [](ConvOptions&) {};
  two("input rank 2", S, "conv", on_home({2, 3}), on_home({2, 3}), conv_with(defaults));
  two("kernel rank 4 for input rank 3", S, "conv", on_home({1, 2, 5}), on_home({1, 2, 3, 3}),
      conv_with(defaults));
  two("input channels 3, kernel channels 2", S, "conv", on_home({1, 3, 5}), on_home({2, 2, 3}),
      conv_with(defaults));
  two("feature groups 2 and 3 out channels", S, "conv", on_home({1, 4, 5}), on_home({3, 2, 3}),
      conv_with([](ConvOptions& o) { o.feature_group_size = 2; }));
  two("both group sizes 2", S, "conv", on_home({2, 4, 5}), on_home({4, 2, 3}),
      conv_with([](ConvOptions& o) { o.feature_group_size = o.batch_group_size = 2; }));
  two("batch groups 2 of batch 3", S, "conv", on_home({3, 2, 5}), on_home({2, 2, 3}),
      conv_with([](ConvOptions& o) { o.batch_group_size = 2; }));
  two("group size 0", S, "conv", on_home({1, 2, 5}), on_home({2, 2, 3}),
      conv_with([](ConvOptions& o) { o.feature_group_size = 0; }));
  two("stride 0", S, "conv", on_home({1, 2, 5}), on_home({2, 2, 3}),
      conv_with([](ConvOptions& o) { o.strides = {0}; }));
  two("two strides for one spatial axis", S, "conv", on_home({1, 2, 5}), on_home({2, 2, 3}),
      conv_with([](ConvOptions& o) {
        o.strides = {1, 1};
      }));
  two("kernel dilation 0", S, "conv", on_home({1, 2, 5}), on_home({2, 2, 3}),
      conv_with([](ConvOptions& o) { o.kernel_dilation = {0}; }));
  two("input dilation -1", S, "conv", on_home({1, 2, 5}), on_home({2, 2, 3}),
      conv_with([](ConvOptions& o) { o.input_dilation = {-1}; }));
  two("padding for two axes", S, "conv", on_home({1, 2, 5}), on_home({2, 2, 3}),
      conv_with([](ConvOptions& o) {
        o.padding = {{1, 1}, {1, 1}};
      }));
  two("output size 0", S, "conv", on_home({1, 1, 2}), on_home({1, 1, 3}), conv_with(defaults));
  two("padding -3 makes output size <= 0", S, "conv", on_home({1, 1, 5}), on_home({1, 1, 3}),
      conv_with([](ConvOptions& o) {
        o.padding = {{-3, 0}};
      }));
  two("input permutation repeats an axis", A, "conv", on_home({1, 2, 5}), on_home({2, 2, 3}),
      conv_with([](ConvOptions& o) {
        o.input_permutation = {0, 0, 2};
      }));
  two("two devices", Expect::incompatible, "conv", on_dev({1, 2, 5}), on_dev2({2, 2, 3}),
      conv_with(defaults));
  two("empty operand", E, "conv", on_home({1, 2, 5}), empty_tensor(), conv_with(defaults));
  add_decomposition_cases(v);
}

// Policy 'error' with the op's native kernel off: the fallback is refused, naming the op.
// Inputs need no conversion first (an as_type would be refused before the op itself).
inline void add_forbidden_fallback_cases(std::vector<BadCase>& v) {
  auto forbid = [&](Op op, std::vector<Spec> specs, std::function<void(const Inputs&)> f) {
    const std::string n(op_name(op));
    v.push_back({n + "/fallback under policy error", Expect::forbidden, n, std::move(specs),
                 std::move(f), op});
  };
  const DType s64 = DType::s64;
  forbid(Op::full, {on_dev({1})}, [](auto& x) { (void)full({3}, 1, DType::f32, &x[0].backend()); });
  forbid(Op::exp, {on_dev({3})}, [](auto& x) { (void)exp(x[0]); });
  forbid(Op::add, {on_dev({3}), on_dev({3})}, [](auto& x) { (void)add(x[0], x[1]); });
  forbid(Op::as_type, {on_dev({3})}, [](auto& x) { (void)as_type(x[0], DType::s32); });
  forbid(Op::sum, {on_dev({2, 3})}, [](auto& x) { (void)sum(x[0], {1}); });
  forbid(Op::argmax, {on_dev({2, 3})}, [](auto& x) { (void)argmax(x[0], 1); });
  forbid(Op::sort, {on_dev({2, 3})}, [](auto& x) { (void)sort(x[0]); });
  forbid(Op::transpose, {on_dev({2, 3})}, [](auto& x) { (void)transpose(x[0]); });
  forbid(Op::slice, {on_dev({4})}, [](auto& x) { (void)slice(x[0], {1}, {2}); });
  forbid(Op::gather, {on_dev({4}), on_dev({2, 1}, s64)}, [](auto& x) { (void)gather(x[0], x[1]); });
  forbid(Op::take, {on_dev({4}), on_dev({2}, s64)}, [](auto& x) { (void)take(x[0], x[1]); });
  forbid(Op::concatenate, {on_dev({2}), on_dev({3})}, [](auto& x) {
    (void)concatenate({x[0], x[1]});
  });
  forbid(Op::window_sum, {on_dev({4})}, [](auto& x) { (void)window_sum(x[0], {2}); });
  forbid(Op::cumulative_sum, {on_dev({4})}, [](auto& x) { (void)cumulative_sum(x[0]); });
  forbid(Op::dot, {on_dev({2, 3}), on_dev({3, 2})}, [](auto& x) { (void)dot(x[0], x[1]); });
  forbid(Op::conv, {on_dev({1, 2, 5}), on_dev({2, 2, 3})}, [](auto& x) { (void)conv(x[0], x[1]); });
  forbid(Op::triangular_solve, {on_dev({2, 2}), on_dev({2, 1})},
         [](auto& x) { (void)triangular_solve(x[0], x[1]); });
  forbid(Op::cholesky, {on_dev({2, 2})}, [](auto& x) { (void)cholesky(x[0]); });
}

}  // namespace vkt::testing
