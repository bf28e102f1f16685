// Bad-input cases: elementwise unary and binary ops (every op of both lists), creation,
// conversion and consumer reads.
#pragma once

#include <cstdint>
#include <limits>

#include "support/bad_inputs.h"
#include "vkt/backend/op_info.h"

namespace vkt::testing {

inline void add_elementwise_cases(std::vector<BadCase>& v) {
  const DType floats[] = {DType::f16, DType::bf16, DType::f32, DType::f64};
  for (Op op : all_ops()) {
    const std::string n(op_name(op));
    if (op_family(op) == OpFamily::unary) {
      add_case(v, n + "/empty tensor", Expect::error, n, {empty_tensor()},
               [op](const Inputs& x) { (void)unary(op, x[0]); });
      if (op_info(op).dtypes == OpDTypes::integer) {
        for (DType d : floats) {
          add_case(v, n + "/" + std::string(dtype_name(d)) + " input", Expect::type, n,
                   {on_home({3}, d)}, [op](const Inputs& x) { (void)unary(op, x[0]); });
        }
      }
    }
    // Ops the op table keeps to real (or integer) dtypes refuse complex ones.
    if (op_family(op) == OpFamily::unary && !op_accepts(op, DType::c64)) {
      for (DType d : kComplexDTypes) {
        add_case(v, n + "/" + std::string(dtype_name(d)) + " input", Expect::type, n,
                 {on_home({3}, d)}, [op](const Inputs& x) { (void)unary(op, x[0]); });
      }
    }
    if (op_family(op) != OpFamily::binary) continue;
    if (!op_accepts(op, DType::c64)) {
      add_case(v, n + "/c64 operands", Expect::type, n,
               {on_home({2}, DType::c64), on_home({2}, DType::c64)},
               [op](const Inputs& x) { (void)binary(op, x[0], x[1]); });
      add_case(v, n + "/s32 with c128", Expect::type, n,
               {on_home({2}, DType::s32), on_home({2}, DType::c128)},
               [op](const Inputs& x) { (void)binary(op, x[0], x[1]); });
    }
    add_case(v, n + "/shapes {2, 3} and {4}", Expect::shape, n, {on_home({2, 3}), on_home({4})},
             [op](const Inputs& x) { (void)binary(op, x[0], x[1]); });
    add_case(v, n + "/empty right operand", Expect::error, n, {on_home({2}), empty_tensor()},
             [op](const Inputs& x) { (void)binary(op, x[0], x[1]); });
    // s32 operands: the to_float ops convert them first, which must not hide a device.
    add_case(v, n + "/two devices", Expect::incompatible, n,
             {on_dev({2}, DType::s32), on_dev2({2}, DType::s32)},
             [op](const Inputs& x) { (void)binary(op, x[0], x[1]); });
    if (op_info(op).dtypes == OpDTypes::integer) {
      add_case(v, n + "/f32 operands", Expect::type, n, {on_home({2}), on_home({2})},
               [op](const Inputs& x) { (void)binary(op, x[0], x[1]); });
      add_case(v, n + "/s32 with f64", Expect::type, n,
               {on_home({2}, DType::s32), on_home({2}, DType::f64)},
               [op](const Inputs& x) { (void)binary(op, x[0], x[1]); });
    }
  }
  // A literal with an empty tensor: the literal's overloads, one per op.
#define VKT_LITERAL_CASE(name)                                                               \
  add_case(v, #name "/literal with an empty tensor", Expect::error, #name, {empty_tensor()}, \
           [](const Inputs& x) { (void)name(x[0], 2.0); });                                  \
  add_case(v, #name "/empty tensor with a literal", Expect::error, #name, {empty_tensor()},  \
           [](const Inputs& x) { (void)name(2, x[0]); });
  VKT_BINARY_OPS(VKT_LITERAL_CASE)
#undef VKT_LITERAL_CASE
  add_case(v, "add/as a unary op", Expect::unsupported, "add", {on_home({2})},
           [](const Inputs& x) { (void)unary(Op::add, x[0]); });
  add_case(v, "exp/as a binary op", Expect::unsupported, "exp", {on_home({2}), on_home({2})},
           [](const Inputs& x) { (void)binary(Op::exp, x[0], x[1]); });
}

inline void add_creation_cases(std::vector<BadCase>& v) {
  const std::int64_t huge = std::int64_t{1} << 62;
  add_case(v, "full/negative dim", Expect::shape, "full", {}, [](const Inputs&) {
    (void)full({2, -1}, 0, DType::f32);
  });
  add_case(v, "full/2^62 f64 elements", Expect::shape, "full", {},
           [=](const Inputs&) { (void)full({huge}, 0, DType::f64); });
  add_case(
      v, "full/past host memory", Expect::out_of_memory, "full", {on_home({1})},
      [](const Inputs& x) { (void)full({std::int64_t{1} << 45}, 1, DType::f32, &x[0].backend()); });
  add_case(v, "iota/axis 2 of rank 2", Expect::axis, "iota", {}, [](const Inputs&) {
    (void)iota({2, 3}, DType::s32, 2);
  });
  add_case(v, "iota/axis 0 of rank 0", Expect::axis, "iota", {},
           [](const Inputs&) { (void)iota({}, DType::s32, 0); });
  add_case(v, "iota/negative dim", Expect::shape, "iota", {},
           [](const Inputs&) { (void)iota({-4}, DType::s32); });
  add_case(v, "iota/element count past int64", Expect::shape, "iota", {}, [=](const Inputs&) {
    (void)iota({huge, 8}, DType::u8);
  });
  add_case(v, "eye/rank 1", Expect::shape, "eye", {},
           [](const Inputs&) { (void)eye(Shape{3}, DType::f32); });
  add_case(v, "eye/negative n", Expect::shape, "eye", {},
           [](const Inputs&) { (void)eye(-2, DType::f32); });
  add_case(v, "eye/2^62 f64 elements", Expect::shape, "eye", {},
           [](const Inputs&) { (void)eye(std::int64_t{1} << 31, DType::f64); });
  add_case(v, "from_bytes/size mismatch", Expect::shape, "from_bytes", {}, [](const Inputs&) {
    (void)from_vector(std::vector<float>{1, 2, 3}, Shape{2, 2});
  });
  add_case(v, "from_bytes/negative dim", Expect::shape, "from_bytes", {},
           [](const Inputs&) { (void)from_vector(std::vector<float>{}, Shape{-1}); });
  add_case(v, "from_bytes/byte count wraps", Expect::shape, "from_bytes", {},
           [=](const Inputs&) { (void)from_vector(std::vector<float>{}, Shape{huge}); });
  add_case(v, "as_type/empty tensor", Expect::error, "as_type", {empty_tensor()},
           [](const Inputs& x) { (void)as_type(x[0], DType::s32); });
  add_case(v, "bitcast/empty tensor", Expect::error, "bitcast", {empty_tensor()},
           [](const Inputs& x) { (void)bitcast(x[0], DType::s32); });
  const std::pair<DType, DType> sizes[] = {{DType::f32, DType::f64}, {DType::u8, DType::s16},
                                           {DType::f16, DType::s32}, {DType::s64, DType::bf16},
                                           {DType::c64, DType::f32}, {DType::c128, DType::f64},
                                           {DType::s32, DType::c64}};
  for (const auto& pair : sizes) {
    const DType from = pair.first, to = pair.second;  // clang 14 cannot capture a binding
    add_case(v, "bitcast/" + std::string(dtype_name(from)) + " as " + std::string(dtype_name(to)),
             Expect::type, "bitcast", {on_home({4}, from)},
             [to](const Inputs& x) { (void)bitcast(x[0], to); });
  }
}

// to_vector<T> for a T that is not the tensor's dtype.
template <class T>
void add_wrong_read(std::vector<BadCase>& v, DType d) {
  add_case(
      v,
      "to_vector/" + std::string(dtype_name(dtype_of_v<T>)) + " of " + std::string(dtype_name(d)),
      Expect::type, "to_vector", {on_home({3}, d)},
      [](const Inputs& x) { (void)x[0].to_vector<T>(); });
}

inline void add_read_cases(std::vector<BadCase>& v) {
  for (DType d : kRealDTypes) {
    if (d == DType::f32) {
      add_wrong_read<std::int32_t>(v, d);
    } else {
      add_wrong_read<float>(v, d);
    }
  }
  add_wrong_read<double>(v, DType::s64);
  add_wrong_read<std::uint8_t>(v, DType::s8);
  add_case(v, "host_span/f64 of f32", Expect::type, "host_span", {on_home({3})},
           [](const Inputs& x) { (void)x[0].host_span<double>(); });
  add_case(v, "read_into/wrong size", Expect::shape, "read_into", {on_home({3})},
           [](const Inputs& x) {
             std::vector<std::byte> dst(8);
             x[0].read_into(dst);
           });
  add_case(v, "item/three elements", Expect::shape, "item", {on_home({3})},
           [](const Inputs& x) { (void)x[0].item<float>(); });
  add_case(v, "to_vector/empty tensor", Expect::error, "to_vector", {empty_tensor()},
           [](const Inputs& x) { (void)x[0].to_vector<float>(); });
  add_case(v, "to_bytes/empty tensor", Expect::error, "to_bytes", {empty_tensor()},
           [](const Inputs& x) { (void)x[0].to_bytes(); });
  add_case(v, "item/empty tensor", Expect::error, "item", {empty_tensor()},
           [](const Inputs& x) { (void)x[0].item<float>(); });
  add_case(v, "read_into/empty tensor", Expect::error, "read_into", {empty_tensor()},
           [](const Inputs& x) {
             std::vector<std::byte> dst(4);
             x[0].read_into(dst);
           });
  add_case(v, "to_cpu/empty tensor", Expect::error, "to_cpu", {empty_tensor()},
           [](const Inputs& x) { (void)x[0].to_cpu(); });
  add_case(v, "transfer/empty tensor", Expect::error, "transfer", {empty_tensor()},
           [](const Inputs& x) { (void)transfer(x[0], cpu()); });
  add_case(v, "copy/empty tensor", Expect::error, "copy", {empty_tensor()},
           [](const Inputs& x) { (void)copy(x[0], cpu()); });
}

}  // namespace vkt::testing
