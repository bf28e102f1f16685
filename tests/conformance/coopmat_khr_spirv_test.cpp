// The NV -> KHR cooperative-matrix rewrite (src/vulkan/spirv/coopmat_khr_spirv.cpp) on the embedded
// cooperative-matrix module (linalg_dot_coopmat). Debian 12's SPIRV-Tools predates
// SPV_KHR_cooperative_matrix and SPV_KHR_bfloat16, so the result is checked here: no NV instruction
// is left, every multiply takes A, B and accumulator matrices of the right use and component, and
// every load, store, access chain, phi, select and conversion of a matrix agrees on its type. Only
// a device with VK_KHR_shader_bfloat16 runs the bf16 module (the H200; the dot conformance tests
// there).
#include "vulkan/spirv/coopmat_khr_spirv.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "vkt/error.h"
#include "vulkan/runtime/spirv.h"

namespace vkt::vk {
namespace {

std::vector<std::uint32_t> embedded(const char* name) {
  for (const SpirvModule& m : embedded_spirv()) {
    if (m.name == name) return {m.words.begin(), m.words.end()};
  }
  ADD_FAILURE() << "no embedded module " << name;
  return {};
}

struct Inst {
  std::uint32_t op;
  std::vector<std::uint32_t> w;
};

std::vector<Inst> instructions(const std::vector<std::uint32_t>& words) {
  std::vector<Inst> out;
  for (std::size_t i = 5; i < words.size();) {
    const std::uint32_t count = words[i] >> 16;
    if (count == 0 || i + count > words.size()) {
      ADD_FAILURE() << "malformed at word " << i;
      break;
    }
    out.push_back({words[i] & 0xffffu,
                   {words.begin() + static_cast<std::ptrdiff_t>(i + 1),
                    words.begin() + static_cast<std::ptrdiff_t>(i + count)}});
    i += count;
  }
  return out;
}

std::string text(const Inst& in) {
  return reinterpret_cast<const char*>(in.w.data());
}

struct MatrixType {
  std::uint32_t component, use;
};

// Checks the rewritten module; `bf16`: A and B hold bf16.
void check_khr(const std::vector<std::uint32_t>& words, bool bf16) {
  const std::vector<Inst> insts = instructions(words);
  std::map<std::uint32_t, MatrixType> matrix;               // KHR matrix types
  std::map<std::uint32_t, std::uint32_t> pointee, element;  // pointer and array types
  std::map<std::uint32_t, std::uint32_t> type;              // value -> type
  std::map<std::uint32_t, std::uint32_t> constant;          // u32 constants
  std::set<std::uint32_t> declared;
  std::uint32_t f16 = 0, f32 = 0, bf16_type = 0;
  std::set<std::string> extensions;
  std::set<std::uint32_t> capabilities;
  int multiplies = 0;
  auto matrix_of = [&](std::uint32_t value) -> const MatrixType* {
    auto t = type.find(value);
    if (t == type.end()) return nullptr;
    auto m = matrix.find(t->second);
    return m == matrix.end() ? nullptr : &m->second;
  };
  for (const Inst& in : insts) {
    ASSERT_FALSE(in.op >= 5357 && in.op <= 5362) << "NV opcode " << in.op << " left";
    switch (in.op) {
      case 17:
        capabilities.insert(in.w[0]);
        break;
      case 10:
        extensions.insert(text(in));
        break;
      case 22:
        if (in.w[1] == 16 && in.w.size() == 3 && in.w[2] == 0) bf16_type = in.w[0];
        if (in.w[1] == 16 && in.w.size() == 2) f16 = in.w[0];
        if (in.w[1] == 32) f32 = in.w[0];
        break;
      case 43:
        constant[in.w[1]] = in.w[2];
        break;
      case 4456:
        for (std::size_t i = 1; i < in.w.size(); ++i) {
          ASSERT_TRUE(declared.count(in.w[i]) || constant.count(in.w[i]))
              << "matrix type %" << in.w[0] << " names %" << in.w[i] << " before it is declared";
        }
        matrix[in.w[0]] = {in.w[1], constant.at(in.w[5])};
        break;
      case 32:
        pointee[in.w[0]] = in.w[2];
        break;
      case 28:
      case 29:
        element[in.w[0]] = in.w[1];
        break;
      default:
        break;
    }
    if (in.op == 22 || in.op == 4456 || in.op == 32 || in.op == 28 || in.op == 29 || in.op == 21 ||
        in.op == 20) {
      declared.insert(in.w[0]);
    }
    // Values with a result type whose matrix types this test follows.
    const bool typed_value = in.op == 59 || in.op == 61 || in.op == 65 || in.op == 66 ||
                             in.op == 83 || in.op == 115 || in.op == 169 || in.op == 245 ||
                             in.op == 44 || in.op == 46 || in.op == 1 || in.op == 4457 ||
                             in.op == 4459;
    if (typed_value) type[in.w[1]] = in.w[0];
    switch (in.op) {
      case 61:  // load: the pointer's pointee
        if (matrix_of(in.w[1]) != nullptr) {
          EXPECT_EQ(pointee[type[in.w[2]]], in.w[0]) << "load %" << in.w[1];
        }
        break;
      case 62:  // store
        if (matrix_of(in.w[1]) != nullptr) {
          EXPECT_EQ(pointee[type[in.w[0]]], type[in.w[1]]) << "store to %" << in.w[0];
        }
        break;
      case 65:
      case 66: {  // access chain into arrays of matrices: one array level per index
        std::uint32_t t = pointee[type[in.w[2]]];
        for (std::size_t i = 3; i < in.w.size() && element.count(t); ++i) t = element[t];
        if (matrix.count(t)) {
          EXPECT_EQ(pointee[in.w[0]], t) << "access chain %" << in.w[1];
        }
        break;
      }
      case 245:
        for (std::size_t i = 2; i < in.w.size(); i += 2) {
          if (type.count(in.w[i])) {
            EXPECT_EQ(type[in.w[i]], in.w[0]) << "phi %" << in.w[1];
          }
        }
        break;
      case 169:
        if (matrix.count(in.w[0])) {
          EXPECT_EQ(type[in.w[3]], in.w[0]);
          EXPECT_EQ(type[in.w[4]], in.w[0]);
        }
        break;
      case 115:
        if (matrix.count(in.w[0])) {
          ASSERT_NE(matrix_of(in.w[2]), nullptr);
          EXPECT_EQ(matrix_of(in.w[2])->use, matrix[in.w[0]].use) << "conversion %" << in.w[1];
        }
        break;
      case 4457:
        EXPECT_TRUE(matrix.count(in.w[0])) << "load %" << in.w[1];
        EXPECT_LE(constant.at(in.w[3]), 1u) << "layout";
        break;
      case 4458:
        EXPECT_NE(matrix_of(in.w[1]), nullptr) << "store of a non-matrix";
        EXPECT_LE(constant.at(in.w[2]), 1u) << "layout";
        break;
      case 4459: {
        ++multiplies;
        const MatrixType *a = matrix_of(in.w[2]), *b = matrix_of(in.w[3]), *c = matrix_of(in.w[4]);
        ASSERT_TRUE(a && b && c) << "multiply %" << in.w[1];
        EXPECT_EQ(a->use, 0u);
        EXPECT_EQ(b->use, 1u);
        EXPECT_EQ(c->use, 2u);
        EXPECT_EQ(type[in.w[4]], in.w[0]);
        const std::uint32_t operand = bf16 ? bf16_type : f16;
        EXPECT_EQ(a->component, operand);
        EXPECT_EQ(b->component, operand);
        EXPECT_EQ(c->component, f32);
        break;
      }
      default:
        break;
    }
  }
  EXPECT_GT(multiplies, 0);
  EXPECT_TRUE(capabilities.count(6022));
  EXPECT_FALSE(capabilities.count(5357));
  EXPECT_TRUE(extensions.count("SPV_KHR_cooperative_matrix"));
  EXPECT_FALSE(extensions.count("SPV_NV_cooperative_matrix"));
  EXPECT_EQ(extensions.count("SPV_KHR_bfloat16"), bf16 ? 1u : 0u);
  EXPECT_EQ(capabilities.count(5116) + capabilities.count(5118), bf16 ? 2u : 0u);
  EXPECT_EQ(bf16_type != 0, bf16);
  // Every id is below the header's bound.
  for (const Inst& in : insts) {
    if (in.op == 4456 || in.op == 32 || in.op == 28) {
      EXPECT_LT(in.w[0], words[3]);
    }
  }
}

TEST(CoopmatKhrSpirv, DotModuleWithBf16Operands) {
  check_khr(coopmat_nv_to_khr(embedded("linalg_dot_coopmat"), true), true);
}

TEST(CoopmatKhrSpirv, DotModuleWithF16Operands) {
  check_khr(coopmat_nv_to_khr(embedded("linalg_dot_coopmat"), false), false);
}

// A multiply whose A and B are one value cannot be typed: refused, not guessed.
TEST(CoopmatKhrSpirv, OneValueAsAAndBIsRefused) {
  std::vector<std::uint32_t> words = embedded("linalg_dot_coopmat");
  bool changed = false;
  for (std::size_t i = 5; i < words.size() && !changed; i += words[i] >> 16) {
    if ((words[i] & 0xffffu) == 5361) {  // OpCooperativeMatrixMulAddNV type result a b c
      words[i + 4] = words[i + 3];
      changed = true;
    }
  }
  ASSERT_TRUE(changed);
  EXPECT_THROW(coopmat_nv_to_khr(words, true), Error);
}

TEST(CoopmatKhrSpirv, AModuleWithoutMatricesIsRefused) {
  EXPECT_THROW(coopmat_nv_to_khr(embedded("movement_copy"), true), Error);
}

}  // namespace
}  // namespace vkt::vk
