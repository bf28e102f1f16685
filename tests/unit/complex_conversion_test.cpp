// c64/c128 conversion and creation on the cpu: as_type between every dtype and the complex
// ones (Nx: complex to real takes the real part, real to complex has imaginary 0), bitcast
// where widths match, copy, full/iota/eye in complex dtypes, and inspect's printing.
#include <gtest/gtest.h>

#include <complex>
#include <cstring>
#include <limits>
#include <vector>

#include "vkt/vkt.h"

namespace vkt {
namespace {

using c64 = std::complex<float>;
using c128 = std::complex<double>;

TEST(ComplexConversion, EveryRealDTypeToComplexAndBack) {
  const Tensor values = from_vector<double>({0, 1, 2, 100, 5, 3}, &cpu());
  for (DType real : kRealDTypes) {
    SCOPED_TRACE(std::string(dtype_name(real)));
    const Tensor x = as_type(values, real);
    for (DType cplx : kComplexDTypes) {
      const Tensor z = as_type(x, cplx);
      ASSERT_EQ(z.dtype(), cplx);
      // The real part is x (through f64: exact for these values), the imaginary part 0.
      const std::vector<c128> got = as_type(z, DType::c128).to_vector<c128>();
      const std::vector<double> want = as_type(x, DType::f64).to_vector<double>();
      for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], c128(want[i], 0)) << i;
      // Back to the real dtype: the same bytes.
      EXPECT_EQ(as_type(z, real).to_bytes(), x.to_bytes());
    }
  }
}

TEST(ComplexConversion, ComplexToRealTakesTheRealPartWithRealRules) {
  const Tensor z = from_vector<c128>({{1.75, 9}, {-3e10, 1}, {std::nan(""), 2}, {300, -1}}, &cpu());
  EXPECT_EQ(as_type(z, DType::f64).to_vector<double>()[0], 1.75);
  // To integers: truncated, saturated, NaN -> 0 (Nx's as_type), on the real part.
  EXPECT_EQ(as_type(z, DType::s32).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{1, std::numeric_limits<std::int32_t>::min(), 0, 300}));
  EXPECT_EQ(as_type(z, DType::u8).to_vector<std::uint8_t>(),
            (std::vector<std::uint8_t>{1, 0, 0, 255}));
  EXPECT_EQ(as_type(as_type(z, DType::f16), DType::f32).to_vector<float>()[0], 1.75f);
  // c128 -> c64 rounds each part; c64 -> c128 is exact.
  const Tensor narrow = as_type(from_vector<c128>({{0.1, -0.2}}, &cpu()), DType::c64);
  EXPECT_EQ(narrow.to_vector<c64>()[0], c64(0.1f, -0.2f));
  EXPECT_EQ(as_type(narrow, DType::c128).to_vector<c128>()[0],
            c128(static_cast<double>(0.1f), static_cast<double>(-0.2f)));
}

TEST(ComplexConversion, BitcastWhereWidthsMatch) {
  const Tensor z = from_vector<c64>({{1.5f, -2}, {0, 3}}, &cpu());
  for (DType d : {DType::u64, DType::s64, DType::f64}) {
    const Tensor b = bitcast(z, d);
    EXPECT_EQ(b.dtype(), d);
    EXPECT_EQ(b.to_bytes(), z.to_bytes());
    EXPECT_EQ(bitcast(b, DType::c64).to_vector<c64>(), z.to_vector<c64>());
  }
  const Tensor bits = bitcast(z, DType::u64);
  std::uint64_t first = 0;
  const c64 v(1.5f, -2);
  std::memcpy(&first, &v, 8);
  EXPECT_EQ(bits.to_vector<std::uint64_t>()[0], first);
  EXPECT_THROW(bitcast(z, DType::f32), TypeError);
  EXPECT_THROW(bitcast(z, DType::c128), TypeError);
  EXPECT_THROW(bitcast(as_type(z, DType::c128), DType::f64), TypeError);
}

TEST(ComplexConversion, CopyKeepsBothParts) {
  const Tensor z =
      from_vector<c128>({{1, -1}, {2, std::numeric_limits<double>::infinity()}}, &cpu());
  const Tensor c = copy(z, cpu());
  EXPECT_EQ(c.dtype(), DType::c128);
  EXPECT_EQ(c.to_bytes(), z.to_bytes());
  EXPECT_NE(c.storage(), z.storage());
}

TEST(ComplexConversion, FullIotaEyeInComplexDTypes) {
  const Tensor f = full({2, 3}, c64(1, -2), DType::c64, &cpu());
  EXPECT_EQ(f.to_vector<c64>(), std::vector<c64>(6, c64(1, -2)));
  EXPECT_EQ(full({2}, c128(0.1, 0.2), DType::c128, &cpu()).to_vector<c128>(),
            std::vector<c128>(2, c128(0.1, 0.2)));
  // A real value gives imaginary 0; a complex value in a real dtype keeps the real part.
  EXPECT_EQ(full({1}, 2.5, DType::c128, &cpu()).to_vector<c128>()[0], c128(2.5, 0));
  EXPECT_EQ(full({1}, c64(4, 9), DType::s32, &cpu()).to_vector<std::int32_t>()[0], 4);
  EXPECT_EQ(scalar_tensor(c64(1, 1), std::nullopt, &cpu()).dtype(), DType::c64);
  EXPECT_EQ(iota({2, 3}, DType::c64, 1, &cpu()).to_vector<c64>(),
            (std::vector<c64>{{0, 0}, {1, 0}, {2, 0}, {0, 0}, {1, 0}, {2, 0}}));
  EXPECT_EQ(iota({4}, DType::c128, std::nullopt, &cpu()).to_vector<c128>(),
            (std::vector<c128>{{0, 0}, {1, 0}, {2, 0}, {3, 0}}));
  EXPECT_EQ(eye({2, 3}, DType::c128, &cpu()).to_vector<c128>(),
            (std::vector<c128>{{1, 0}, {0, 0}, {0, 0}, {0, 0}, {1, 0}, {0, 0}}));
  // Past one thread's grain: every element filled.
  const Tensor big = full({1 << 20}, c64(0.5f, 3), DType::c64, &cpu());
  EXPECT_EQ(big.to_vector<c64>(), std::vector<c64>(1 << 20, c64(0.5f, 3)));
}

TEST(ComplexConversion, InspectPrintsAsNxComplex) {
  const Tensor z = from_vector<c64>({{1, 2}, {1, -2}}, &cpu());
  EXPECT_EQ(inspect(z), "#Nx.Tensor<\n  c64[2]\n  [1.0+2.0i, 1.0-2.0i]\n>");
  const Tensor w = as_type(z, DType::c128);
  EXPECT_EQ(inspect(conjugate(w)), "#Nx.Tensor<\n  c128[2]\n  [1.0-2.0i, 1.0+2.0i]\n>");
  EXPECT_EQ(inspect(abs(from_vector<c64>({{3, 4}}, &cpu()))), "#Nx.Tensor<\n  f32[1]\n  [5.0]\n>");
}

}  // namespace
}  // namespace vkt
