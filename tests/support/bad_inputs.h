// The bad-input catalogue's machinery (issue 10, item 4): a case names the op, the inputs
// it makes and the call that must fail; the runner checks the error's exact type, that the
// message starts with "[op]", that the inputs hold the same bytes afterwards, and that a
// following op works. One table (bad_case_table.h) runs on the cpu and on Vulkan.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <typeinfo>
#include <vector>

#include "vkt/vkt.h"

namespace vkt::testing {

enum class Expect {
  error,
  shape,
  axis,
  type,
  incompatible,
  unsupported,
  forbidden,
  out_of_memory,
  linalg
};

// Where a case makes its inputs. `device` and `device2` are two distinct non-cpu backends
// (the unit suite: fake devices; the Vulkan suite: the default device and a second one).
struct BadInputEnv {
  Backend& home;
  Backend& device;
  Backend& device2;
  // Turns `device`'s native kernel for an op off (false) or back on (true).
  std::function<void(Op, bool)> set_native;
};

// One input: a tensor of `shape` and `dtype` holding 0, 1, 2, ... on a backend of the env,
// or a default-constructed (empty) tensor.
struct Spec {
  enum Where { home, device, device2, empty };
  Shape shape;
  DType dtype = DType::f32;
  Where where = home;
};

using Inputs = std::vector<Tensor>;

struct BadCase {
  std::string name;  // unique: "op/what is wrong"
  Expect expect;
  std::string op;  // the message starts with "[op]"
  std::vector<Spec> specs;
  std::function<void(const Inputs&)> call;
  // Run with fallback policy 'error' and this op's native kernel off on `device`.
  std::optional<Op> forbid_fallback_of;
};

// Shorthands for the table: on home, on device, on device2, and an empty tensor.
inline Spec on_home(Shape s, DType d = DType::f32) {
  return {std::move(s), d, Spec::home};
}
inline Spec on_dev(Shape s, DType d = DType::f32) {
  return {std::move(s), d, Spec::device};
}
inline Spec on_dev2(Shape s, DType d = DType::f32) {
  return {std::move(s), d, Spec::device2};
}
inline Spec empty_tensor() {
  return {{}, DType::f32, Spec::empty};
}

inline void add_case(std::vector<BadCase>& v, std::string name, Expect x, std::string op,
                     std::vector<Spec> specs, std::function<void(const Inputs&)> call) {
  v.push_back({std::move(name), x, std::move(op), std::move(specs), std::move(call), std::nullopt});
}

inline Tensor make_input(const Spec& s, const BadInputEnv& env) {
  switch (s.where) {
    case Spec::empty:
      return Tensor();
    case Spec::device:
      return iota(s.shape, s.dtype, std::nullopt, &env.device);
    case Spec::device2:
      return iota(s.shape, s.dtype, std::nullopt, &env.device2);
    case Spec::home:
      break;
  }
  return iota(s.shape, s.dtype, std::nullopt, &env.home);
}

inline const char* expect_name(Expect x) {
  switch (x) {
    case Expect::error:
      return "vkt::Error";
    case Expect::shape:
      return "vkt::ShapeError";
    case Expect::axis:
      return "vkt::AxisError";
    case Expect::type:
      return "vkt::TypeError";
    case Expect::incompatible:
      return "vkt::IncompatibleBackends";
    case Expect::unsupported:
      return "vkt::Unsupported";
    case Expect::forbidden:
      return "vkt::FallbackForbidden";
    case Expect::out_of_memory:
      return "vkt::OutOfMemory";
    case Expect::linalg:
      return "vkt::LinAlgError";
  }
  return "?";
}

// The exact type: a ShapeError where an AxisError is promised is a wrong answer too.
inline bool has_type(const Error& e, Expect x) {
  const std::type_info& t = typeid(e);
  switch (x) {
    case Expect::error:
      return t == typeid(Error);
    case Expect::shape:
      return t == typeid(ShapeError);
    case Expect::axis:
      return t == typeid(AxisError);
    case Expect::type:
      return t == typeid(TypeError);
    case Expect::incompatible:
      return t == typeid(IncompatibleBackends);
    case Expect::unsupported:
      return t == typeid(Unsupported);
    case Expect::forbidden:
      return t == typeid(FallbackForbidden);
    case Expect::out_of_memory:
      return t == typeid(OutOfMemory);
    case Expect::linalg:
      return t == typeid(LinAlgError);
  }
  return false;
}

inline void run_bad_case(const BadCase& c, const BadInputEnv& env) {
  SCOPED_TRACE(c.name);
  const FallbackPolicy saved = fallback_policy();
  set_fallback_policy(FallbackPolicy::allow);  // inputs may be made by fallback
  Inputs in;
  for (const Spec& s : c.specs) in.push_back(make_input(s, env));
  std::vector<std::vector<std::byte>> before;
  for (const Tensor& t : in)
    before.push_back(t.defined() ? t.to_bytes() : std::vector<std::byte>{});
  if (c.forbid_fallback_of) {
    env.set_native(*c.forbid_fallback_of, false);
    set_fallback_policy(FallbackPolicy::error);
  }
  std::string failure;
  try {
    c.call(in);
    failure = "no error was thrown";
  } catch (const Error& e) {
    const std::string msg = e.what();
    if (!has_type(e, c.expect)) {
      failure =
          std::string("expected ") + expect_name(c.expect) + ", got another vkt error: " + msg;
    } else if (msg.rfind("[" + c.op + "]", 0) != 0) {
      failure = "the message does not start with [" + c.op + "]: " + msg;
    }
  } catch (const std::exception& e) {
    failure = std::string("a non-vkt exception: ") + e.what();
  }
  if (c.forbid_fallback_of) env.set_native(*c.forbid_fallback_of, true);
  set_fallback_policy(FallbackPolicy::allow);
  EXPECT_EQ(failure, "") << c.name;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i].defined()) {
      EXPECT_TRUE(in[i].to_bytes() == before[i]) << c.name << " input " << i;
    }
  }
  EXPECT_EQ(add(full({3}, 1.0f, DType::f32, &env.home), 1.0f).to_vector<float>(),
            (std::vector<float>{2, 2, 2}))
      << c.name << ": the next op failed";
  set_fallback_policy(saved);
}

}  // namespace vkt::testing
