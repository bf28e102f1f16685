// Bad-input cases: shape and movement ops, indexing and joining (index dtypes and values
// included; out-of-range index values are clamped or skipped by design, so not here).
#pragma once

#include <cstdint>
#include <limits>

#include "support/bad_inputs.h"

namespace vkt::testing {

inline void add_movement_cases(std::vector<BadCase>& v) {
  const std::int64_t big = std::numeric_limits<std::int64_t>::max();
  const Expect S = Expect::shape, A = Expect::axis, E = Expect::error;
  auto one = [&](std::string name, Expect x, std::string op, Spec s,
                 std::function<void(const Tensor&)> f) {
    add_case(v, op + "/" + name, x, op, {std::move(s)}, [f](const Inputs& in) { f(in[0]); });
  };
  one("6 elements into 4", S, "reshape", on_home({2, 3}), [](auto& t) { (void)reshape(t, {4}); });
  one("two -1", S, "reshape", on_home({2, 3}), [](auto& t) { (void)reshape(t, {-1, -1}); });
  one("-2", S, "reshape", on_home({2, 3}), [](auto& t) { (void)reshape(t, {-2, -3}); });
  one("-1 beside 0", S, "reshape", on_home({0}), [](auto& t) { (void)reshape(t, {-1, 0}); });
  one("empty tensor", E, "reshape", empty_tensor(), [](auto& t) { (void)reshape(t, {1}); });
  one("axis of size 2", S, "squeeze", on_home({2, 3}), [](auto& t) { (void)squeeze(t, {0}); });
  one("axis 5", A, "squeeze", on_home({1, 3}), [](auto& t) { (void)squeeze(t, {5}); });
  one("repeated axis", A, "squeeze", on_home({1, 1}), [](auto& t) { (void)squeeze(t, {0, 0}); });
  one("empty tensor", E, "squeeze", empty_tensor(), [](auto& t) { (void)squeeze(t); });
  one("{3} to {4}", S, "broadcast", on_home({3}), [](auto& t) { (void)broadcast(t, {4}); });
  one("to a lower rank", S, "broadcast", on_home({2, 3}), [](auto& t) { (void)broadcast(t, {3}); });
  one("axes decreasing", A, "broadcast", on_home({1, 1}), [](auto& t) {
    (void)broadcast(t, {2, 2}, {1, 0});
  });
  one("axes count", A, "broadcast", on_home({1, 1}), [](auto& t) {
    (void)broadcast(t, {2, 2}, {0});
  });
  one("axis 4", A, "broadcast", on_home({1}), [](auto& t) { (void)broadcast(t, {2, 2}, {4}); });
  one("negative target", S, "broadcast", on_home({1}), [](auto& t) { (void)broadcast(t, {-2}); });
  one("2^62 f32 elements", S, "broadcast", on_home({1}),
      [](auto& t) { (void)broadcast(t, {std::int64_t{1} << 62}); });
  one("empty tensor", E, "broadcast", empty_tensor(), [](auto& t) { (void)broadcast(t, {2}); });
  one("short permutation", A, "transpose", on_home({2, 3, 4}), [](auto& t) {
    (void)transpose(t, {1, 0});
  });
  one("repeated axis", A, "transpose", on_home({2, 3}), [](auto& t) {
    (void)transpose(t, {0, 0});
  });
  one("axis 2 of rank 2", A, "transpose", on_home({2, 3}), [](auto& t) {
    (void)transpose(t, {2, 0});
  });
  one("empty tensor", E, "transpose", empty_tensor(), [](auto& t) { (void)transpose(t); });
  one("config for rank 1", S, "pad", on_home({2, 3}), [](auto& t) {
    (void)pad(t, 0, {{1, 1, 0}});
  });
  one("negative interior", S, "pad", on_home({3}), [](auto& t) { (void)pad(t, 0, {{0, 0, -1}}); });
  one("negative size", S, "pad", on_home({3}), [](auto& t) { (void)pad(t, 0, {{-2, -2, 0}}); });
  one("lo + hi past int64", S, "pad", on_home({3}), [=](auto& t) {
    (void)pad(t, 0, {{big, big, 0}});
  });
  one("interior past int64", S, "pad", on_home({3}), [=](auto& t) {
    (void)pad(t, 0, {{0, 0, big}});
  });
  one("empty tensor", E, "pad", empty_tensor(), [](auto& t) { (void)pad(t, 0, {}); });
  one("axis 3", A, "reverse", on_home({2, 3}), [](auto& t) { (void)reverse(t, {3}); });
  one("repeated axis", A, "reverse", on_home({2, 3}), [](auto& t) { (void)reverse(t, {1, -1}); });
  one("empty tensor", E, "reverse", empty_tensor(), [](auto& t) { (void)reverse(t); });
  one("start count", S, "slice", on_home({4, 4}), [](auto& t) { (void)slice(t, {0}, {2, 2}); });
  one("lengths count", S, "slice", on_home({4, 4}), [](auto& t) { (void)slice(t, {0, 0}, {2}); });
  one("strides count", S, "slice", on_home({4, 4}), [](auto& t) {
    (void)slice(t, {0, 0}, {2, 2}, {1});
  });
  one("stride 0", S, "slice", on_home({4}), [](auto& t) { (void)slice(t, {0}, {2}, {0}); });
  one("negative length", S, "slice", on_home({4}), [](auto& t) { (void)slice(t, {0}, {-1}); });
  one("length 5 of 4", S, "slice", on_home({4}), [](auto& t) { (void)slice(t, {0}, {5}); });
  one("span past int64", S, "slice", on_home({4}),
      [](auto& t) { (void)slice(t, {0}, {3}, {std::int64_t{1} << 62}); });
  one("empty tensor", E, "slice", empty_tensor(),
      [](auto& t) { (void)slice(t, std::vector<std::int64_t>{}, {}); });
  auto two = [&](std::string name, Expect x, std::string op, Spec a, Spec b,
                 std::function<void(const Tensor&, const Tensor&)> f) {
    add_case(v, op + "/" + name, x, op, {std::move(a), std::move(b)},
             [f](const Inputs& in) { f(in[0], in[1]); });
  };
  two("start count", S, "put_slice", on_home({4, 4}), on_home({2, 2}),
      [](auto& t, auto& u) { (void)put_slice(t, {0}, u); });
  two("update rank", S, "put_slice", on_home({4, 4}), on_home({2}), [](auto& t, auto& u) {
    (void)put_slice(t, {0, 0}, u);
  });
  two("update too big", S, "put_slice", on_home({4, 4}), on_home({5, 1}), [](auto& t, auto& u) {
    (void)put_slice(t, {0, 0}, u);
  });
  two("empty update", E, "put_slice", on_home({4}), empty_tensor(),
      [](auto& t, auto& u) { (void)put_slice(t, {0}, u); });
  two("two devices", Expect::incompatible, "put_slice", on_dev({4}), on_dev2({2}),
      [](auto& t, auto& u) { (void)put_slice(t, {0}, u); });
  for (const char* op : {"concatenate", "stack"}) {
    const bool cat = std::string(op) == "concatenate";
    auto join = [cat](const std::vector<Tensor>& ts, std::int64_t axis) {
      (void)(cat ? concatenate(ts, axis) : stack(ts, axis));
    };
    add_case(v, std::string(op) + "/no tensors", S, op, {}, [join](auto&) { join({}, 0); });
    two("shapes {2, 3} and {3, 3}", S, op, on_home({2, 3}), on_home({3, 3}),
        [join](auto& a, auto& b) {
          join({a, b}, 1);
        });
    two("axis 3", A, op, on_home({2, 3}), on_home({2, 3}), [join](auto& a, auto& b) {
      join({a, b}, 3);
    });
    two("two devices", Expect::incompatible, op, on_dev({2}), on_dev2({2}),
        [join](auto& a, auto& b) {
          join({a, b}, 0);
        });
    two("empty tensor", E, op, on_home({2}), empty_tensor(), [join](auto& a, auto& b) {
      join({a, b}, 0);
    });
  }
  two("rank 0", S, "concatenate", on_home({}), on_home({}), [](auto& a, auto& b) {
    (void)concatenate({a, b});
  });
}

inline void add_index_cases(std::vector<BadCase>& v) {
  const DType floats[] = {DType::f16, DType::bf16, DType::f32, DType::f64};
  for (DType d : floats) {
    const std::string dn(dtype_name(d));
    add_case(v, "gather/" + dn + " indices", Expect::type, "gather",
             {on_home({4, 2}), on_home({3, 1}, d)},
             [](const Inputs& x) { (void)gather(x[0], x[1]); });
    add_case(v, "take/" + dn + " indices", Expect::type, "take", {on_home({4}), on_home({3}, d)},
             [](const Inputs& x) { (void)take(x[0], x[1]); });
    add_case(v, "take_along_axis/" + dn + " indices", Expect::type, "take_along_axis",
             {on_home({4}), on_home({3}, d)},
             [](const Inputs& x) { (void)take_along_axis(x[0], x[1], 0); });
    add_case(v, "indexed_add/" + dn + " indices", Expect::type, "indexed_add",
             {on_home({4}), on_home({2, 1}, d), on_home({2})},
             [](const Inputs& x) { (void)indexed_add(x[0], x[1], x[2]); });
    add_case(v, "indexed_put/" + dn + " indices", Expect::type, "indexed_put",
             {on_home({4}), on_home({2, 1}, d), on_home({2})},
             [](const Inputs& x) { (void)indexed_put(x[0], x[1], x[2]); });
  }
  const Expect S = Expect::shape, A = Expect::axis, I = Expect::incompatible, E = Expect::error;
  const DType s32 = DType::s32;
  struct Row {
    const char* what;
    Expect x;
    const char* op;
    std::vector<Spec> specs;
    std::function<void(const Inputs&)> f;
  };
  const Row rows[] = {
      {"rank-0 indices",
       S,
       "gather",
       {on_home({4}), on_home({}, s32)},
       [](auto& x) { (void)gather(x[0], x[1]); }},
      {"3 index columns for rank 2",
       S,
       "gather",
       {on_home({4, 2}), on_home({2, 3}, s32)},
       [](auto& x) { (void)gather(x[0], x[1]); }},
      {"axes count",
       S,
       "gather",
       {on_home({4, 2}), on_home({2, 1}, s32)},
       [](auto& x) {
         (void)gather(x[0], x[1], {0, 1});
       }},
      {"repeated axes",
       A,
       "gather",
       {on_home({4, 2}), on_home({2, 2}, s32)},
       [](auto& x) {
         (void)gather(x[0], x[1], {0, 0});
       }},
      {"axis 2",
       A,
       "gather",
       {on_home({4, 2}), on_home({2, 1}, s32)},
       [](auto& x) { (void)gather(x[0], x[1], {2}); }},
      {"index into an axis of size 0",
       S,
       "gather",
       {on_home({0, 3}), on_home({2, 1}, s32)},
       [](auto& x) { (void)gather(x[0], x[1]); }},
      {"two devices",
       I,
       "gather",
       {on_dev({4}), on_dev2({2, 1}, s32)},
       [](auto& x) { (void)gather(x[0], x[1]); }},
      {"empty indices",
       E,
       "gather",
       {on_home({4}), empty_tensor()},
       [](auto& x) { (void)gather(x[0], x[1]); }},
      {"axis 1 of rank 1",
       A,
       "take",
       {on_home({4}), on_home({2}, s32)},
       [](auto& x) { (void)take(x[0], x[1], 1); }},
      {"index into an axis of size 0",
       S,
       "take",
       {on_home({0}), on_home({2}, s32)},
       [](auto& x) { (void)take(x[0], x[1]); }},
      {"two devices",
       I,
       "take",
       {on_dev({4}), on_dev2({2}, s32)},
       [](auto& x) { (void)take(x[0], x[1]); }},
      {"empty tensor",
       E,
       "take",
       {empty_tensor(), on_home({2}, s32)},
       [](auto& x) { (void)take(x[0], x[1]); }},
      {"indices {3, 3} for {2, 3}",
       S,
       "take_along_axis",
       {on_home({2, 3}), on_home({3, 3}, s32)},
       [](auto& x) { (void)take_along_axis(x[0], x[1], 1); }},
      {"indices of rank 1 for rank 2",
       S,
       "take_along_axis",
       {on_home({2, 3}), on_home({3}, s32)},
       [](auto& x) { (void)take_along_axis(x[0], x[1], 1); }},
      {"axis 2",
       A,
       "take_along_axis",
       {on_home({2, 3}), on_home({2, 3}, s32)},
       [](auto& x) { (void)take_along_axis(x[0], x[1], 2); }},
      {"index into an axis of size 0",
       S,
       "take_along_axis",
       {on_home({2, 0}), on_home({2, 1}, s32)},
       [](auto& x) { (void)take_along_axis(x[0], x[1], 1); }},
      {"two devices",
       I,
       "take_along_axis",
       {on_dev({4}), on_dev2({2}, s32)},
       [](auto& x) { (void)take_along_axis(x[0], x[1], 0); }},
      {"shapes {2} {3} {2}",
       S,
       "select",
       {on_home({2}, DType::u8), on_home({3}), on_home({2})},
       [](auto& x) { (void)select(x[0], x[1], x[2]); }},
      {"two devices",
       I,
       "select",
       {on_dev({2}, DType::u8), on_dev2({2}), on_home({2})},
       [](auto& x) { (void)select(x[0], x[1], x[2]); }},
      {"empty predicate",
       E,
       "select",
       {empty_tensor(), on_home({2}), on_home({2})},
       [](auto& x) { (void)select(x[0], x[1], x[2]); }},
      {"shapes {2} {3} {2}",
       S,
       "clip",
       {on_home({2}), on_home({3}), on_home({2})},
       [](auto& x) { (void)clip(x[0], x[1], x[2]); }},
      {"two devices",
       I,
       "clip",
       {on_dev({2}), on_dev2({2}), on_dev({2})},
       [](auto& x) { (void)clip(x[0], x[1], x[2]); }},
      {"empty bound",
       E,
       "clip",
       {on_home({2}), empty_tensor(), on_home({2})},
       [](auto& x) { (void)clip(x[0], x[1], x[2]); }},
      {"empty tensor with literals",
       E,
       "clip",
       {empty_tensor()},
       [](auto& x) { (void)clip(x[0], 0, 1); }},
  };
  for (const Row& r : rows) add_case(v, std::string(r.op) + "/" + r.what, r.x, r.op, r.specs, r.f);
  for (Op op : {Op::indexed_add, Op::indexed_put}) {
    const std::string n(op_name(op));
    auto run = [op](const Inputs& x, const Axes& axes) {
      (void)(op == Op::indexed_add ? indexed_add(x[0], x[1], x[2], axes)
                                   : indexed_put(x[0], x[1], x[2], axes));
    };
    const Row cases[] = {
        {"indices of rank 1",
         S,
         "",
         {on_home({4}), on_home({2}, s32), on_home({2})},
         [run](auto& x) { run(x, {}); }},
        {"updates {3} for 2 rows",
         S,
         "",
         {on_home({4}), on_home({2, 1}, s32), on_home({3})},
         [run](auto& x) { run(x, {}); }},
        {"repeated axes",
         A,
         "",
         {on_home({4, 4}), on_home({2, 2}, s32), on_home({2})},
         [run](auto& x) {
           run(x, {1, 1});
         }},
        {"2 index columns for rank 1",
         S,
         "",
         {on_home({4}), on_home({2, 2}, s32), on_home({2})},
         [run](auto& x) { run(x, {}); }},
        {"two devices",
         I,
         "",
         {on_dev({4}), on_home({2, 1}, s32), on_dev2({2})},
         [run](auto& x) { run(x, {}); }},
        {"empty updates",
         E,
         "",
         {on_home({4}), on_home({2, 1}, s32), empty_tensor()},
         [run](auto& x) { run(x, {}); }},
    };
    for (const Row& r : cases) add_case(v, n + "/" + r.what, r.x, n, r.specs, r.f);
  }
}

}  // namespace vkt::testing
