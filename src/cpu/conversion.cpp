// as_type and copy on the cpu, between every two dtypes (bitcast is an alias made by the core).
// A narrow dtype converts through its codes (narrow_from_* / narrow_to_*: one rounding).
#include <array>
#include <cstring>

#include "cpu/strided.h"

namespace vkt::cpu_kernels {
namespace {

template <class S>
std::uint8_t code_of(DType out, S v) {
  if constexpr (is_complex_v<S>) {
    return code_of(out, v.real());
  } else if constexpr (std::is_integral_v<S>) {
    if (is_float(out)) return narrow_from_double(out, static_cast<double>(v));
    return narrow_from_int(out, static_cast<std::int64_t>(v));
  } else {
    return narrow_from_double(out, static_cast<double>(static_cast<compute_t<S>>(v)));
  }
}

void convert_narrow(const Tensor& in, Tensor& out) {
  const std::int64_t n = out.size();
  const DType from = in.dtype(), to = out.dtype();
  if (is_narrow(from)) {
    // Every code's value, once: integers exactly in int64, floats exactly in double.
    std::array<double, 256> as_double{};
    std::array<std::int64_t, 256> as_int{};
    for (unsigned c = 0; c < 256; ++c) {
      as_double[c] = narrow_to_double(from, static_cast<std::uint8_t>(c));
      if (is_integer(from)) as_int[c] = narrow_to_int(from, static_cast<std::uint8_t>(c));
    }
    const auto* s = data<std::uint8_t>(in);
    const auto each = [&](auto&& write) {
      parallel_for(n, kGrain, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t i = b; i < e; ++i) write(i, s[i]);
      });
    };
    if (is_narrow(to)) {
      auto* d = mutable_data<std::uint8_t>(out);
      each([&](std::int64_t i, std::uint8_t c) {
        d[i] = is_integer(from) ? code_of(to, as_int[c]) : code_of(to, as_double[c]);
      });
      return;
    }
    visit_any_dtype(to, [&](auto out_tag) {
      using D = typename decltype(out_tag)::type;
      D* d = mutable_data<D>(out);
      each([&](std::int64_t i, std::uint8_t c) {
        d[i] = is_integer(from) ? convert<D>(as_int[c]) : convert<D>(as_double[c]);
      });
    });
    return;
  }
  visit_any_dtype(from, [&](auto in_tag) {
    using S = typename decltype(in_tag)::type;
    const S* s = data<S>(in);
    auto* d = mutable_data<std::uint8_t>(out);
    parallel_for(n, kGrain, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) d[i] = code_of(to, s[i]);
    });
  });
}

}  // namespace

Tensor run_conversion(const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  Tensor out = make_output(call);
  const std::int64_t n = out.size();
  if (call.op == Op::copy) {
    parallel_memcpy(mutable_data<std::byte>(out), in.storage()->host_data(),
                    static_cast<std::int64_t>(out.nbytes()));
    return out;
  }
  if (call.op != Op::as_type) {
    throw Unsupported("[" + std::string(op_name(call.op)) + "] is not a conversion op");
  }
  if (is_narrow(in.dtype()) || is_narrow(call.out_dtype)) {
    convert_narrow(in, out);
    return out;
  }
  visit_any_dtype(in.dtype(), [&](auto in_tag) {
    using S = typename decltype(in_tag)::type;
    visit_any_dtype(call.out_dtype, [&](auto out_tag) {
      using D = typename decltype(out_tag)::type;
      const S* s = data<S>(in);
      D* d = mutable_data<D>(out);
      parallel_for(n, kGrain, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t i = b; i < e; ++i) d[i] = convert<D>(s[i]);
      });
    });
  });
  return out;
}

}  // namespace vkt::cpu_kernels
