#include "cases.h"

#include <map>
#include <stdexcept>

#include "bench_data.h"
#include "vkt/backend/op_info.h"

namespace vkt::bench {
namespace {

using Run = std::function<Tensor(const std::vector<Tensor>&)>;
using Maker = std::function<OpCase(std::int64_t n)>;

Tensor s32_data(std::int64_t n, const Shape& shape) {
  return reshape(add(iota({n}, DType::s32, std::nullopt, &cpu()), 1), shape);
}

OpCase unary_case(Op op, std::int64_t n) {
  const bool integer_only = op_info(op).dtypes == OpDTypes::integer;
  // Domains: acosh needs x >= 1; the others take (0, 1].
  Tensor x = integer_only ? s32_data(n, {n})
                          : (op == Op::acosh ? f32_data(n, {n}, 1.0, 1.01) : seed_data(n, {n}));
  return {std::string(op_name(op)), x.dtype(), {n}, {{x}}, [op](const std::vector<Tensor>& in) {
            return unary(op, in[0]);
          }};
}

OpCase binary_case(Op op, std::int64_t n) {
  const bool integer_only = op_info(op).dtypes == OpDTypes::integer;
  Tensor a = integer_only ? s32_data(n, {n}) : seed_data(n, {n});
  Tensor b = integer_only ? remainder(s32_data(n, {n}), 7) : f32_data(n, {n}, 0.5, 0.25);
  return {
      std::string(op_name(op)), a.dtype(), {n}, {{a}, {b}}, [op](const std::vector<Tensor>& in) {
        return binary(op, in[0], in[1]);
      }};
}

// Shapes of the 2-D families: {n/8, 8} like the seed's pad/put_slice/take.
Shape rows8(std::int64_t n) {
  if (n % 16 != 0)
    throw std::invalid_argument("size " + std::to_string(n) + " must be a multiple of 16");
  return {n / 8, 8};
}

Shape square_ish(std::int64_t n) {
  std::int64_t r = 1;
  while ((r * 2) * (r * 2) <= n) r *= 2;
  if (n % r != 0)
    throw std::invalid_argument("size " + std::to_string(n) + " must be a power of two");
  return {r, n / r};
}

OpCase simple(const std::string& name, const Shape& shape, std::vector<BenchInput> inputs,
              Run run) {
  return {name, inputs.at(0).value.dtype(), shape, std::move(inputs), std::move(run)};
}

// The seed's gather: every 4th element of {n} by s64 indices {n/4, 1}, which the seed keeps
// on the host (`indices_on_host`).
OpCase gather_case(const std::string& name, std::int64_t n, bool indices_on_host) {
  Tensor idx = reshape(multiply(iota({n / 4}, DType::s64, std::nullopt, &cpu()), 4), {n / 4, 1});
  return simple(name, {n}, {{seed_data(n, {n})}, {idx, indices_on_host}},
                [](const std::vector<Tensor>& in) { return gather(in[0], in[1]); });
}

const std::map<std::string, Maker>& makers() {
  static const std::map<std::string, Maker> m = [] {
    std::map<std::string, Maker> r;
#define VKT_UNARY_MAKER(name) r[#name] = [](std::int64_t n) { return unary_case(Op::name, n); };
    VKT_UNARY_OPS(VKT_UNARY_MAKER)
#undef VKT_UNARY_MAKER
#define VKT_BINARY_MAKER(name) r[#name] = [](std::int64_t n) { return binary_case(Op::name, n); };
    VKT_BINARY_OPS(VKT_BINARY_MAKER)
#undef VKT_BINARY_MAKER
    // ---- the seed's seven, with the seed's shapes ----
    r["concatenate"] = [](std::int64_t n) {
      return simple("concatenate", {n}, {{seed_data(n, {n})}, {seed_data(n, {n})}},
                    [](const std::vector<Tensor>& in) {
                      return concatenate({in[0], in[1]}, 0);
                    });
    };
    r["pad"] = [](std::int64_t n) {
      const Shape s = rows8(n);
      return simple("pad", s, {{seed_data(n, s)}}, [](const std::vector<Tensor>& in) {
        return pad(in[0], 0.0f, {{1, 1, 0}, {1, 1, 0}});
      });
    };
    r["put_slice"] = [](std::int64_t n) {
      const Shape s = rows8(n);
      return simple("put_slice", s, {{seed_data(n, s)}, {full({1, 8}, 5.0f, DType::f32, &cpu())}},
                    [mid = s[0] / 2](const std::vector<Tensor>& in) {
                      return put_slice(in[0], {mid, 0}, in[1]);
                    });
    };
    r["indexed_put"] = [](std::int64_t n) {
      Tensor idx = from_vector<std::int64_t>({0, n / 2, n - 1}, Shape{3, 1}, &cpu());
      return simple("indexed_put", {n},
                    {{seed_data(n, {n})}, {idx, true}, {from_vector<float>({7, 8, 9}, &cpu())}},
                    [](const std::vector<Tensor>& in) { return indexed_put(in[0], in[1], in[2]); });
    };
    r["broadcast"] = [](std::int64_t n) {
      return simple("broadcast", {}, {{scalar_tensor(2.5f, DType::f32, &cpu())}},
                    [n](const std::vector<Tensor>& in) { return broadcast(in[0], {n}); });
    };
    r["gather"] = [](std::int64_t n) { return gather_case("gather", n, true); };
    // The seed's gather with its indices placed on the device like every other input: the
    // kernel's rate, not the bus's. Bytes for TB/s, as take's: the whole input (4n), the
    // indices (8 n/4) and the output (4 n/4), 7n in all.
    r["gather_resident"] = [](std::int64_t n) { return gather_case("gather_resident", n, false); };
    // multiply by a number against multiply by a rank-0 tensor already on the device: what a
    // weak literal costs eager (the core makes it a cpu tensor; dispatch moves it each call).
    r["multiply_literal"] = [](std::int64_t n) {
      return simple("multiply_literal", {n}, {{seed_data(n, {n})}},
                    [](const std::vector<Tensor>& in) { return multiply(in[0], 0.01f); });
    };
    r["multiply_scalar"] = [](std::int64_t n) {
      return simple("multiply_scalar", {n},
                    {{seed_data(n, {n})}, {scalar_tensor(0.01f, DType::f32, &cpu())}},
                    [](const std::vector<Tensor>& in) { return multiply(in[0], in[1]); });
    };
    r["take"] = [](std::int64_t n) {
      const Shape s = rows8(n);
      Tensor idx = multiply(iota({s[0] / 2}, DType::s64, std::nullopt, &cpu()), 2);
      return simple("take", s, {{seed_data(n, s)}, {idx}},
                    [](const std::vector<Tensor>& in) { return take(in[0], in[1], 0); });
    };
    // ---- the rest of the surface ----
    r["as_type"] = [](std::int64_t n) {
      return simple("as_type", {n}, {{seed_data(n, {n})}},
                    [](const std::vector<Tensor>& in) { return as_type(in[0], DType::f16); });
    };
    r["iota"] = [](std::int64_t n) {
      return OpCase{"iota", DType::f32, {n}, {}, [n](const std::vector<Tensor>&) {
                      return iota({n}, DType::f32);
                    }};
    };
    r["full"] = [](std::int64_t n) {
      return OpCase{"full", DType::f32, {n}, {}, [n](const std::vector<Tensor>&) {
                      return full({n}, 1.5f, DType::f32);
                    }};
    };
    r["eye"] = [](std::int64_t n) {
      const Shape s = square_ish(n);
      return OpCase{
          "eye", DType::f32, s, {}, [s](const std::vector<Tensor>&) { return eye(s, DType::f32); }};
    };
    r["transpose"] = [](std::int64_t n) {
      const Shape s = square_ish(n);
      return simple("transpose", s, {{seed_data(n, s)}},
                    [](const std::vector<Tensor>& in) { return transpose(in[0]); });
    };
    r["reverse"] = [](std::int64_t n) {
      return simple("reverse", {n}, {{seed_data(n, {n})}},
                    [](const std::vector<Tensor>& in) { return reverse(in[0]); });
    };
    r["slice"] = [](std::int64_t n) {
      const Shape s = rows8(n);
      return simple("slice", s, {{seed_data(n, s)}}, [s](const std::vector<Tensor>& in) {
        return slice(in[0], {1, 2}, {s[0] / 2, 4}, {2, 1});
      });
    };
    r["concatenate_inner"] = [](std::int64_t n) {
      const Shape s = rows8(n);
      return simple("concatenate_inner", s, {{seed_data(n, s)}, {seed_data(n, s)}},
                    [](const std::vector<Tensor>& in) {
                      return concatenate({in[0], in[1]}, 1);
                    });
    };
    r["stack"] = [](std::int64_t n) {
      return simple("stack", {n}, {{seed_data(n, {n})}, {seed_data(n, {n})}},
                    [](const std::vector<Tensor>& in) {
                      return stack({in[0], in[1]}, 0);
                    });
    };
    r["take_along_axis"] = [](std::int64_t n) {
      const Shape s = rows8(n);
      Tensor idx = remainder(reshape(iota({n}, DType::s64, std::nullopt, &cpu()), s), 8);
      return simple("take_along_axis", s, {{seed_data(n, s)}, {reverse(idx, {1})}},
                    [](const std::vector<Tensor>& in) { return take_along_axis(in[0], in[1], 1); });
    };
    r["select"] = [](std::int64_t n) {
      Tensor pred = greater(seed_data(n, {n}), 0.5);
      return simple("select", {n}, {{pred}, {seed_data(n, {n})}, {f32_data(n, {n}, 2.0)}},
                    [](const std::vector<Tensor>& in) { return select(in[0], in[1], in[2]); });
    };
    r["clip"] = [](std::int64_t n) {
      return simple("clip", {n}, {{seed_data(n, {n})}},
                    [](const std::vector<Tensor>& in) { return clip(in[0], 0.25, 0.75); });
    };
    r["indexed_add"] = [](std::int64_t n) {
      Tensor idx =
          reshape(multiply(iota({n / 4}, DType::s64, std::nullopt, &cpu()), 4), {n / 4, 1});
      return simple("indexed_add", {n}, {{seed_data(n, {n})}, {idx}, {seed_data(n / 4, {n / 4})}},
                    [](const std::vector<Tensor>& in) { return indexed_add(in[0], in[1], in[2]); });
    };
#define VKT_REDUCE_MAKER(name)                                                     \
  r[#name] = [](std::int64_t n) {                                                  \
    const Shape s = square_ish(n);                                                 \
    return simple(#name, s, {{seed_data(n, s)}},                                   \
                  [](const std::vector<Tensor>& in) { return name(in[0]); });      \
  };                                                                               \
  r[#name "_axis1"] = [](std::int64_t n) {                                         \
    const Shape s = square_ish(n);                                                 \
    return simple(#name "_axis1", s, {{seed_data(n, s)}},                          \
                  [](const std::vector<Tensor>& in) { return name(in[0], {1}); }); \
  };
    VKT_REDUCE_MAKER(sum)
    VKT_REDUCE_MAKER(product)
    VKT_REDUCE_MAKER(reduce_max)
    VKT_REDUCE_MAKER(reduce_min)
    VKT_REDUCE_MAKER(all)
    VKT_REDUCE_MAKER(any)
#undef VKT_REDUCE_MAKER
    r["argmax"] = [](std::int64_t n) {
      const Shape s = square_ish(n);
      return simple("argmax", s, {{seed_data(n, s)}}, [](const std::vector<Tensor>& in) {
        return argmax(in[0], 1, false, TieBreak::low, DType::s64);
      });
    };
    // The flat argmax (every element, one index): the full reduction issue 9's goal names.
    r["argmax_all"] = [](std::int64_t n) {
      const Shape s = square_ish(n);
      return simple("argmax_all", s, {{seed_data(n, s)}}, [](const std::vector<Tensor>& in) {
        return argmax(in[0], std::nullopt, false, TieBreak::low, DType::s64);
      });
    };
    r["argmin"] = [](std::int64_t n) {
      const Shape s = square_ish(n);
      return simple("argmin", s, {{seed_data(n, s)}}, [](const std::vector<Tensor>& in) {
        return argmin(in[0], 1, false, TieBreak::low, DType::s64);
      });
    };
#define VKT_WINDOW_MAKER(name)                                                       \
  r[#name] = [](std::int64_t n) {                                                    \
    const Shape s = square_ish(n);                                                   \
    return simple(#name, s, {{seed_data(n, s)}}, [](const std::vector<Tensor>& in) { \
      return name(in[0], {2, 2}, WindowOptions{{2, 2}, {}, {}});                     \
    });                                                                              \
  };
    VKT_WINDOW_MAKER(window_sum)
    VKT_WINDOW_MAKER(window_product)
    VKT_WINDOW_MAKER(window_max)
    VKT_WINDOW_MAKER(window_min)
#undef VKT_WINDOW_MAKER
#define VKT_WINDOW_SCATTER_MAKER(name)                                                   \
  r[#name] = [](std::int64_t n) {                                                        \
    const Shape s = square_ish(n);                                                       \
    const Shape windows = {s[0] / 2, s[1] / 2};                                          \
    return simple(#name, s, {{seed_data(n, s)}, {seed_data(n / 4, windows)}},            \
                  [](const std::vector<Tensor>& in) {                                    \
                    return name(in[0], in[1], 0, {2, 2}, WindowOptions{{2, 2}, {}, {}}); \
                  });                                                                    \
  };
    VKT_WINDOW_SCATTER_MAKER(window_scatter_max)
    VKT_WINDOW_SCATTER_MAKER(window_scatter_min)
#undef VKT_WINDOW_SCATTER_MAKER
    // The Scalar form (one std::function call per element): what a generic caller pays.
    r["reduce"] = [](std::int64_t n) {
      const Shape s = square_ish(n);
      return simple("reduce", s, {{seed_data(n, s)}}, [](const std::vector<Tensor>& in) {
        return reduce(in[0], 0,
                      [](Scalar x, Scalar acc) { return x.as_double() + acc.as_double(); }, {1});
      });
    };
    r["window_reduce"] = [](std::int64_t n) {
      const Shape s = square_ish(n);
      return simple("window_reduce", s, {{seed_data(n, s)}}, [](const std::vector<Tensor>& in) {
        return window_reduce(in[0], 0, {2, 2}, WindowOptions{{2, 2}, {}, {}},
                             [](Scalar x, Scalar acc) { return x.as_double() + acc.as_double(); });
      });
    };
    r["all_close"] = [](std::int64_t n) {
      return simple("all_close", {n}, {{seed_data(n, {n})}, {seed_data(n, {n})}},
                    [](const std::vector<Tensor>& in) { return all_close(in[0], in[1]); });
    };
#define VKT_CUMULATIVE_MAKER(name)                                               \
  r[#name] = [](std::int64_t n) {                                                \
    const Shape s = square_ish(n);                                               \
    return simple(#name, s, {{seed_data(n, s)}},                                 \
                  [](const std::vector<Tensor>& in) { return name(in[0], 1); }); \
  };
    VKT_CUMULATIVE_MAKER(cumulative_sum)
    VKT_CUMULATIVE_MAKER(cumulative_product)
    VKT_CUMULATIVE_MAKER(cumulative_min)
    VKT_CUMULATIVE_MAKER(cumulative_max)
#undef VKT_CUMULATIVE_MAKER
    r["sort"] = [](std::int64_t n) {
      const Shape s = square_ish(n);
      return simple("sort", s, {{reverse(seed_data(n, s), {1})}},
                    [](const std::vector<Tensor>& in) { return sort(in[0], 1); });
    };
    r["argsort"] = [](std::int64_t n) {
      const Shape s = square_ish(n);
      return simple("argsort", s, {{reverse(seed_data(n, s), {1})}},
                    [](const std::vector<Tensor>& in) {
                      return argsort(in[0], 1, Direction::asc, DType::s64);
                    });
    };
    // The same data as one flat line: the radix sort's path on every device (issue 9's 16M).
    r["sort_flat"] = [](std::int64_t n) {
      return simple("sort_flat", {n}, {{reverse(seed_data(n, {n}), {0})}},
                    [](const std::vector<Tensor>& in) { return sort(in[0], 0); });
    };
    r["argsort_flat"] = [](std::int64_t n) {
      return simple("argsort_flat", {n}, {{reverse(seed_data(n, {n}), {0})}},
                    [](const std::vector<Tensor>& in) {
                      return argsort(in[0], 0, Direction::asc, DType::s64);
                    });
    };
    r["top_k"] = [](std::int64_t n) {
      const Shape s = square_ish(n);
      return simple("top_k", s, {{seed_data(n, s)}},
                    [](const std::vector<Tensor>& in) { return top_k(in[0], 4).first; });
    };
    // One line and k = 100: PyTorch's usual top_k (issue 38's peer), a selection over the
    // whole tensor rather than per row.
    r["top_k_flat"] = [](std::int64_t n) {
      return simple("top_k_flat", {n}, {{seed_data(n, {n})}},
                    [](const std::vector<Tensor>& in) { return top_k(in[0], 100).first; });
    };
    r["dot"] = [](std::int64_t n) {
      const Shape s = square_ish(n);
      return simple("dot", s, {{seed_data(n, s)}, {seed_data(n, {s[1], s[0]})}},
                    [](const std::vector<Tensor>& in) { return dot(in[0], in[1]); });
    };
    // A 1-d conv, 16 channels in and out, kernel 3, padding 1 (bench conv: the 2-d layer).
    r["conv"] = [](std::int64_t n) {
      const Shape s{1, 16, n / 16}, ks{16, 16, 3};
      return simple("conv", s, {{seed_data(n, s)}, {seed_data(numel(ks), ks)}},
                    [](const std::vector<Tensor>& in) {
                      ConvOptions o;
                      o.padding = {{1, 1}};
                      return conv(in[0], in[1], o);
                    });
    };
    // Transforms of every row (bench fft: c64 lines resident on the device).
#define VKT_FFT_MAKER(name)                                                                    \
  r[#name] = [](std::int64_t n) {                                                              \
    const Shape s = square_ish(n);                                                             \
    return simple(#name, s, {{seed_data(n, s)}},                                               \
                  [](const std::vector<Tensor>& in) { return name(in[0], std::nullopt, 1); }); \
  };
    VKT_FFT_MAKER(fft)
    VKT_FFT_MAKER(ifft)
    VKT_FFT_MAKER(rfft)
    VKT_FFT_MAKER(irfft)
#undef VKT_FFT_MAKER
    for (auto& entry : linalg_makers()) r[entry.first] = std::move(entry.second);
    return r;
  }();
  return m;
}

}  // namespace

Tensor seed_data(std::int64_t n, const Shape& shape) {
  return f32_data(n, shape);
}

const std::vector<std::string>& seed_ops() {
  static const std::vector<std::string> ops = {"concatenate", "pad",    "put_slice", "indexed_put",
                                               "broadcast",   "gather", "take"};
  return ops;
}

std::vector<std::string> case_ops() {
  std::vector<std::string> ops;
  for (const auto& [name, maker] : makers()) ops.push_back(name);
  return ops;
}

bool shape_variant_case(const std::string& op) {
  return op == "sort_flat" || op == "argsort_flat" || op == "top_k_flat" ||
         op == "gather_resident" || op == "multiply_literal" || op == "multiply_scalar";
}

OpCase make_case(const std::string& op, std::int64_t n) {
  const auto it = makers().find(op);
  if (it == makers().end()) throw std::invalid_argument("unknown op '" + op + "'");
  if (n < 16) throw std::invalid_argument("size " + std::to_string(n) + " is below 16");
  return it->second(n);
}

std::vector<Tensor> place_inputs(const OpCase& c, Backend& b) {
  std::vector<Tensor> out;
  for (const BenchInput& in : c.inputs)
    out.push_back(in.stays_on_cpu ? in.value : transfer(in.value, b));
  return out;
}

}  // namespace vkt::bench
