// Small helpers shared by the movement and index unit tests.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "support/compare.h"
#include "vkt/vkt.h"

namespace vkt::movement_test {

inline constexpr DType kTestDTypes[] = {DType::u8,  DType::s16,  DType::s32, DType::s64,
                                        DType::f16, DType::bf16, DType::f32, DType::f64};

// A cpu tensor of `dtype` holding `values` (converted with as_type semantics).
inline Tensor make(const std::vector<double>& values, const Shape& shape,
                   DType dtype = DType::f32) {
  return as_type(from_vector(values, shape, &cpu()), dtype);
}
inline Tensor make_s64(const std::vector<std::int64_t>& values, const Shape& shape) {
  return from_vector(values, shape, &cpu());
}
// 0, 1, 2, ... (mod 100 so that every test dtype holds them exactly).
inline Tensor counting(const Shape& shape, DType dtype = DType::f32) {
  std::vector<double> v(static_cast<std::size_t>(numel(shape)));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i % 100);
  return make(v, shape, dtype);
}
inline std::vector<double> values(const Tensor& t) {
  return testing::as_doubles(t);
}

// Runs f, expects E, and checks the message names the op and every fragment.
template <class E, class F>
void expect_error(F&& f, std::initializer_list<std::string> fragments) {
  try {
    f();
    ADD_FAILURE() << "no exception";
  } catch (const E& e) {
    const std::string what = e.what();
    for (const std::string& frag : fragments) {
      EXPECT_NE(what.find(frag), std::string::npos) << "'" << frag << "' not in: " << what;
    }
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

}  // namespace vkt::movement_test
