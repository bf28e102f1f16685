// vkt::compile on Vulkan: a fused elementwise group becomes one generated compute shader.
// The GLSL is generated here (shapes, dtypes and literals baked in), calls the same
// functions as the built-in elementwise shaders (shaders/*_ops.glsl, embedded), and is
// compiled in-process by shaderc; SPIR-V is cached in memory and on disk (kernel_cache.cpp).
#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>

#include "vkt/compile.h"
#include "vkt/ledger.h"
#include "vulkan/compile/compiled_glsl.h"
#include "vulkan/compile/kernel_cache.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {
namespace fused_glsl {

const char* glsl_type(DType d) {
  switch (d) {
    case DType::f32:
    case DType::f16:
    case DType::bf16:
      return "float";
    case DType::f64:
      return "double";
    case DType::s8:
    case DType::s16:
    case DType::s32:
      return "int";
    case DType::u8:
    case DType::u16:
    case DType::u32:
      return "uint";
    case DType::s64:
      return "int64_t";
    case DType::u64:
      return "uint64_t";
    default:
      return nullptr;
  }
}

// The element type of a buffer holding dtype d.
const char* buffer_type(DType d) {
  switch (d) {
    case DType::f16:
    case DType::bf16:
    case DType::u16:
      return "uint16_t";
    case DType::s16:
      return "int16_t";
    case DType::u8:
      return "uint8_t";
    case DType::s8:
      return "int8_t";
    default:
      return glsl_type(d);
  }
}

std::uint32_t bits_of(DType d) {
  return static_cast<std::uint32_t>(itemsize(d) * 8);
}

bool is_32bit_float_family(DType d) {
  return d == DType::f32 || d == DType::f16 || d == DType::bf16;
}

// A value computed in the dtype's holding type, brought back to what the dtype holds (the
// rounding or wrapping eager's store then load would do).
std::string narrowed(DType d, const std::string& e) {
  switch (d) {
    case DType::f16:
      return "unpackHalf2x16(f32_to_f16_bits(" + e + ")).x";
    case DType::bf16:
      return "uintBitsToFloat(f32_to_bf16_bits(" + e + ") << 16)";
    case DType::s8:
      return "bitfieldExtract(int(" + e + "), 0, 8)";
    case DType::s16:
      return "bitfieldExtract(int(" + e + "), 0, 16)";
    case DType::u8:
      return "(uint(" + e + ") & 0xffu)";
    case DType::u16:
      return "(uint(" + e + ") & 0xffffu)";
    default:
      return e;
  }
}

std::string load(DType d, const std::string& e) {
  switch (d) {
    case DType::f16:
      return "unpackHalf2x16(uint(" + e + ")).x";
    case DType::bf16:
      return "uintBitsToFloat(uint(" + e + ") << 16)";
    case DType::s8:
    case DType::s16:
      return "int(" + e + ")";
    case DType::u8:
    case DType::u16:
      return "uint(" + e + ")";
    default:
      return e;
  }
}

std::string store(DType d, const std::string& e) {
  switch (d) {
    case DType::f16:
      return "uint16_t(f32_to_f16_bits(" + e + "))";
    case DType::bf16:
      return "uint16_t(f32_to_bf16_bits(" + e + "))";
    default:
      return std::string(buffer_type(d)) + "(" + e + ")";
  }
}

std::string hex(std::uint64_t v, int digits) {
  std::ostringstream s;
  s << "0x" << std::hex;
  s.width(digits);
  s.fill('0');
  s << v;
  return s.str();
}

// An inline literal with exactly the element's bits. Float literals are XORed with the push
// constant `p.zero` (always 0): a literal the compiler can see gets folded past IEEE rules
// (lavapipe's x + 0.0 -> x turned -0 into -0 where eager gives +0), one it cannot see does not.
std::string literal(DType d, const std::vector<std::byte>& bytes) {
  std::uint64_t raw = 0;
  std::memcpy(&raw, bytes.data(), std::min(bytes.size(), sizeof raw));
  switch (d) {
    case DType::f32:
      return "uintBitsToFloat(" + hex(raw & 0xffffffffu, 8) + "u ^ p.zero)";
    case DType::f16: {
      f16 h;
      std::memcpy(&h, bytes.data(), sizeof h);
      const float f = static_cast<float>(h);
      std::uint32_t b;
      std::memcpy(&b, &f, sizeof b);
      return "uintBitsToFloat(" + hex(b, 8) + "u ^ p.zero)";
    }
    case DType::bf16:
      return "uintBitsToFloat(" + hex((raw & 0xffffu) << 16, 8) + "u ^ p.zero)";
    case DType::f64:
      return "packDouble2x32(uvec2(" + hex(raw & 0xffffffffu, 8) + "u ^ p.zero, " +
             hex(raw >> 32, 8) + "u))";
    case DType::s8:
      return "int(" + std::to_string(static_cast<std::int8_t>(raw)) + ")";
    case DType::s16:
      return "int(" + std::to_string(static_cast<std::int16_t>(raw)) + ")";
    case DType::s32:
      return "int(" + hex(raw & 0xffffffffu, 8) + "u)";
    case DType::u8:
      return hex(raw & 0xffu, 2) + "u";
    case DType::u16:
      return hex(raw & 0xffffu, 4) + "u";
    case DType::u32:
      return hex(raw & 0xffffffffu, 8) + "u";
    case DType::s64:
      return "int64_t(" + hex(raw, 16) + "ul)";
    default:  // u64
      return hex(raw, 16) + "ul";
  }
}

const char* dt_code(DType d) {
  static const char* const names[] = {"DT_U8",  "DT_U16", "DT_U32", "DT_U64",  "DT_S8",  "DT_S16",
                                      "DT_S32", "DT_S64", "DT_F16", "DT_BF16", "DT_F32", "DT_F64"};
  return names[static_cast<int>(d)];
}

// as_type: float sources and float targets through dtype_value.glsl's Value, as
// conversion.comp does; integer to integer wraps (two's complement), written out.
std::string conversion(DType from, DType to, const std::string& x) {
  if (is_integer(from) && is_integer(to)) {
    const bool from_signed = is_signed_integer(from);
    // Widening builds the two halves explicitly (llvmpipe lost the sign of an extended
    // negative value feeding int_remainder_s64 when written as int64_t(x)).
    if (to == DType::s64 || to == DType::u64) {
      std::string wide;
      if (itemsize(from) == 8) {
        wide = "int64_t(" + x + ")";
      } else {
        const std::string low = "int(" + x + ")";
        wide = "packInt2x32(ivec2(" + low + ", " + (from_signed ? low + " >> 31" : "0") + "))";
      }
      return to == DType::s64 ? wide : "uint64_t(" + wide + ")";
    }
    return narrowed(to, std::string(glsl_type(to)) + "(" + x + ")");
  }
  std::string value;
  if (is_float(from)) {
    value = "float_value(widen(" + x + "))";  // exact where a device flushes (dtype_value.glsl)
  } else {
    value = "int_value(IWIDE(" + x + "), " + (is_unsigned_integer(from) ? "true" : "false") + ")";
  }
  if (is_32bit_float_family(to)) return narrowed(to, "to_f32(" + value + ")");
  if (to == DType::f64) return "to_f64(" + value + ")";
  return narrowed(to,
                  std::string(glsl_type(to)) + "(to_int_bits(" + value + ", " + dt_code(to) + "))");
}

std::string unary_expr(Op op, DType in, DType out, const std::string& x) {
  const std::string code = std::to_string(shader_op_code(op)) + "u";
  if (op == Op::logical_not) {  // zero on the bits (a subnormal is not zero), as eager
    if (is_32bit_float_family(in)) return "(f32_nonzero(" + x + ") ? 0u : 1u)";
    if (in == DType::f64) return "(f64_nonzero(" + x + ") ? 0u : 1u)";
    return "(" + x + " == " + std::string(glsl_type(in)) + "(0) ? 1u : 0u)";
  }
  if (op == Op::is_nan || op == Op::is_infinity) {
    if (!is_float(in)) return "0u";
    return std::string("(") + (op == Op::is_nan ? "isnan" : "isinf") + "(" + x + ") ? 1u : 0u)";
  }
  if (is_32bit_float_family(in)) return narrowed(out, "float_function(" + code + ", " + x + ")");
  if (in == DType::f64) return "double_function(" + code + ", " + x + ")";
  if (in == DType::s64) return "int64_t(bits64_function(" + code + ", uint64_t(" + x + "), true))";
  if (in == DType::u64) return "bits64_function(" + code + ", " + x + ", false)";
  const std::string bits = std::to_string(bits_of(in)) + "u";
  if (is_unsigned_integer(in))
    return narrowed(out, "unsigned_function(" + code + ", " + x + ", " + bits + ")");
  return narrowed(out, "signed_function(" + code + ", " + x + ", " + bits + ")");
}

std::string binary_expr(Op op, DType in, DType out, const std::string& a, const std::string& b) {
  const std::string code = std::to_string(shader_op_code(op)) + "u";
  const std::string args = code + ", " + a + ", " + b;
  const std::string suffix = in == DType::s64          ? "s64"
                             : in == DType::u64        ? "u64"
                             : is_unsigned_integer(in) ? "u32"
                                                       : "s32";
  if (writes_u8(op)) {
    if (is_32bit_float_family(in)) return "(float_predicate(" + args + ") ? 1u : 0u)";
    if (in == DType::f64) return "(double_predicate(" + args + ") ? 1u : 0u)";
    return "(int_predicate_" + suffix + "(" + args + ") ? 1u : 0u)";
  }
  if (is_32bit_float_family(in) || in == DType::f64) {
    // Written out, so each is one rounding marked precise (no contraction across ops): in a
    // called function glslang does not mark them, and NVIDIA fused an f64 layer norm's
    // multiply and add (on the H200).
    if (op == Op::add) return narrowed(out, a + " + " + b);
    if (op == Op::subtract) return narrowed(out, a + " - " + b);
    if (op == Op::multiply) return narrowed(out, a + " * " + b);
    if (in == DType::f64) return "double_binary(" + args + ")";
    return narrowed(out, "float_binary(" + args + ")");
  }
  const std::string bits = std::to_string(bits_of(in)) + "u";
  return narrowed(out, "int_binary_" + suffix + "(" + args + ", " + bits + ")");
}

// The index into a leaf of shape `leaf` for output element i of shape `out` (broadcast
// axes have stride 0; axes that stay contiguous together are merged).
std::string leaf_index(const Shape& leaf, const Shape& out, const std::string& index) {
  if (numel(leaf) == numel(out)) return index;
  if (numel(leaf) == 1) return "0u";
  const std::size_t rank = out.size();
  std::vector<std::int64_t> stride(rank, 0);
  std::int64_t st = 1;
  for (std::size_t k = 0; k < leaf.size(); ++k) {
    const std::size_t axis = leaf.size() - 1 - k, out_axis = rank - 1 - k;
    if (leaf[axis] != 1) stride[out_axis] = st;
    st *= leaf[axis];
  }
  std::vector<std::int64_t> dims, strides;
  for (std::size_t d = 0; d < rank; ++d) {
    if (out[d] == 1) continue;
    if (!dims.empty() && strides.back() == stride[d] * out[d]) {
      dims.back() *= out[d];
      strides.back() = stride[d];
      continue;
    }
    dims.push_back(out[d]);
    strides.push_back(stride[d]);
  }
  std::string e;
  std::string rest = index;
  for (std::size_t k = dims.size(); k-- > 0;) {
    const std::string d = std::to_string(dims[k]) + "u";
    const std::string term = k == 0 ? rest : "(" + rest + " % " + d + ")";
    if (strides[k] != 0)
      e += (e.empty() ? "" : " + ") + term + " * " + std::to_string(strides[k]) + "u";
    rest = "(" + rest + " / " + d + ")";
  }
  return e.empty() ? "0u" : e;
}

bool needs_i64(const detail::FusedGroup& g) {
  for (const detail::FusedValue& v : g.values) {
    if (v.dtype == DType::s64 || v.dtype == DType::u64 || v.dtype == DType::f64) return true;
  }
  return false;
}

bool needs_f64(const detail::FusedGroup& g) {
  for (const detail::FusedValue& v : g.values) {
    if (v.dtype == DType::f64) return true;
  }
  return false;
}

// Keeps only the cases of the shared op functions that this group calls (VKT_ONLY_OPS in
// elementwise_unary_ops.glsl): the driver then never inlines the math of unused ops.
std::string kept_ops(const detail::FusedGroup& g) {
  std::string defines = "#define VKT_ONLY_OPS\n";
  for (const detail::FusedValue& v : g.values) {
    if (v.kind != detail::FusedValue::Kind::op) continue;
    std::string name(op_name(v.op));
    for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const std::string line = "#define VKT_KEEP_OP_" + name + "\n";
    if (defines.find(line) == std::string::npos) defines += line;
  }
  return defines;
}

extern const char* const kElementwiseIncludes =
    "#include \"elementwise_math.glsl\"\n#ifdef VKT_F64\n#include "
    "\"elementwise_math_f64.glsl\"\n#endif\n#include \"op_codes.glsl\"\n"
    "#include \"elementwise_binary_ops.glsl\"\n"
    "#include \"elementwise_unary_ops.glsl\"\n";

// The leaf buffers, bound from `first` on.
std::string leaf_buffers(const detail::FusedGroup& g, std::size_t first) {
  std::ostringstream s;
  for (std::size_t k = 0; k < g.leaf_dtypes.size(); ++k) {
    s << "layout(binding = " << first + k << ") readonly buffer Leaf" << k << " { "
      << buffer_type(g.leaf_dtypes[k]) << " v[]; } leaf" << k << ";\n";
  }
  return s.str();
}

// select's test: not zero on the bits for floats (-0 is false, NaN true), as eager.
std::string nonzero(DType d, const std::string& x) {
  if (is_32bit_float_family(d)) return "f32_nonzero(" + x + ")";
  if (d == DType::f64) return "f64_nonzero(" + x + ")";
  return "(" + x + " != " + std::string(glsl_type(d)) + "(0))";
}

// clip's comparison: floats by the order of their bits (NaN is never less; -0 == +0).
std::string less(DType d, const std::string& a, const std::string& b) {
  if (is_32bit_float_family(d)) return "f32_less(" + a + ", " + b + ")";
  if (d == DType::f64) return "f64_less(" + a + ", " + b + ")";
  return "(" + a + " < " + b + ")";
}

// The expression of value k (an op, leaf or literal) with its operands named by `arg`,
// leaves read at index expression `index`; a statement it needs first goes to `pre`.
std::string value_expression(const detail::FusedGroup& g, std::size_t k,
                             const std::function<std::string(int)>& arg_name,
                             const std::string& index, std::string& pre) {
  const detail::FusedValue& v = g.values[k];
  switch (v.kind) {
    case detail::FusedValue::Kind::leaf:
      return load(v.dtype,
                  "leaf" + std::to_string(v.leaf) + ".v[" +
                      leaf_index(g.leaf_shapes[static_cast<std::size_t>(v.leaf)], g.shape, index) +
                      "]");
    case detail::FusedValue::Kind::scalar:
      return literal(v.dtype, v.scalar);
    case detail::FusedValue::Kind::op:
      break;
  }
  const auto arg = [&](std::size_t j) { return arg_name(v.args[j]); };
  const DType in = g.values[static_cast<std::size_t>(v.args[0])].dtype;
  if (v.op == Op::select) return "(" + nonzero(in, arg(0)) + " ? " + arg(1) + " : " + arg(2) + ")";
  if (v.op == Op::clip) {
    // The eager shader's order (a NaN x stays NaN), compared as it does: on the bits.
    const std::string low = "c" + std::to_string(k);
    pre += std::string("  ") + (is_float(v.dtype) ? "precise " : "") + glsl_type(v.dtype) + " " +
           low + " = " + less(v.dtype, arg(0), arg(1)) + " ? " + arg(1) + " : " + arg(0) + ";\n";
    return less(v.dtype, arg(2), low) + " ? " + arg(2) + " : " + low;
  }
  if (v.op == Op::as_type) return conversion(in, v.dtype, arg(0));
  if (v.args.size() == 1) return unary_expr(v.op, in, v.dtype, arg(0));
  return binary_expr(v.op, in, v.dtype, arg(0), arg(1));
}

// One statement per value, computing v<k> for element i of the group's shape; a leaf that
// `leaf_element` names (non-empty) is read from there instead.
std::string value_statements(const detail::FusedGroup& g,
                             const std::function<std::string(int leaf)>& leaf_element = {}) {
  std::ostringstream s;
  for (std::size_t k = 0; k < g.values.size(); ++k) {
    const detail::FusedValue& v = g.values[k];
    std::string pre;
    const std::string named = v.kind == detail::FusedValue::Kind::leaf && leaf_element
                                  ? leaf_element(v.leaf)
                                  : std::string();
    const std::string e = !named.empty()
                              ? load(v.dtype, named)
                              : value_expression(
                                    g, k, [](int a) { return "v" + std::to_string(a); }, "i", pre);
    s << pre << "  " << (is_float(v.dtype) ? "precise " : "") << glsl_type(v.dtype) << " v" << k
      << " = " << e << ";\n";
  }
  return s.str();
}

// A tensor of this dtype and shape with no device memory: what `supports` and the
// reduction's planning look at, never bound.
Tensor placeholder(VulkanBackend& b, DType d, const Shape& shape) {
  return Tensor(d, shape,
                std::make_shared<Storage>(b, static_cast<std::size_t>(numel(shape)) * itemsize(d)));
}

// True when eager would run every op of the group natively here (else the plan runs the
// group op by op, with the usual fallback rule for those that need it).
bool natively_supported(VulkanBackend& b, const detail::FusedGroup& g) {
  for (const detail::FusedValue& v : g.values) {
    if (glsl_type(v.dtype) == nullptr || !b.dtype_supported(v.dtype)) return false;
    if (v.kind != detail::FusedValue::Kind::op) continue;
    if (g.rows && detail::reduction_op(v.op)) {  // over the last axis of the rows
      const detail::FusedValue& in = g.values[static_cast<std::size_t>(v.args.at(0))];
      const Axes axes{static_cast<std::int64_t>(g.shape.size()) - 1};
      if (!b.supports(OpCall{v.op,
                             {placeholder(b, in.dtype, g.shape)},
                             ReduceParams{axes, true},
                             v.dtype,
                             v.shape,
                             nullptr}))
        return false;
      continue;
    }
    OpCall call{v.op, {}, NoParams{}, v.dtype, v.shape, nullptr};
    const bool indexing = v.op == Op::select || v.op == Op::clip;
    for (int a : v.args) {
      const detail::FusedValue& in = g.values[static_cast<std::size_t>(a)];
      // select and clip take operands of the output's shape or of one element (the core's).
      const Shape shape = !indexing ? in.shape : numel(in.shape) == 1 ? Shape{} : v.shape;
      call.inputs.push_back(
          Tensor(in.dtype, shape,
                 std::make_shared<Storage>(
                     b, static_cast<std::size_t>(numel(shape)) * itemsize(in.dtype))));
    }
    if (!b.supports(call)) return false;
  }
  return true;
}

}  // namespace fused_glsl

namespace {

using namespace fused_glsl;

// The 16-byte vector of a 32-bit dtype, or nullptr.
const char* word_vector(DType d) {
  switch (d) {
    case DType::f32:
      return "vec4";
    case DType::s32:
      return "ivec4";
    case DType::u32:
      return "uvec4";
    default:
      return nullptr;
  }
}

// Four elements per 16-byte load and store, as eager's f32 binary ops (with one per load,
// bench_results/h200/compile.csv's 16-op chain at 16M: 45.9 us on the device, over eager's add):
// where every leaf and output holds 32-bit elements and each leaf has the group's size or one
// element (at least four). Bound ranges start 256-byte aligned (memory.h); the tail goes one
// by one.
bool four_wide(const detail::FusedGroup& g) {
  const std::int64_t n = numel(g.shape);
  if (n < 4) return false;
  for (std::size_t k = 0; k < g.leaf_dtypes.size(); ++k) {
    const std::int64_t m = numel(g.leaf_shapes[k]);
    if (word_vector(g.leaf_dtypes[k]) == nullptr || (m != n && m != 1)) return false;
  }
  return std::all_of(g.outputs.begin(), g.outputs.end(), [&](int o) {
    return word_vector(g.values[static_cast<std::size_t>(o)].dtype) != nullptr;
  });
}

// four(j): elements 4j to 4j + 3 through element()'s statements (the same bits), the leaves
// of the group's size read and the outputs written as one vector each.
std::string four_wide_function(const detail::FusedGroup& g) {
  const std::int64_t n = numel(g.shape);
  const std::size_t leaves = g.leaf_dtypes.size();
  const auto full = [&](std::size_t k) { return numel(g.leaf_shapes[k]) == n; };
  std::ostringstream s;
  for (std::size_t k = 0; k < leaves; ++k) {
    if (!full(k)) continue;
    s << "layout(binding = " << k << ") readonly buffer Leaf" << k << "x4 { "
      << word_vector(g.leaf_dtypes[k]) << " v[]; } leaf" << k << "x4;\n";
  }
  for (std::size_t k = 0; k < g.outputs.size(); ++k) {
    const DType d = g.values[static_cast<std::size_t>(g.outputs[k])].dtype;
    s << "layout(binding = " << leaves + k << ") writeonly buffer Out" << k << "x4 { "
      << word_vector(d) << " v[]; } out" << k << "x4;\n";
  }
  s << "\nvoid four(uint j) {\n";
  for (std::size_t k = 0; k < leaves; ++k) {
    if (full(k))
      s << "  const " << word_vector(g.leaf_dtypes[k]) << " w" << k << " = leaf" << k
        << "x4.v[j];\n";
  }
  for (std::size_t k = 0; k < g.outputs.size(); ++k) {
    const DType d = g.values[static_cast<std::size_t>(g.outputs[k])].dtype;
    s << "  " << word_vector(d) << " r" << k << ";\n";
  }
  s << "  for (uint e = 0u; e < 4u; ++e) {\n"
    << value_statements(g, [&](int leaf) {
         return full(static_cast<std::size_t>(leaf)) ? "w" + std::to_string(leaf) + "[e]"
                                                     : std::string();
       });
  for (std::size_t k = 0; k < g.outputs.size(); ++k) {
    const int o = g.outputs[k];
    s << "    r" << k
      << "[e] = " << store(g.values[static_cast<std::size_t>(o)].dtype, "v" + std::to_string(o))
      << ";\n";
  }
  s << "  }\n";
  for (std::size_t k = 0; k < g.outputs.size(); ++k)
    s << "  out" << k << "x4.v[j] = r" << k << ";\n";
  s << "}\n";
  return s.str();
}

std::string generate(const detail::FusedGroup& g) {
  const bool f64 = needs_f64(g), i64 = needs_i64(g);
  std::ostringstream s;
  s << "#version 450\n// vkt::compile fused kernel: " << g.values.size() << " values, output "
    << shape_str(g.shape) << "\n";
  if (i64) s << "#define VKT_I64\n";  // the f64 variant of the shared sources names them too
  if (f64) s << "#define VKT_F64\n";
  s << kept_ops(g)
    << "#include \"common.glsl\"\n#include \"dtype_value.glsl\"\n#include \"float_bits.glsl\"\n"
    << kElementwiseIncludes << leaf_buffers(g, 0)
    << "layout(push_constant) uniform Push { uint zero; } p;  // 0: see literal()\n";
  for (std::size_t k = 0; k < g.outputs.size(); ++k) {
    const DType d = g.values[static_cast<std::size_t>(g.outputs[k])].dtype;
    s << "layout(binding = " << g.leaf_dtypes.size() + k << ") writeonly buffer Out" << k << " { "
      << buffer_type(d) << " v[]; } out" << k << ";\n";
  }
  s << "\nvoid element(uint i) {\n" << value_statements(g);
  for (std::size_t k = 0; k < g.outputs.size(); ++k) {
    const DType d = g.values[static_cast<std::size_t>(g.outputs[k])].dtype;
    s << "  out" << k << ".v[i] = " << store(d, "v" + std::to_string(g.outputs[k])) << ";\n";
  }
  s << "}\n";
  const std::int64_t n = numel(g.shape);
  const bool wide = four_wide(g);
  if (wide) s << four_wide_function(g);
  s << "\nvoid main() {\n  const uint stride = grid_stride();\n";
  if (wide) s << "  for (uint j = global_index(); j < " << n / 4 << "u; j += stride) four(j);\n";
  if (!wide || n % 4 != 0)
    s << "  for (uint i = " << (wide ? std::to_string(n / 4 * 4) + "u + " : "")
      << "global_index(); i < " << n << "u; i += stride) element(i);\n";
  s << "}\n";
  return s.str();
}

// A value as reduce_acc.glsl's load_value gives a source element of dtype d.
std::string as_value(DType d, const std::string& x) {
  switch (d) {
    case DType::f16:
      return "float_value(FWIDE(" + x + "))";
    case DType::f32:
    case DType::bf16:
      return "float_value(widen(" + x + "))";
    case DType::f64:
      return "float_value(" + x + ")";
    default:
      return "int_value(IWIDE(" + x + "), " + (is_unsigned_integer(d) ? "true" : "false") + ")";
  }
}

// A reduction with its prologue: reduce.comp's body (reduce_main.glsl, the variant eager's
// first pass uses) whose load_value(i) evaluates the group at element i.
std::string generate_reduction(const detail::FusedGroup& g, const std::string& variant_defines,
                               bool i64, bool f64) {
  std::ostringstream s;
  s << "#version 450\n// vkt::compile fused reduction: " << g.values.size() << " values over "
    << shape_str(g.shape) << "\n";
  if (i64) s << "#define VKT_I64\n";
  if (f64) s << "#define VKT_F64\n";
  s << variant_defines << kept_ops(g)
    << "#define VKT_FUSED_PROLOGUE\n#include \"reduce_main.glsl\"\n"
    << kElementwiseIncludes << leaf_buffers(g, 4) << "\nValue load_value(uint i) {\n"
    << value_statements(g);
  const int root = g.outputs.at(0);
  s << "  return "
    << as_value(g.values[static_cast<std::size_t>(root)].dtype, "v" + std::to_string(root))
    << ";\n}\n";
  return s.str();
}

class VulkanFusedKernel final : public detail::FusedKernel {
 public:
  VulkanFusedKernel(VulkanBackend& b, const detail::FusedGroup& g, Pipeline p)
      : b_(b), pipeline_(p), shape_(g.shape) {
    for (int o : g.outputs) out_dtypes_.push_back(g.values[static_cast<std::size_t>(o)].dtype);
  }

  std::vector<Tensor> run(const std::vector<Tensor>& leaves) override {
    std::vector<Tensor> outs;
    b_.locked(
        [&] {
          for (DType d : out_dtypes_) {
            outs.push_back(b_.make_output(OpCall{Op::add, {}, NoParams{}, d, shape_, nullptr}));
          }
          const std::uint64_t n = static_cast<std::uint64_t>(numel(shape_));
          if (n == 0) return;
          std::vector<std::pair<const Tensor*, bool>> buffers;
          for (const Tensor& t : leaves) buffers.emplace_back(&t, false);
          for (const Tensor& t : outs) buffers.emplace_back(&t, true);
          const std::uint32_t push = 0;
          b_.dispatch(pipeline_, buffers, &push, sizeof push, grid_stride_threads(n));
        },
        [&] { return "fused elementwise " + shape_str(shape_); });
    return outs;
  }

 private:
  VulkanBackend& b_;
  Pipeline pipeline_;
  Shape shape_;
  std::vector<DType> out_dtypes_;
};

// A reduction with its prologue: eager's passes, the first through the generated shader.
class VulkanFusedReduction final : public detail::FusedKernel {
 public:
  VulkanFusedReduction(VulkanBackend& b, OpCall call, FusedReduceSource source)
      : b_(b), call_(std::move(call)), source_(std::move(source)) {}

  std::vector<Tensor> run(const std::vector<Tensor>& leaves) override {
    Tensor out;
    b_.locked(
        [&] {
          source_.leaves = &leaves;
          out = run_fused_reduce(b_, call_, &source_);
          source_.leaves = nullptr;
        },
        [&] { return "fused " + op_label(call_); });
    return {out};
  }

 private:
  VulkanBackend& b_;
  OpCall call_;  // its input a placeholder: the prologue's dtype and shape
  FusedReduceSource source_;
};

std::unique_ptr<detail::FusedKernel> compile_reduction(VulkanBackend& b,
                                                       const detail::FusedGroup& g) {
  // reduce.comp's four bindings, then the leaves, within what every device offers; values
  // written beside the reduction are the cpu's (plans here recompute them instead).
  if (4 + g.leaf_dtypes.size() > 8 || g.outputs.size() > 1) return nullptr;
  const std::uint64_t n = static_cast<std::uint64_t>(numel(g.shape));
  if (n == 0) return nullptr;  // eager's identity fill needs no prologue
  const std::uint64_t limit = b.context().limits().max_storage_range;
  for (const detail::FusedValue& v : g.values) {
    if (glsl_type(v.dtype) == nullptr || n * itemsize(v.dtype) > limit) return nullptr;
  }
  if (!natively_supported(b, g)) return nullptr;
  const detail::FusedReduce& r = *g.reduce;
  const DType in = g.values[static_cast<std::size_t>(g.outputs.at(0))].dtype;
  OpCall call{
      r.op,   {placeholder(b, in, g.shape)}, ReduceParams{r.axes, r.keep_axes}, r.dtype, r.shape,
      nullptr};
  if (!b.supports(call)) return nullptr;
  std::string source;
  {
    const PhaseTimer timed(ledger::Phase::codegen);
    source = generate_reduction(g, reduce_variant_defines(b, call), needs_i64(g), needs_f64(g));
  }
  if (compile_dump()) std::cerr << "vkt::compile: generated GLSL\n" << source;
  // Compiled outside the backend's lock: a plan's kernels compile on several threads.
  KernelBinary bin = kernel_binary(b.context(), source);
  FusedReduceSource fused{bin.key, std::move(bin.words), nullptr};
  // Its pipelines now, on this thread, not one after another at the first run.
  std::vector<Tensor> leaves;
  for (std::size_t k = 0; k < g.leaf_dtypes.size(); ++k)
    leaves.push_back(placeholder(b, g.leaf_dtypes[k], g.leaf_shapes[k]));
  fused.leaves = &leaves;
  prepare_reduce(b, call, &fused);
  fused.leaves = nullptr;
  return std::make_unique<VulkanFusedReduction>(b, std::move(call), std::move(fused));
}

}  // namespace

std::unique_ptr<detail::FusedKernel> compile_fused(Backend& backend, const detail::FusedGroup& g) {
  auto& b = static_cast<VulkanBackend&>(backend);
  if (g.rows) return compile_rows(b, g);
  if (g.dot >= 0) return compile_dot(b, g);  // compiled_dot.cpp
  if (g.reduce) return compile_reduction(b, g);
  // Bindings within what every device offers per stage; 32-bit indexing; one range each.
  const std::size_t bindings = g.leaf_dtypes.size() + g.outputs.size();
  if (bindings > 8) return nullptr;
  const std::uint64_t limit = b.context().limits().max_storage_range;
  const std::uint64_t n = static_cast<std::uint64_t>(numel(g.shape));
  if (n >= (std::uint64_t{1} << 31)) return nullptr;
  // c64/c128 have no glsl_type: groups touching complex run op by op through dispatch
  // (the plan's unfused path), giving eager's results.
  for (const detail::FusedValue& v : g.values) {
    if (is_complex(v.dtype) || glsl_type(v.dtype) == nullptr || n * itemsize(v.dtype) > limit)
      return nullptr;
  }
  if (!natively_supported(b, g)) return nullptr;
  std::string source;
  {
    const PhaseTimer timed(ledger::Phase::codegen);
    source = generate(g);
  }
  if (compile_dump()) std::cerr << "vkt::compile: generated GLSL\n" << source;
  // Compiled and its pipeline created outside the backend's lock (Pipelines locks itself):
  // a plan's kernels are made on several threads at once.
  const KernelBinary bin = kernel_binary(b.context(), source);
  const Pipeline p =
      b.pipelines().get_generated(bin.key, bin.words, static_cast<std::uint32_t>(bindings));
  return std::make_unique<VulkanFusedKernel>(b, g, p);
}

}  // namespace vkt::vk
