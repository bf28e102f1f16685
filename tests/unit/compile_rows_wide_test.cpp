// The cpu row groups' own pieces (cpu/compiled_rows*.cpp): the wide float arithmetic on a
// block of rows (or a flat block of an elementwise group) gives the backend's binary kernel's bits
// for every operand form, and the rows split over threads by the group's work, not by blocks.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>

#include "core/host_parallel.h"
#include "cpu/compile/compiled_rows.h"
#include "cpu/compile/compiled_rows_wide.h"
#include "cpu/wide_loops.h"
#include "support/compile_programs.h"
#include "vkt/compile.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::expect_same_bytes;
using testing::softmax_rows;
using testing::wave;

// Values with the cases rounding and NaN handling differ on: infinities, NaN, signed
// zeros, subnormals, and ordinary values.
std::vector<float> special_wave(std::size_t n) {
  std::vector<float> v = wave(n);
  const float specials[] = {std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::nanf(""),
                            -0.0f,
                            0.0f,
                            std::numeric_limits<float>::denorm_min(),
                            1e-39f,
                            3.0f};
  for (std::size_t i = 0; i < n; i += 5) v[i] = specials[(i / 5) % 8];
  return v;
}

TEST(CompileRowsWide, ArithmeticOnRowBlocksHasTheBackendKernelsBits) {
  if (cpu_kernels::vector_isa() == cpu_kernels::VectorIsa::baseline)
    GTEST_SKIP() << "no AVX2 on this cpu: the row groups use the backend's kernels";
  const std::int64_t m = 6, len = 37;  // 37: a vector remainder at every width
  const Tensor full = from_vector(special_wave(m * len), {m, len}, &cpu());
  const Tensor per_row = from_vector(special_wave(m), {m, 1}, &cpu());
  const Tensor one_row = from_vector(special_wave(len + 3), {len + 3}, &cpu());
  const Tensor bias = reshape(slice(one_row, {3}, {len}), {1, len});  // an offset row
  const Tensor one = from_vector(std::vector<float>{-2.5f}, {}, &cpu());
  const std::vector<Tensor> forms = {full, per_row, bias, one};
  for (DType d : {DType::f32, DType::f64}) {
    for (Op op : {Op::add, Op::subtract, Op::multiply, Op::divide}) {
      for (std::size_t i = 0; i < forms.size(); ++i) {
        for (std::size_t j = 0; j < forms.size(); ++j) {
          SCOPED_TRACE(std::string(dtype_name(d)) + " " + std::string(op_name(op)) + " " +
                       std::to_string(i) + "," + std::to_string(j));
          const Tensor a = as_type(forms[i], d), b = as_type(forms[j], d);
          const OpCall call{op, {a, b}, NoParams{}, d, {m, len}, nullptr};
          const Tensor wide = cpu_kernels::wide_row_binary(call);
          ASSERT_TRUE(wide.defined());
          expect_same_bytes(wide, cpu_kernels::run_binary(call));
        }
      }
    }
  }
  // A flat block (compiled.cpp's elementwise groups): operands {len} or one element.
  const Tensor flat = from_vector(special_wave(101), {101}, &cpu());
  for (DType d : {DType::f32, DType::f64}) {
    for (Op op : {Op::add, Op::subtract, Op::multiply, Op::divide}) {
      for (const auto& [i, j] : {std::pair{0, 0}, std::pair{0, 1}, std::pair{1, 0}}) {
        const Tensor a = as_type(i == 0 ? flat : one, d), b = as_type(j == 0 ? flat : one, d);
        const OpCall call{op, {a, b}, NoParams{}, d, {101}, nullptr};
        const Tensor wide = cpu_kernels::wide_row_binary(call);
        ASSERT_TRUE(wide.defined());
        expect_same_bytes(wide, cpu_kernels::run_binary(call));
      }
    }
  }
  // Other ops and dtypes are left to the backend's kernels.
  const OpCall power{Op::pow, {full, full}, NoParams{}, DType::f32, {m, len}, nullptr};
  EXPECT_FALSE(cpu_kernels::wide_row_binary(power).defined());
  const Tensor ints = as_type(full, DType::s32);
  const OpCall int_add{Op::add, {ints, ints}, NoParams{}, DType::s32, {m, len}, nullptr};
  EXPECT_FALSE(cpu_kernels::wide_row_binary(int_add).defined());
}

TEST(CompileRowsWide, RowGrainComesFromTheGroupsWorkAndTheMeasuredThreadCost) {
  const std::int64_t bytes = 52, len = 4096;  // softmax's bytes per element, its row
  host::set_min_bytes_per_thread(bytes * len * 3);
  EXPECT_EQ(cpu_kernels::row_group_grain(bytes, len), 3);  // three rows pay for a thread
  host::set_min_bytes_per_thread(1);
  EXPECT_EQ(cpu_kernels::row_group_grain(bytes, len), 1);  // at least one row
  host::set_min_bytes_per_thread(std::int64_t{1} << 30);
  // At most the compute-bound grain: the groups hold exp, divide, rsqrt.
  EXPECT_EQ(cpu_kernels::row_group_grain(bytes, len), cpu_kernels::kGrain / len);
  EXPECT_EQ(cpu_kernels::row_group_grain(bytes, 2 * cpu_kernels::kGrain - 1), 1);
  host::set_min_bytes_per_thread(0);
}

Tensor layer_norm_rows(const Tensor& x, const Tensor& gamma, const Tensor& beta) {
  const double len = static_cast<double>(x.shape().back());
  const Tensor d = subtract(x, divide(sum(x, {1}, true), len));
  const Tensor var = divide(sum(multiply(d, d), {1}, true), len);
  return add(multiply(multiply(d, rsqrt(add(var, 1e-5))), gamma), beta);
}

// Rows that fill neither whole blocks nor whole threads' shares, every thread given work:
// outputs written in place block by block still equal eager's.
TEST(CompileRowsWide, ThreadsSplitRowsNotBlocksAndOutputsEqualEager) {
  const std::int64_t rows = 301, len = 1000;  // 32-row blocks, 301 = 7 * 43
  const Tensor x = from_vector(wave(rows * len), {rows, len}, &cpu());
  const Tensor gamma = from_vector(wave(len), {len}, &cpu());
  const Tensor beta = from_vector(wave(len + 1), {len + 1}, &cpu());
  const Tensor b = slice(beta, {1}, {len});
  for (std::int64_t grain_bytes : {std::int64_t{1}, std::int64_t{52} * len * 7}) {
    SCOPED_TRACE(grain_bytes);
    host::set_min_bytes_per_thread(grain_bytes);
    for (DType d : {DType::f32, DType::f64}) {
      const Tensor xd = as_type(x, d), gd = as_type(gamma, d), bd = as_type(b, d);
      expect_same_bytes(compile(softmax_rows)(xd), softmax_rows(xd));
      expect_same_bytes(compile(layer_norm_rows)(xd, gd, bd), layer_norm_rows(xd, gd, bd));
    }
  }
  host::set_min_bytes_per_thread(0);
}

}  // namespace
}  // namespace vkt
