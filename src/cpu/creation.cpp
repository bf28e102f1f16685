// full, iota, eye on the cpu, every dtype (complex: the value or count in the real part).
#include <algorithm>
#include <cstdint>
#include <limits>

#include "cpu/kernels.h"

namespace vkt::cpu_kernels {

Tensor run_creation(const OpCall& call) {
  Tensor out = make_output(call);
  const std::int64_t n = out.size();
  visit_any_dtype(call.out_dtype, [&](auto tag) {
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
        // Runs instead of a division per element: a ramp when inner == 1, else runs of
        // `inner` equal values. int32 counts where they fit, since they convert in vectors.
        parallel_for(n, kGrain, [&](std::int64_t b, std::int64_t e) {
          std::int64_t count = (b / inner) % dim, within = b % inner;
          for (std::int64_t i = b; i < e;) {
            if (inner == 1) {
              const std::int64_t len = std::min(dim - count, e - i);
              if (count + len <= std::numeric_limits<std::int32_t>::max()) {
                const auto first = static_cast<std::int32_t>(count);
                const auto m = static_cast<std::int32_t>(len);
                for (std::int32_t k = 0; k < m; ++k) o[i + k] = convert<T>(first + k);
              } else {
                for (std::int64_t k = 0; k < len; ++k) o[i + k] = convert<T>(count + k);
              }
              i += len;
              count = 0;  // the ramp ended at dim (or at e, where nothing follows)
            } else {
              const std::int64_t len = std::min(inner - within, e - i);
              std::fill(o + i, o + i + len, convert<T>(count));
              i += len;
              within = 0;
              count = count + 1 == dim ? 0 : count + 1;
            }
          }
        });
        break;
      }
      case Op::eye: {
        const std::int64_t rows = call.out_shape[call.out_shape.size() - 2];
        const std::int64_t cols = call.out_shape.back();
        // Zeros, then the one diagonal element of each row the range touches (row g of
        // the stacked matrices is row g % rows of its matrix).
        const T zero = convert<T>(0), one = convert<T>(1);
        parallel_for(n, kGrain, [&](std::int64_t b, std::int64_t e) {
          std::fill(o + b, o + e, zero);
          for (std::int64_t g = b / cols; g * cols < e; ++g) {
            const std::int64_t r = g % rows, at = g * cols + r;
            if (r < cols && at >= b && at < e) o[at] = one;
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
