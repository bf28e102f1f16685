// as_type and copy on the cpu, between every two dtypes (bitcast is an alias made by the core).
#include <cstring>

#include "cpu/strided.h"

namespace vkt::cpu_kernels {

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
