// full, iota, eye on the cpu.
#include "cpu/kernels.h"

namespace vkt::cpu_kernels {

Tensor run_creation(const OpCall& call) {
  Tensor out = make_output(call);
  const std::int64_t n = out.size();
  visit_dtype(call.out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = mutable_data<T>(out);
    switch (call.op) {
      case Op::full: {
        const T v = call.get<FullParams>().value.as<T>();
        parallel_for(n, kGrain,
                     [&](std::int64_t b, std::int64_t e) { std::fill(o + b, o + e, v); });
        break;
      }
      case Op::iota: {
        const std::int64_t axis = call.get<IotaParams>().axis;
        // Along an axis the count is (i / inner) % dim; flattened it is i itself.
        std::int64_t inner = 1, dim = n > 0 ? n : 1;
        if (axis >= 0) {
          dim = call.out_shape[static_cast<std::size_t>(axis)];
          for (std::size_t a = static_cast<std::size_t>(axis) + 1; a < call.out_shape.size(); ++a)
            inner *= call.out_shape[a];
        }
        parallel_for(n, kGrain, [&](std::int64_t b, std::int64_t e) {
          for (std::int64_t i = b; i < e; ++i) o[i] = convert<T>((i / inner) % dim);
        });
        break;
      }
      case Op::eye: {
        const std::int64_t rows = call.out_shape[call.out_shape.size() - 2];
        const std::int64_t cols = call.out_shape.back();
        parallel_for(n, kGrain, [&](std::int64_t b, std::int64_t e) {
          for (std::int64_t i = b; i < e; ++i) {
            const std::int64_t c = i % cols, r = (i / cols) % rows;
            o[i] = convert<T>(r == c ? 1 : 0);
          }
        });
        break;
      }
      default:
        throw Unsupported("[" + std::string(op_name(call.op)) + "] is not a creation op");
    }
  });
  return out;
}

}  // namespace vkt::cpu_kernels
