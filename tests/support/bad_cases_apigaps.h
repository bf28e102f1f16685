// Bad-input cases: window_scatter_max/min, reduce / window_reduce with a function,
// all_close, to_batched, tensor starts for slice / put_slice, inspect, partial reads,
// from_pointer / to_pointer.
#pragma once

#include <cstdint>

#include "support/bad_inputs.h"

namespace vkt::testing {

inline void add_apigaps_cases(std::vector<BadCase>& v) {
  const Expect S = Expect::shape, A = Expect::axis, E = Expect::error, T = Expect::type,
               I = Expect::incompatible, U = Expect::unsupported;
  for (Op op : {Op::window_scatter_max, Op::window_scatter_min}) {
    const std::string n(op_name(op));
    auto run = [op](const Tensor& t, const Tensor& s, const Shape& w, const WindowOptions& o) {
      (void)(op == Op::window_scatter_max ? window_scatter_max(t, s, 0, w, o)
                                          : window_scatter_min(t, s, 0, w, o));
    };
    add_case(v, n + "/source shape", S, n, {on_home({4, 4}), on_home({2, 2})},
             [run](const Inputs& x) {
               run(x[0], x[1], {2, 2}, {});
             });
    add_case(v, n + "/window of rank 1", S, n, {on_home({4, 4}), on_home({3, 3})},
             [run](const Inputs& x) { run(x[0], x[1], {2}, {}); });
    add_case(v, n + "/stride 0", S, n, {on_home({4, 4}), on_home({3, 3})}, [run](const Inputs& x) {
      run(x[0], x[1], {2, 2}, {{0, 1}, {}, {}});
    });
    add_case(v, n + "/negative padding", S, n, {on_home({4, 4}), on_home({3, 3})},
             [run](const Inputs& x) {
               run(x[0], x[1], {2, 2}, {{}, {{-1, 0}, {0, 0}}, {}});
             });
    add_case(v, n + "/empty source", E, n, {on_home({4, 4}), empty_tensor()},
             [run](const Inputs& x) {
               run(x[0], x[1], {2, 2}, {});
             });
    add_case(v, n + "/two devices", I, n, {on_dev({4, 4}), on_dev2({3, 3})},
             [run](const Inputs& x) {
               run(x[0], x[1], {2, 2}, {});
             });
  }
  auto add_fn = [](Scalar x, Scalar acc) { return x.as<std::int64_t>() + acc.as<std::int64_t>(); };
  add_case(v, "reduce/axis 2 of rank 2", A, "reduce", {on_home({2, 3})},
           [add_fn](const Inputs& x) { (void)reduce(x[0], 0, add_fn, {2}); });
  add_case(v, "reduce/repeated axis", A, "reduce", {on_home({2, 3})}, [add_fn](const Inputs& x) {
    (void)reduce(x[0], 0, add_fn, {1, -1});
  });
  add_case(v, "reduce/empty function", E, "reduce", {on_home({2, 3})},
           [](const Inputs& x) { (void)reduce(x[0], 0, ReduceFunction{}); });
  add_case(v, "reduce/empty tensor", E, "reduce", {empty_tensor()},
           [add_fn](const Inputs& x) { (void)reduce(x[0], 0, add_fn); });
  add_case(v, "window_reduce/window size 0", S, "window_reduce", {on_home({2, 3})},
           [add_fn](const Inputs& x) {
             (void)window_reduce(x[0], 0, {1, 0}, {}, add_fn);
           });
  add_case(v, "window_reduce/padding count", S, "window_reduce", {on_home({2, 3})},
           [add_fn](const Inputs& x) {
             (void)window_reduce(x[0], 0, {1, 1}, {{}, {{1, 1}}, {}}, add_fn);
           });
  add_case(v, "window_reduce/empty function", E, "window_reduce", {on_home({2, 3})},
           [](const Inputs& x) {
             (void)window_reduce(x[0], 0, {1, 1}, {}, ReduceFunction{});
           });
  add_case(v, "window_reduce/empty tensor", E, "window_reduce", {empty_tensor()},
           [add_fn](const Inputs& x) { (void)window_reduce(x[0], 0, {}, {}, add_fn); });
  add_case(v, "all_close/shapes", S, "all_close", {on_home({3}), on_home({4})},
           [](const Inputs& x) { (void)all_close(x[0], x[1]); });
  add_case(v, "all_close/negative rtol", E, "all_close", {on_home({3}), on_home({3})},
           [](const Inputs& x) {
             (void)all_close(x[0], x[1], {-1e-5, 1e-8, false});
           });
  add_case(v, "all_close/empty tensor", E, "all_close", {on_home({3}), empty_tensor()},
           [](const Inputs& x) { (void)all_close(x[0], x[1]); });
  add_case(v, "all_close/two devices", I, "all_close", {on_dev({3}), on_dev2({3})},
           [](const Inputs& x) { (void)all_close(x[0], x[1]); });
  add_case(v, "to_batched/scalar", S, "to_batched", {on_home({})},
           [](const Inputs& x) { (void)to_batched(x[0], 1); });
  add_case(v, "to_batched/batch_size 0", S, "to_batched", {on_home({3})},
           [](const Inputs& x) { (void)to_batched(x[0], 0); });
  add_case(v, "to_batched/batch_size past axis 0", S, "to_batched", {on_home({3, 2})},
           [](const Inputs& x) { (void)to_batched(x[0], 4); });
  add_case(v, "to_batched/empty tensor", E, "to_batched", {empty_tensor()},
           [](const Inputs& x) { (void)to_batched(x[0], 1); });
  add_case(v, "slice/float start tensor", T, "slice", {on_home({4, 4}), on_home({}, DType::f32)},
           [](const Inputs& x) {
             (void)slice(x[0], {x[1], x[1]}, {2, 2});
           });
  add_case(v, "slice/start tensor of rank 1", S, "slice",
           {on_home({4, 4}), on_home({1}, DType::s64)}, [](const Inputs& x) {
             (void)slice(x[0], {x[1], x[1]}, {2, 2});
           });
  add_case(v, "slice/start tensor count", S, "slice", {on_home({4, 4}), on_home({}, DType::s64)},
           [](const Inputs& x) {
             (void)slice(x[0], {x[1]}, {2, 2});
           });
  add_case(v, "slice/device start, length past the axis", S, "slice",
           {on_home({4, 4}), on_dev({}, DType::s64)}, [](const Inputs& x) {
             (void)slice(x[0], {x[1], x[1]}, {5, 2});
           });
  add_case(v, "slice/start tensor on another device", I, "slice",
           {on_dev({4, 4}), on_dev2({}, DType::s64)}, [](const Inputs& x) {
             (void)slice(x[0], {x[1], x[1]}, {2, 2});
           });
  add_case(v, "put_slice/float start tensor", T, "put_slice",
           {on_home({4, 4}), on_home({}, DType::f64), on_home({2, 2})}, [](const Inputs& x) {
             (void)put_slice(x[0], {x[1], x[1]}, x[2]);
           });
  add_case(v, "put_slice/device start, update too big", S, "put_slice",
           {on_home({4, 4}), on_dev({}, DType::s32), on_home({5, 2})}, [](const Inputs& x) {
             (void)put_slice(x[0], {x[1], x[1]}, x[2]);
           });
  add_case(v, "put_slice/start tensor on another device", I, "put_slice",
           {on_dev({4, 4}), on_dev2({}, DType::s64), on_dev({2, 2})}, [](const Inputs& x) {
             (void)put_slice(x[0], {x[1], x[1]}, x[2]);
           });
  add_case(v, "inspect/negative limit", S, "inspect", {on_home({3})},
           [](const Inputs& x) { (void)inspect(x[0], -1); });
  add_case(v, "inspect/empty tensor", E, "inspect", {empty_tensor()},
           [](const Inputs& x) { (void)inspect(x[0]); });
  add_case(v, "to_bytes/negative limit", S, "to_bytes", {on_dev({3})},
           [](const Inputs& x) { (void)x[0].to_bytes(-1); });
  add_case(v, "to_pointer/device tensor", U, "to_pointer", {on_dev({3})},
           [](const Inputs& x) { (void)to_pointer(x[0]); });
  add_case(v, "from_pointer/misaligned", E, "from_pointer", {}, [](const Inputs&) {
    alignas(8) static const std::byte raw[16] = {};
    (void)from_pointer(raw + 1, DType::f32, {2});
  });
}

// Policy 'error': these ops have no native kernel, so from a device they are refused.
inline void add_apigaps_forbidden_cases(std::vector<BadCase>& v) {
  auto forbid = [&](Op op, std::vector<Spec> specs, std::function<void(const Inputs&)> f) {
    const std::string n(op_name(op));
    v.push_back({n + "/fallback under policy error", Expect::forbidden, n, std::move(specs),
                 std::move(f), op});
  };
  forbid(Op::window_scatter_max, {on_dev({4}), on_dev({3})},
         [](auto& x) { (void)window_scatter_max(x[0], x[1], 0, {2}); });
  forbid(Op::window_scatter_min, {on_dev({4}), on_dev({3})},
         [](auto& x) { (void)window_scatter_min(x[0], x[1], 0, {2}); });
  forbid(Op::reduce, {on_dev({2, 3})}, [](auto& x) {
    (void)reduce(x[0], 0.0, [](Scalar a, Scalar b) { return a.as_double() + b.as_double(); });
  });
  forbid(Op::window_reduce, {on_dev({4})}, [](auto& x) {
    (void)window_reduce(x[0], 0.0, {2}, {},
                        [](Scalar a, Scalar b) { return a.as_double() + b.as_double(); });
  });
}

}  // namespace vkt::testing
