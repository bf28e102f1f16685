// from_pointer / to_pointer (zero-copy host memory) and to_bytes with a limit on the cpu.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "vkt/vkt.h"

namespace vkt {
namespace {

TEST(HostPointer, FromPointerWrapsWithoutCopyAndReleasesOnce) {
  std::vector<float> memory = {1, 2, 3, 4, 5, 6};
  int released = 0;
  const void* released_at = nullptr;
  {
    const Tensor t = from_pointer(memory.data(), DType::f32, {2, 3}, [&](const void* p) {
      ++released;
      released_at = p;
    });
    EXPECT_EQ(to_pointer(t), memory.data());
    EXPECT_EQ(&t.backend(), &cpu());
    const Tensor alias = reshape(t, {3, 2});  // aliases the same storage
    EXPECT_EQ(to_pointer(alias), memory.data());
    EXPECT_EQ(sum(t, {1}).to_vector<float>(), (std::vector<float>{6, 15}));
    // The caller's memory is the tensor's: what it holds is what the tensor reads.
    memory[0] = 10;
    EXPECT_EQ(t.to_vector<float>()[0], 10);
    EXPECT_EQ(released, 0);
  }
  EXPECT_EQ(released, 1);
  EXPECT_EQ(released_at, memory.data());
}

TEST(HostPointer, OwnedMemoryIsFreedByTheDeleter) {
  auto* owned = new std::int32_t[4]{1, 2, 3, 4};
  Tensor t = from_pointer(owned, DType::s32, {4},
                          [](const void* p) { delete[] static_cast<const std::int32_t*>(p); });
  EXPECT_EQ(add(t, 1).to_vector<std::int32_t>(), (std::vector<std::int32_t>{2, 3, 4, 5}));
  t = Tensor();  // the deleter runs here (ASan would report a leak otherwise)
}

TEST(HostPointer, ToPointerOfAnOpResultAndBadInputs) {
  const Tensor r = iota({3}, DType::s64, std::nullopt, &cpu());
  const auto* p = static_cast<const std::int64_t*>(to_pointer(r));
  EXPECT_EQ(p[2], 2);
  EXPECT_THROW(to_pointer(Tensor()), Error);
  alignas(8) std::byte raw[16] = {};
  EXPECT_THROW(from_pointer(raw + 1, DType::f32, {2}), Error);  // misaligned for f32
  EXPECT_THROW(from_pointer(nullptr, DType::f32, {2}), Error);
  EXPECT_NO_THROW(from_pointer(nullptr, DType::f32, {0}));
  EXPECT_THROW(from_pointer(raw, DType::f32, {-1}), ShapeError);
  try {
    from_pointer(raw + 1, DType::f64, {1});
    ADD_FAILURE() << "no throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("[from_pointer]"), std::string::npos) << e.what();
  }
}

TEST(PartialRead, ToBytesWithLimitReadsThePrefix) {
  const Tensor t = from_vector<std::int16_t>({1, 2, 3, 4, 5}, &cpu());
  std::vector<std::byte> b = t.to_bytes(2);
  ASSERT_EQ(b.size(), 4u);
  std::int16_t v[2];
  std::memcpy(v, b.data(), 4);
  EXPECT_EQ(v[0], 1);
  EXPECT_EQ(v[1], 2);
  EXPECT_EQ(t.to_bytes(99).size(), 10u);  // Nx: min(size, limit)
  EXPECT_EQ(t.to_bytes(0).size(), 0u);
  EXPECT_THROW(t.to_bytes(-1), ShapeError);
  EXPECT_THROW(Tensor().to_bytes(1), Error);
}

}  // namespace
}  // namespace vkt
