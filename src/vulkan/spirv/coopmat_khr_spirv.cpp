#include "vulkan/spirv/coopmat_khr_spirv.h"

#include <map>
#include <string>

#include "vkt/error.h"
#include "vulkan/spirv/spirv_words.h"

namespace vkt::vk {
namespace {

enum : std::uint32_t {
  kOpUndef = 1,
  kOpName = 5,
  kOpMemberName = 6,
  kOpExtension = 10,
  kOpCapability = 17,
  kOpTypeInt = 21,
  kOpTypeFloat = 22,
  kOpTypeArray = 28,
  kOpTypeRuntimeArray = 29,
  kOpTypeStruct = 30,
  kOpTypePointer = 32,
  kOpTypeFunction = 33,
  kOpConstantTrue = 41,
  kOpConstantFalse = 42,
  kOpConstant = 43,
  kOpConstantComposite = 44,
  kOpConstantNull = 46,
  kOpFunctionParameter = 55,
  kOpFunctionCall = 57,
  kOpVariable = 59,
  kOpLoad = 61,
  kOpStore = 62,
  kOpAccessChain = 65,
  kOpInBoundsAccessChain = 66,
  kOpDecorate = 71,
  kOpMemberDecorate = 72,
  kOpCompositeInsert = 82,
  kOpCopyObject = 83,
  kOpFConvert = 115,
  kOpSNegate = 126,
  kOpFNegate = 127,
  kOpIAdd = 128,
  kOpFAdd = 129,
  kOpISub = 130,
  kOpFSub = 131,
  kOpUDiv = 134,
  kOpSDiv = 135,
  kOpFDiv = 136,
  kOpMatrixTimesScalar = 143,
  kOpSelect = 169,
  kOpPhi = 245,
  kCapCoopmatNV = 5357,
  kOpTypeCoopmatNV = 5358,
  kOpCoopmatLoadNV = 5359,
  kOpCoopmatStoreNV = 5360,
  kOpCoopmatMulAddNV = 5361,
  kOpCoopmatLengthNV = 5362,
  kOpTypeCoopmatKHR = 4456,
  kOpCoopmatLoadKHR = 4457,
  kOpCoopmatStoreKHR = 4458,
  kOpCoopmatMulAddKHR = 4459,
  kCapCoopmatKHR = 6022,
  kCapBFloat16Type = 5116,
  kCapBFloat16Coopmat = 5118,
  kFpEncodingBFloat16 = 0,
};
constexpr std::size_t kHeaderWords = 5;

// The three uses of a KHR matrix; none: not yet known.
enum Use : std::uint32_t { kUseA = 0, kUseB = 1, kUseAcc = 2, kUseNone = 3 };

struct Inst {
  std::uint32_t op;
  std::vector<std::uint32_t> w;  // the operands, without the opcode word
};

[[noreturn]] void refuse(const std::string& why) {
  throw Error("[vulkan] cooperative-matrix SPIR-V rewrite: " + why);
}

std::vector<Inst> parse(std::span<const std::uint32_t> words) {
  if (words.size() < kHeaderWords || words[0] != 0x07230203u) refuse("not a SPIR-V module");
  std::vector<Inst> out;
  for (std::size_t i = kHeaderWords; i < words.size();) {
    const std::uint32_t count = words[i] >> 16;
    if (count == 0 || i + count > words.size()) refuse("malformed module");
    out.push_back({words[i] & 0xffffu,
                   {words.begin() + static_cast<std::ptrdiff_t>(i + 1),
                    words.begin() + static_cast<std::ptrdiff_t>(i + count)}});
    i += count;
  }
  return out;
}

// Element-wise arithmetic, which cooperative matrices allow: its result has its operands' use.
bool is_elementwise(std::uint32_t op) {
  switch (op) {
    case kOpSNegate:
    case kOpFNegate:
    case kOpIAdd:
    case kOpFAdd:
    case kOpISub:
    case kOpFSub:
    case kOpUDiv:
    case kOpSDiv:
    case kOpFDiv:
    case kOpMatrixTimesScalar:
      return true;
    default:
      return false;
  }
}

bool is_string(const Inst& in, const char* s) {
  return in.w == spirv_string_words(s);
}

// Union-find over the ids of matrix values (and pointers to them), each root with its use.
class Uses {
 public:
  std::uint32_t root(std::uint32_t id) {
    auto it = parent_.try_emplace(id, id).first;
    if (it->second == id) return id;
    return it->second = root(it->second);
  }
  void join(std::uint32_t a, std::uint32_t b) {
    const std::uint32_t ra = root(a), rb = root(b);
    if (ra == rb) return;
    auto it = use_.find(ra);
    parent_[ra] = rb;
    if (it != use_.end()) mark(rb, it->second, a);
  }
  void mark(std::uint32_t id, Use u, std::uint32_t where) {
    if (u == kUseNone) return;
    Use& have = use_.try_emplace(root(id), kUseNone).first->second;
    if (have == kUseNone || have == u) {
      have = u;
      return;
    }
    refuse("value %" + std::to_string(where) + " would be two matrix uses at once");
  }
  Use use(std::uint32_t id) {
    auto it = use_.find(root(id));
    return it == use_.end() || it->second == kUseNone ? kUseAcc : it->second;
  }

 private:
  std::map<std::uint32_t, std::uint32_t> parent_;
  std::map<std::uint32_t, Use> use_;
};

}  // namespace

std::vector<std::uint32_t> coopmat_nv_to_khr(std::span<const std::uint32_t> nv,
                                             bool bf16_operands) {
  std::vector<Inst> insts = parse(nv);
  std::uint32_t bound = nv[3];
  auto fresh = [&] { return bound++; };

  // Types made from NV matrix types (the matrix, arrays of it, pointers to either), each to
  // its matrix type; and the type of every value whose type is one of them.
  std::map<std::uint32_t, std::uint32_t> matrix_of;
  std::map<std::uint32_t, const Inst*> type_decl;
  std::map<std::uint32_t, std::uint32_t> value_type;
  std::map<std::uint32_t, std::uint32_t> bool_constant;  // OpConstantTrue/False id -> 1/0
  std::uint32_t u32_type = 0, f16_type = 0;
  for (const Inst& in : insts) {
    switch (in.op) {
      case kOpTypeCoopmatNV:
        matrix_of[in.w[0]] = in.w[0];
        type_decl[in.w[0]] = &in;
        break;
      case kOpTypeArray:
      case kOpTypeRuntimeArray:
        if (matrix_of.count(in.w[1])) matrix_of[in.w[0]] = matrix_of[in.w[1]];
        type_decl[in.w[0]] = &in;
        break;
      case kOpTypePointer:
        if (matrix_of.count(in.w[2])) matrix_of[in.w[0]] = matrix_of[in.w[2]];
        type_decl[in.w[0]] = &in;
        break;
      case kOpTypeStruct:
      case kOpTypeFunction:
        for (std::uint32_t m : in.w) {
          if (matrix_of.count(m)) refuse("a struct or function type holds a matrix");
        }
        break;
      case kOpTypeInt:
        if (in.w[1] == 32 && in.w[2] == 0) u32_type = in.w[0];
        break;
      case kOpTypeFloat:
        if (in.w[1] == 16 && in.w.size() == 2) f16_type = in.w[0];
        break;
      case kOpConstantTrue:
      case kOpConstantFalse:
        bool_constant[in.w[1]] = in.op == kOpConstantTrue;
        break;
      default:
        break;
    }
  }
  if (matrix_of.empty()) refuse("the module has no NV cooperative matrix");
  if (u32_type == 0) refuse("the module declares no 32-bit unsigned integer type");
  auto is_matrix_type = [&](std::uint32_t t) { return matrix_of.count(t) != 0; };

  // Each value's use: joined through everything that passes a matrix on (memory, phis,
  // selects, copies, conversions, element-wise arithmetic), marked by the multiplies.
  // Composites, function parameters and calls, and the length query that name a matrix are
  // refused; a module with any other matrix instruction keeps an NV type the result no
  // longer declares, which the driver refuses when the pipeline is made (an error, never a
  // wrong result). glslang's modules of the two coopmat shaders use none (the tests).
  Uses uses;
  auto typed = [&](const Inst& in) {
    if (!is_matrix_type(in.w[0])) return false;
    value_type[in.w[1]] = in.w[0];
    uses.root(in.w[1]);
    return true;
  };
  for (const Inst& in : insts) {
    switch (in.op) {
      case kOpVariable:
        if (typed(in) && in.w.size() > 3) uses.join(in.w[1], in.w[3]);
        break;
      case kOpLoad:
      case kOpAccessChain:
      case kOpInBoundsAccessChain:
      case kOpCopyObject:
      case kOpFConvert:
        if (typed(in)) uses.join(in.w[1], in.w[2]);
        break;
      case kOpStore:
        if (value_type.count(in.w[0])) uses.join(in.w[0], in.w[1]);
        break;
      case kOpPhi:
        if (typed(in)) {
          for (std::size_t i = 2; i < in.w.size(); i += 2) uses.join(in.w[1], in.w[i]);
        }
        break;
      case kOpSelect:
        if (typed(in)) {
          uses.join(in.w[1], in.w[3]);
          uses.join(in.w[1], in.w[4]);
        }
        break;
      case kOpUndef:
      case kOpConstantComposite:
      case kOpConstantNull:
      case kOpCoopmatLoadNV:
        typed(in);
        break;
      case kOpCoopmatMulAddNV:
        typed(in);
        uses.mark(in.w[2], kUseA, in.w[2]);
        uses.mark(in.w[3], kUseB, in.w[3]);
        uses.mark(in.w[4], kUseAcc, in.w[4]);
        uses.mark(in.w[1], kUseAcc, in.w[1]);
        break;
      case kOpCompositeInsert:
      case kOpFunctionParameter:
      case kOpFunctionCall:
      case kOpCoopmatLengthNV:
        for (std::uint32_t x : in.w) {
          if (value_type.count(x) || (is_matrix_type(x) && in.op != kOpFunctionCall)) {
            refuse("opcode " + std::to_string(in.op) + " names a matrix");
          }
        }
        break;
      default:
        if (is_elementwise(in.op) && typed(in)) {
          for (std::size_t i = 2; i < in.w.size(); ++i) {
            if (value_type.count(in.w[i])) uses.join(in.w[1], in.w[i]);
          }
        }
        break;
    }
  }

  // The KHR types, made on demand: for (NV-derived type, use), its new id and declaration.
  const std::uint32_t use_ids[3] = {fresh(), fresh(), fresh()};
  const std::uint32_t row_major = use_ids[0], column_major = use_ids[1];  // the same values
  const std::uint32_t bf16_type = bf16_operands ? fresh() : 0;
  std::map<std::pair<std::uint32_t, Use>, std::uint32_t> khr_type;
  std::map<std::uint32_t, std::vector<std::vector<std::uint32_t>>> declared_after;  // by NV type
  auto khr = [&](auto& self, std::uint32_t t, Use u) -> std::uint32_t {
    auto [it, added] = khr_type.try_emplace({t, u}, 0);
    if (!added) return it->second;
    const Inst& d = *type_decl.at(t);
    std::vector<std::uint32_t> decl;
    if (d.op == kOpTypeCoopmatNV) {
      std::uint32_t component = d.w[1];
      if (bf16_operands && u != kUseAcc && component == f16_type) component = bf16_type;
      const std::uint32_t id = fresh();
      decl = {(7u << 16) | kOpTypeCoopmatKHR, id, component, d.w[2], d.w[3], d.w[4], use_ids[u]};
    } else if (d.op == kOpTypePointer) {
      const std::uint32_t pointee = self(self, d.w[2], u), id = fresh();
      decl = {(4u << 16) | kOpTypePointer, id, d.w[1], pointee};
    } else {  // an array: its length operand, if any, as it was
      const std::uint32_t element = self(self, d.w[1], u), id = fresh();
      decl = {static_cast<std::uint32_t>(d.w.size() + 1) << 16 | d.op, id, element};
      decl.insert(decl.end(), d.w.begin() + 2, d.w.end());
    }
    khr_type[{t, u}] = decl[1];
    declared_after[t].push_back(decl);
    return decl[1];
  };
  for (const auto& [value, type] : value_type) (void)khr(khr, type, uses.use(value));

  // The module again, instruction by instruction.
  std::vector<std::uint32_t> out(nv.begin(), nv.begin() + kHeaderWords);
  auto emit = [&](std::uint32_t op, const std::vector<std::uint32_t>& w) {
    out.push_back(static_cast<std::uint32_t>(w.size() + 1) << 16 | op);
    out.insert(out.end(), w.begin(), w.end());
  };
  auto layout_of = [&](std::uint32_t column_major_id) {
    auto it = bool_constant.find(column_major_id);
    if (it == bool_constant.end()) refuse("a matrix load or store's layout is not a constant");
    return it->second ? column_major : row_major;
  };
  auto retyped = [&](std::uint32_t type, std::uint32_t value) {
    return is_matrix_type(type) ? khr_type.at({type, uses.use(value)}) : type;
  };
  bool constants_emitted = false;
  for (const Inst& in : insts) {
    std::vector<std::uint32_t> w = in.w;
    switch (in.op) {
      case kOpCapability:
        if (w[0] == kCapCoopmatNV) {
          emit(kOpCapability, {kCapCoopmatKHR});
          if (bf16_operands) {
            emit(kOpCapability, {kCapBFloat16Type});
            emit(kOpCapability, {kCapBFloat16Coopmat});
          }
          continue;
        }
        break;
      case kOpExtension:
        if (is_string(in, "SPV_NV_cooperative_matrix")) {
          emit(kOpExtension, spirv_string_words("SPV_KHR_cooperative_matrix"));
          if (bf16_operands) emit(kOpExtension, spirv_string_words("SPV_KHR_bfloat16"));
          continue;
        }
        break;
      case kOpName:
      case kOpDecorate:
      case kOpMemberName:
      case kOpMemberDecorate:
        if (is_matrix_type(w[0])) {
          if (in.op == kOpName) continue;  // a name of a type that is replaced
          refuse("a decoration names a matrix type");
        }
        break;
      case kOpTypeCoopmatNV:
      case kOpTypeArray:
      case kOpTypeRuntimeArray:
      case kOpTypePointer:
        if (!is_matrix_type(w[0])) break;
        if (!constants_emitted) {  // the use and layout constants and bf16, before any matrix
          for (std::uint32_t u = 0; u < 3; ++u) emit(kOpConstant, {u32_type, use_ids[u], u});
          if (bf16_operands) emit(kOpTypeFloat, {bf16_type, 16, kFpEncodingBFloat16});
          constants_emitted = true;
        }
        for (const std::vector<std::uint32_t>& d : declared_after[w[0]]) {
          out.insert(out.end(), d.begin(), d.end());
        }
        continue;
      case kOpCoopmatLoadNV: {  // type, result, pointer, stride, column-major, memory...
        std::vector<std::uint32_t> k = {retyped(w[0], w[1]), w[1], w[2], layout_of(w[4]), w[3]};
        k.insert(k.end(), w.begin() + 5, w.end());
        emit(kOpCoopmatLoadKHR, k);
        continue;
      }
      case kOpCoopmatStoreNV: {  // pointer, object, stride, column-major, memory...
        std::vector<std::uint32_t> k = {w[0], w[1], layout_of(w[3]), w[2]};
        k.insert(k.end(), w.begin() + 4, w.end());
        emit(kOpCoopmatStoreKHR, k);
        continue;
      }
      case kOpCoopmatMulAddNV:
        w[0] = retyped(w[0], w[1]);
        emit(kOpCoopmatMulAddKHR, w);
        continue;
      case kOpVariable:
      case kOpLoad:
      case kOpAccessChain:
      case kOpInBoundsAccessChain:
      case kOpCopyObject:
      case kOpFConvert:
      case kOpPhi:
      case kOpSelect:
      case kOpUndef:
      case kOpConstantComposite:
      case kOpConstantNull:
        w[0] = retyped(w[0], w[1]);
        break;
      default:
        if (is_elementwise(in.op)) w[0] = retyped(w[0], w[1]);
        break;
    }
    emit(in.op, w);
  }
  out[3] = bound;
  return out;
}

}  // namespace vkt::vk
