// A short list of int64 (dims, strides, a multi-index) held inline up to 8 entries and on the
// heap past that: per-op plans at small sizes paid more for their vectors' allocations than
// for the kernel (perf: a third of a 1k-element cpu add in malloc and free).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace vkt::common {

class SmallDims {
 public:
  static constexpr std::size_t kInline = 8;

  SmallDims() = default;
  explicit SmallDims(std::size_t n, std::int64_t value = 0) { assign(n, value); }
  SmallDims(std::initializer_list<std::int64_t> values) {
    for (std::int64_t v : values) push_back(v);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::int64_t* data() { return heap_.empty() ? inline_.data() : heap_.data(); }
  const std::int64_t* data() const { return heap_.empty() ? inline_.data() : heap_.data(); }
  std::int64_t& operator[](std::size_t i) { return data()[i]; }
  std::int64_t operator[](std::size_t i) const { return data()[i]; }
  std::int64_t& back() { return data()[size_ - 1]; }
  std::int64_t back() const { return data()[size_ - 1]; }
  const std::int64_t* begin() const { return data(); }
  const std::int64_t* end() const { return data() + size_; }

  void push_back(std::int64_t v) {
    if (heap_.empty() && size_ < kInline) {
      inline_[size_++] = v;
      return;
    }
    if (heap_.empty()) heap_.assign(inline_.begin(), inline_.end());
    heap_.push_back(v);
    ++size_;
  }
  void assign(std::size_t n, std::int64_t value) {
    heap_.clear();
    size_ = 0;
    for (std::size_t i = 0; i < n; ++i) push_back(value);
  }

 private:
  std::array<std::int64_t, kInline> inline_{};
  std::vector<std::int64_t> heap_;  // all entries once there are more than kInline
  std::size_t size_ = 0;
};

}  // namespace vkt::common
