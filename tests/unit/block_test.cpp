// vkt::block (Nx.block): the fallback runs where the inputs' backend has no implementation of
// the kind, the registered one where it has; the tracer sees the fallback; bad calls throw.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/compare.h"
#include "unit/fake_backend.h"
#include "vkt/compile.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::FakeBackend;

// softplus(x) = log(1 + exp(x)) as public ops: the default every backend can run.
std::vector<Tensor> softplus_ops(const std::vector<Tensor>& in) {
  return {log1p(exp(in[0]))};
}

class Block : public ::testing::Test {
 protected:
  void TearDown() override {
    register_block(cpu(), "softplus", {});
    register_block(dev, "softplus", {});
  }
  FakeBackend dev{"fake0", {Op::full, Op::copy, Op::add}};
  int own_calls = 0;
  // A stand-in for a backend's own kernel, told apart from the fallback by its result.
  BlockFunction marked = [this](const std::vector<Tensor>& in) {
    ++own_calls;
    return std::vector<Tensor>{full(in[0].shape(), 42.0, in[0].dtype(), &in[0].backend())};
  };
};

TEST_F(Block, FallbackRunsWhereTheBackendHasNoImplementation) {
  const Tensor x = from_vector<float>({0.0f, 1.0f}, &cpu());
  EXPECT_FALSE(has_block(cpu(), "softplus"));
  const std::vector<Tensor> r = block("softplus", {x}, softplus_ops);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].to_vector<float>(), log1p(exp(x)).to_vector<float>());
}

TEST_F(Block, TheInputsBackendsOwnImplementationRunsInstead) {
  register_block(dev, "softplus", marked);
  EXPECT_TRUE(has_block(dev, "softplus"));
  EXPECT_FALSE(has_block(cpu(), "softplus"));
  const Tensor x = from_vector<float>({0.0f, 1.0f}, &cpu());
  // cpu inputs: the cpu has none, so the fallback.
  EXPECT_NE(block("softplus", {x}, softplus_ops)[0].to_vector<float>()[0], 42.0f);
  // A device input beside a cpu one: the device's own.
  const Tensor d = from_vector<float>({0.0f, 1.0f}, &dev);
  const std::vector<Tensor> r = block("softplus", {x, d}, softplus_ops);
  EXPECT_EQ(own_calls, 1);
  EXPECT_EQ(r[0].to_vector<float>(), (std::vector<float>{42.0f, 42.0f}));
  // Removed: the fallback again. Another kind never had one.
  register_block(dev, "softplus", {});
  EXPECT_FALSE(has_block(dev, "softplus"));
  EXPECT_EQ(block("other", {d}, [](const std::vector<Tensor>& in) { return in; })[0].storage(),
            d.storage());
}

TEST_F(Block, CompileAndGradSeeTheFallback) {
  register_block(cpu(), "softplus", marked);
  const Tensor x = from_vector<float>({0.0f, 1.0f}, &cpu());
  EXPECT_EQ(block("softplus", {x}, softplus_ops)[0].to_vector<float>()[0], 42.0f);
  auto f =
      compile([](const std::vector<Tensor>& in) { return block("softplus", in, softplus_ops); });
  EXPECT_EQ(f(std::vector<Tensor>{x})[0].to_vector<float>(), log1p(exp(x)).to_vector<float>());
  const Tensor xd = as_type(x, DType::f64);
  const std::vector<Tensor> g = grad(
      [](const std::vector<Tensor>& in) {
        return std::vector<Tensor>{sum(block("softplus", in, softplus_ops)[0])};
      },
      {xd});
  // d softplus / dx = sigmoid(x).
  EXPECT_TRUE(testing::tensors_close(g[0], sigmoid(xd)));
  EXPECT_EQ(own_calls, 1);
}

TEST_F(Block, BadCallsThrowNamingTheKind) {
  const Tensor x = from_vector<float>({1.0f}, &cpu());
  FakeBackend other{"fake1", {Op::full}};
  try {
    block("softplus", {x}, {});
    ADD_FAILURE() << "no throw";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "[block softplus] needs a fallback function (Nx.block's default)");
  }
  EXPECT_THROW(
      block("softplus", {from_vector<float>({1.0f}, &dev), from_vector<float>({1.0f}, &other)},
            softplus_ops),
      IncompatibleBackends);
  EXPECT_THROW(block("softplus", {Tensor()}, softplus_ops), Error);
  register_block(cpu(), "softplus",
                 [](const std::vector<Tensor>&) { return std::vector<Tensor>{Tensor()}; });
  try {
    block("softplus", {x}, softplus_ops);
    ADD_FAILURE() << "no throw";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "[block softplus] cpu's implementation returned an empty tensor as result 0");
  }
  EXPECT_THROW(register_block(cpu(), "", softplus_ops), Error);
  // The process goes on: the same block runs once the bad implementation is gone.
  register_block(cpu(), "softplus", {});
  EXPECT_EQ(block("softplus", {x}, softplus_ops).size(), 1u);
}

}  // namespace
}  // namespace vkt
