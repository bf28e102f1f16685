// vkt::compile: trace a function of tensors once per signature, fuse it, replay it.
//
//   auto f = vkt::compile([](const vkt::Tensor& x, const vkt::Tensor& b) {
//     return vkt::tanh(vkt::add(vkt::multiply(x, 2.0), b));
//   });
//   vkt::Tensor y = f(x, b);  // first call traces and compiles; later calls replay
//
// The first call with given input dtypes, shapes and backends (and scalar argument values)
// runs the function over symbolic tensors and records the ops it calls; later calls with
// that signature replay the recorded plan, and a new signature traces again. C++ control
// flow runs at trace time only (as in JAX): it may depend on shapes, not on tensor values,
// and a traced tensor cannot be read inside the function. Elementwise chains and trees
// (broadcasting, conversions, literals) become one fused kernel per chain on backends that
// compile them (vulkan: GLSL generated and compiled with shaderc; cpu: fused loops over
// cache-sized blocks), and an elementwise epilogue after a dot joins the dot's kernel;
// every other op is an ordinary dispatch, in order, with the usual
// fallback rule. Compiled results equal eager ones bit for bit (docs/compile.md).
//
// Arguments: Tensors and std::vector<Tensor>s (traced; a vector's length is part of the
// signature) and arithmetic values or Scalars (part of the signature, baked into the plan).
// Results: Tensor, std::vector<Tensor>, std::pair or std::tuple of Tensors. Tensors captured by the
// function are constants of the plan; a captured tensor on a device must be passed as an argument
// instead.
//
// VKT_COMPILE_DUMP=1 (or set_compile_dump(true)) prints each traced graph, its fused
// groups and every generated shader's source on stderr. The ledger (vkt/ledger.h) counts
// traces, plan reuses, kernel compilations and kernel cache hits (memory and disk); the
// disk cache lives in $VKT_CACHE_DIR, else $XDG_CACHE_HOME/vktensor, else
// ~/.cache/vktensor.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "vkt/scalar.h"
#include "vkt/tensor.h"

namespace vkt {

void set_compile_dump(bool on);
bool compile_dump();

namespace detail {

class Plan;

// Plans by signature for one compiled function; thread-safe.
class CompileCache {
 public:
  CompileCache();
  ~CompileCache();
  CompileCache(const CompileCache&) = delete;
  CompileCache& operator=(const CompileCache&) = delete;
  using Tracer = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;
  // Runs the plan for (scalar_key, inputs), tracing `trace` first when there is none.
  std::vector<Tensor> call(const std::string& scalar_key, const std::vector<Tensor>& inputs,
                           const Tracer& trace);
  // The plan of the last signature traced, as text ("" before any call).
  std::string describe_last() const;
  std::size_t plans() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

inline void append_double_bits(std::string& key, double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  key += std::to_string(bits);
}

inline void append_scalar_key(std::string& key, const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::floating:
      key += "f";
      append_double_bits(key, s.as_double());
      return;
    case Scalar::Kind::complex:
      key += "c";
      append_double_bits(key, s.as_complex().real());
      key += ",";
      append_double_bits(key, s.as_complex().imag());
      return;
    case Scalar::Kind::signed_int:
      key += "i" + std::to_string(s.as<std::int64_t>());
      return;
    case Scalar::Kind::unsigned_int:
      key += "u" + std::to_string(s.as<std::uint64_t>());
      return;
  }
}

template <class A>
void collect_arg(const A& a, std::vector<Tensor>& tensors, std::string& key) {
  if constexpr (std::is_same_v<A, Tensor>) {
    tensors.push_back(a);
    key += "T;";
  } else if constexpr (std::is_same_v<A, std::vector<Tensor>>) {
    tensors.insert(tensors.end(), a.begin(), a.end());
    key += "V" + std::to_string(a.size()) + ";";
  } else if constexpr (std::is_arithmetic_v<A> || std::is_same_v<A, Scalar>) {
    append_scalar_key(key, Scalar(a));
    key += ";";
  } else {
    static_assert(std::is_same_v<A, Tensor>,
                  "vkt::compile: arguments are Tensors, std::vector<Tensor>, arithmetic values "
                  "or Scalars");
  }
}

// A vector argument is traced as a new vector of its elements' symbolic tensors.
template <class A>
using traced_t =
    std::conditional_t<std::is_same_v<A, std::vector<Tensor>>, std::vector<Tensor>, const A&>;

template <class A>
traced_t<A> traced_arg(const A& a, const std::vector<Tensor>& symbolic, std::size_t& next) {
  if constexpr (std::is_same_v<A, Tensor>) {
    return symbolic.at(next++);
  } else if constexpr (std::is_same_v<A, std::vector<Tensor>>) {
    std::vector<Tensor> elements(symbolic.begin() + static_cast<std::ptrdiff_t>(next),
                                 symbolic.begin() + static_cast<std::ptrdiff_t>(next + a.size()));
    next += a.size();
    return elements;
  } else {
    return a;
  }
}

template <class R>
struct Result;
template <>
struct Result<Tensor> {
  static void flatten(const Tensor& t, std::vector<Tensor>& out) { out.push_back(t); }
  static Tensor unflatten(std::vector<Tensor>& v, std::size_t& at) { return std::move(v.at(at++)); }
};
template <>
struct Result<std::vector<Tensor>> {
  static void flatten(const std::vector<Tensor>& ts, std::vector<Tensor>& out) {
    out.insert(out.end(), ts.begin(), ts.end());
  }
  static std::vector<Tensor> unflatten(std::vector<Tensor>& v, std::size_t& at) {
    std::vector<Tensor> out(v.begin() + static_cast<std::ptrdiff_t>(at), v.end());
    at = v.size();
    return out;
  }
};
template <class... Ts>
struct Result<std::tuple<Ts...>> {
  static void flatten(const std::tuple<Ts...>& t, std::vector<Tensor>& out) {
    std::apply([&](const auto&... e) { (Result<std::decay_t<decltype(e)>>::flatten(e, out), ...); },
               t);
  }
  static std::tuple<Ts...> unflatten(std::vector<Tensor>& v, std::size_t& at) {
    return std::tuple<Ts...>{Result<Ts>::unflatten(v, at)...};  // braces: left to right
  }
};
template <class A, class B>
struct Result<std::pair<A, B>> {
  static void flatten(const std::pair<A, B>& p, std::vector<Tensor>& out) {
    Result<A>::flatten(p.first, out);
    Result<B>::flatten(p.second, out);
  }
  static std::pair<A, B> unflatten(std::vector<Tensor>& v, std::size_t& at) {
    A a = Result<A>::unflatten(v, at);
    B b = Result<B>::unflatten(v, at);
    return {std::move(a), std::move(b)};
  }
};

}  // namespace detail

template <class F>
class Compiled {
 public:
  explicit Compiled(F fn) : fn_(std::move(fn)), cache_(std::make_shared<detail::CompileCache>()) {}

  template <class... Args>
  auto operator()(const Args&... args) {
    using R = std::decay_t<std::invoke_result_t<F&, detail::traced_t<Args>...>>;
    std::vector<Tensor> tensors;
    std::string key;
    (detail::collect_arg(args, tensors, key), ...);
    std::vector<Tensor> flat = cache_->call(key, tensors, [&](const std::vector<Tensor>& symbolic) {
      std::size_t next = 0;
      std::tuple<detail::traced_t<Args>...> traced{detail::traced_arg(args, symbolic, next)...};
      std::vector<Tensor> out;
      detail::Result<R>::flatten(std::apply(fn_, traced), out);
      return out;
    });
    std::size_t at = 0;
    return detail::Result<R>::unflatten(flat, at);
  }

  // The last traced plan: graph, fused groups and dispatch steps.
  std::string describe() const { return cache_->describe_last(); }
  // Signatures traced so far.
  std::size_t plans() const { return cache_->plans(); }

 private:
  F fn_;
  std::shared_ptr<detail::CompileCache> cache_;
};

template <class F>
Compiled<std::decay_t<F>> compile(F&& fn) {
  return Compiled<std::decay_t<F>>(std::forward<F>(fn));
}

}  // namespace vkt
