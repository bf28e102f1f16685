// A per-test watchdog, linked into every test binary: a test that runs past its limit (a
// hung device wait, a loop that never ends) fails by name and ends the process at once, so
// ctest reports it in minutes instead of waiting out the whole entry's timeout.
// VKT_TEST_TIMEOUT_S (a test-side variable, not the library's) sets the limit; default 300 s,
// four times the longest sweep's time under validation on lavapipe.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

std::chrono::seconds limit_from_environment() {
  const char* v = std::getenv("VKT_TEST_TIMEOUT_S");
  if (v == nullptr || *v == '\0') return std::chrono::seconds(300);
  char* end = nullptr;
  const long s = std::strtol(v, &end, 10);
  if (end == v || *end != '\0' || s <= 0) {
    std::fprintf(stderr, "watchdog: VKT_TEST_TIMEOUT_S='%s': expected a positive count\n", v);
    std::_Exit(2);
  }
  return std::chrono::seconds(s);
}

class Watchdog final : public ::testing::EmptyTestEventListener {
 public:
  Watchdog() : limit_(limit_from_environment()), thread_([this] { watch(); }) {}
  ~Watchdog() override {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  void OnTestStart(const ::testing::TestInfo& info) override {
    std::lock_guard lock(mutex_);
    name_ = std::string(info.test_suite_name()) + "." + info.name();
    started_ = Clock::now();
    running_ = true;
  }
  void OnTestEnd(const ::testing::TestInfo&) override {
    std::lock_guard lock(mutex_);
    running_ = false;
  }

 private:
  void watch() {
    std::unique_lock lock(mutex_);
    while (!done_) {
      wake_.wait_for(lock, std::chrono::seconds(1));
      if (running_ && Clock::now() - started_ > limit_) {
        std::fprintf(stderr, "\nwatchdog: %s ran past %lld s (VKT_TEST_TIMEOUT_S); failing it\n",
                     name_.c_str(), static_cast<long long>(limit_.count()));
        std::fflush(stderr);
        std::_Exit(124);  // the process may hold a hung device: no destructors, no waits
      }
    }
  }

  const std::chrono::seconds limit_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string name_;
  Clock::time_point started_;
  bool running_ = false;
  bool done_ = false;
  std::thread thread_;
};

// Registered before main() runs the tests; gtest owns and deletes it at exit.
[[maybe_unused]] const bool registered = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new Watchdog);
  return true;
}();

}  // namespace
