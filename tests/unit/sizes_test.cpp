// Sizes are checked once, in the core, before anything is allocated or copied: element
// and byte counts that overflow, or pass the 2^48-byte limit, are a ShapeError naming the
// op; an allocation that fails is an OutOfMemory naming the op; the process stays usable.
#include <gtest/gtest.h>

#include <cstddef>
#include <span>
#include <string>

#include "vkt/vkt.h"

namespace vkt {
namespace {

template <class E, class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "no error";
}

void expect_usable() {
  EXPECT_EQ(add(full({3}, 1.0f, DType::f32), 1.0f).to_vector<float>(),
            (std::vector<float>{2, 2, 2}));
}

TEST(Sizes, ElementCountsThatOverflowAreShapeErrors) {
  const std::int64_t big = std::int64_t{1} << 32;
  const std::string full_error = error_of<ShapeError>([&] {
    (void)full({big, big}, 0.0f, DType::f32);
  });
  EXPECT_EQ(full_error.rfind("[full] f32 shape {4294967296, 4294967296}", 0), 0u) << full_error;
  EXPECT_NE(error_of<ShapeError>([&] {
              (void)iota({big, big, 4}, DType::s8);
            }).find("[iota]"),
            std::string::npos);
  EXPECT_NE(error_of<ShapeError>([&] {
              (void)broadcast(full({}, 1, DType::s32), {big, big});
            }).find("[broadcast]"),
            std::string::npos);
  // A reshape whose element count wraps to 0 must not alias a 0-element tensor.
  EXPECT_THROW((void)reshape(full({0}, 1.0f, DType::f32), {big, big}), ShapeError);
  expect_usable();
}

TEST(Sizes, ByteCountsThatWrapAreShapeErrors) {
  // 2^62 f32 elements are 2^64 bytes: the byte count wraps to 0, which 0 bytes would match.
  const std::string e = error_of<ShapeError>(
      [] { (void)from_bytes(std::span<const std::byte>(), DType::f32, {std::int64_t{1} << 62}); });
  EXPECT_EQ(e.rfind("[from_bytes]", 0), 0u) << e;
  EXPECT_THROW((void)full({std::int64_t{1} << 62}, 0.0f, DType::f64), ShapeError);
  EXPECT_THROW((void)full({std::int64_t{1} << 46}, 0.0f, DType::f64), ShapeError);  // 2^49 bytes
  expect_usable();
}

TEST(Sizes, NegativeDimensionsNameTheOp) {
  const std::string e = error_of<ShapeError>([] { (void)full({2, -3}, 0.0f, DType::f32); });
  EXPECT_EQ(e.rfind("[full]", 0), 0u) << e;
  EXPECT_NE(e.find("negative"), std::string::npos) << e;
}

TEST(Sizes, FailedAllocationsAreOutOfMemoryNamingTheOp) {
  // 2^47 bytes: under the size limit, over any machine's memory. (The sanitizer runs set
  // allocator_may_return_null, as a library that handles a failed allocation needs.)
  const std::int64_t n = std::int64_t{1} << 45;
  const std::string e = error_of<OutOfMemory>([&] { (void)full({n}, 1.0f, DType::f32); });
  EXPECT_EQ(e.rfind("[full] output f32 {35184372088832} on cpu", 0), 0u) << e;
  EXPECT_NE(error_of<OutOfMemory>([&] { (void)iota({n}, DType::s32); }).find("[iota]"),
            std::string::npos);
  expect_usable();
}

}  // namespace
}  // namespace vkt
