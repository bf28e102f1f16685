// vkt::compile's compile tiers (compile_tiers(): on GPUs): a kernel's first calls
// run a quick first tier, code the driver makes a pipeline of in a fraction of the time,
// while the wanted kernel is made on another thread and taken once ready. The row kernels
// (compiled_rows.cpp) and dot groups (compiled_dot.cpp) hold their wanted kernel in this.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <thread>

namespace vkt::vk {

// testing::hold_later_tiers: while set, later tiers wait before they are made.
bool later_tiers_held();

template <class T>
class LaterTier {
 public:
  LaterTier() = default;
  LaterTier(const LaterTier&) = delete;
  LaterTier& operator=(const LaterTier&) = delete;
  // The making thread holds the backend and the kernel's source: waited for.
  ~LaterTier() {
    abandon_.store(true);
    if (later_.valid()) later_.wait();
  }

  // `make` runs on another thread, started at the first run. It waits for the second run
  // (the first's result taken) or a second: a pipeline created while the first call's batch
  // was submitted held that call up markedly on the H200.
  void set(std::function<T()> make) { make_ = std::move(make); }
  // Counts a run of the first tier (the first one starts the thread).
  void ran() {
    runs_.fetch_add(1);
    if (make_) start();
  }
  std::uint64_t runs() const { return runs_.load(); }
  // The thread makes the later tier without waiting for more runs.
  void now() { runs_.store(kRunNow); }
  bool started() const { return later_.valid(); }
  bool ready() const {
    return later_.valid() && later_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  }
  // Waits for it; what `make` threw is thrown here (once: the tier is gone after).
  T take() { return later_.get(); }

 private:
  static constexpr std::uint64_t kRunNow = std::uint64_t{1} << 30;

  void start() {
    later_ = std::async(std::launch::async, [this, make = std::move(make_)] {
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
      while ((runs_.load() < 2 && std::chrono::steady_clock::now() < deadline) ||
             later_tiers_held()) {
        if (abandon_.load()) return T{};
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      return make();
    });
    make_ = nullptr;
  }

  std::function<T()> make_;
  std::future<T> later_;
  std::atomic<std::uint64_t> runs_{0};
  std::atomic<bool> abandon_{false};
};

}  // namespace vkt::vk
