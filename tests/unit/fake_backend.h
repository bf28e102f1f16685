// A test-only device backend: keeps bytes in host memory but hides them from the core
// (host_data() is null), so every crossing goes through from_host/to_host like a GPU's.
// It runs natively only the ops named in `native`, to prove the dispatch rules.
#pragma once

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "vkt/backend/op_call.h"
#include "vkt/vkt.h"

namespace vkt::testing {

class FakeStorage final : public Storage {
 public:
  FakeStorage(Backend& b, std::size_t n) : Storage(b, n), bytes(n) {}
  std::vector<std::byte> bytes;
};

class FakeBackend final : public Backend {
 public:
  explicit FakeBackend(std::string name, std::set<Op> native = {})
      : name_(std::move(name)), native_(std::move(native)) {}
  std::string name() const override { return name_; }
  std::shared_ptr<Storage> from_host(const void* data, std::size_t n) override {
    auto s = std::make_shared<FakeStorage>(*this, n);
    if (n) std::memcpy(s->bytes.data(), data, n);
    return s;
  }
  void to_host(const Storage& s, std::size_t offset, void* dst, std::size_t n) override {
    std::memcpy(dst, static_cast<const FakeStorage&>(s).bytes.data() + offset, n);
  }
  bool supports(const OpCall& call) const override { return native_.count(call.op) != 0; }
  Tensor execute(const OpCall& call) override {
    ++executed;
    auto out = std::make_shared<FakeStorage>(
        *this, static_cast<std::size_t>(numel(call.out_shape)) * itemsize(call.out_dtype));
    if (call.op == Op::copy) {
      out->bytes = static_cast<const FakeStorage&>(*call.inputs[0].storage()).bytes;
    } else if (call.op == Op::full) {
      visit_dtype(call.out_dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T v = call.get<FullParams>().value.as<T>();
        for (std::size_t i = 0; i < out->bytes.size() / sizeof(T); ++i) {
          std::memcpy(out->bytes.data() + i * sizeof(T), &v, sizeof(T));
        }
      });
    } else if (call.op == Op::add && call.out_dtype == DType::f32) {
      // Same-shape f32 add, enough to observe where inputs were moved.
      const auto& a = static_cast<const FakeStorage&>(*call.inputs[0].storage()).bytes;
      const auto& b = static_cast<const FakeStorage&>(*call.inputs[1].storage()).bytes;
      for (std::size_t i = 0; i < out->bytes.size() / 4; ++i) {
        float x, y;
        std::memcpy(&x, a.data() + 4 * i, 4);
        std::memcpy(&y, b.data() + 4 * i, 4);
        x += y;
        std::memcpy(out->bytes.data() + 4 * i, &x, 4);
      }
    } else {
      throw Unsupported("[fake] cannot run " + std::string(op_name(call.op)));
    }
    return Tensor(call.out_dtype, call.out_shape, std::move(out));
  }
  int executed = 0;

 private:
  std::string name_;
  std::set<Op> native_;
};

}  // namespace vkt::testing
