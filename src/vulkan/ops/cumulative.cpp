// cumulative_sum / product / max / min on the device (shaders/cumulative.comp): the input as
// [outer, len, inner] along the axis. Long axes are cut into chunks so the whole device
// works: chunk totals, then each chunk's carry (a short sequential scan of the totals),
// then every chunk scanned from its carry — three dispatches, two pooled temporaries.
// Float sums and products therefore associate differently from the cpu's sequential scan
// (exact for integers, max and min). A complex cumulative_sum scans its parts (parts_call).
#include <algorithm>

#include "vulkan/ops/op_support.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {
namespace {

enum Phase : std::uint32_t { kTotals, kCarries, kScan };
enum Mode : std::uint32_t { kRows, kCols };

struct ScanPush {
  std::uint32_t outer, len, inner, chunk, splits, lanes;
};

// The accumulator's dtype (as reduce.cpp's): integer sums/products wrap in u64.
DType scan_acc_dtype(Op op, DType in) {
  if (is_float(in)) return in == DType::f64 ? DType::f64 : DType::f32;
  if (op == Op::cumulative_sum || op == Op::cumulative_product) return DType::u64;
  if (itemsize(in) == 8) return in;
  return is_signed_integer(in) ? DType::s32 : DType::u32;
}

constexpr std::uint64_t kTargetThreads = 1u << 17;
constexpr std::uint64_t kTargetGroups = 2048;
constexpr std::uint64_t kMinRowsChunk = 4096;
constexpr std::uint64_t kMinColsChunk = 64;
constexpr std::uint64_t kRowsFrom = 64;

}  // namespace

namespace {
// A complex cumulative_sum is the real one of its parts: the tensor read as [..., 2] of its
// part type, the same axis (product, a complex multiply, falls back).
OpCall parts_call(const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  Shape shape = in.shape();
  shape.push_back(2);
  OpCall c = call;
  c.inputs = {Tensor(to_real_type(in.dtype()), shape, in.storage())};
  c.out_dtype = to_real_type(call.out_dtype);
  c.out_shape.push_back(2);
  return c;
}
}  // namespace

bool cumulative_supported(const VulkanBackend& b, const OpCall& call) {
  if (is_complex(call.inputs.at(0).dtype())) {
    return call.op == Op::cumulative_sum && call.out_dtype == call.inputs[0].dtype() &&
           cumulative_supported(b, parts_call(call));
  }
  const DType in = call.inputs.at(0).dtype();
  if (!b.dtype_supported(in) || !b.dtype_supported(scan_acc_dtype(call.op, in))) return false;
  return static_cast<std::uint64_t>(call.inputs.at(0).size()) < (std::uint64_t{1} << 30);
}

Tensor run_cumulative(VulkanBackend& b, const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  if (is_complex(in.dtype())) {
    const Tensor parts = run_cumulative(b, parts_call(call));
    return Tensor(call.out_dtype, call.out_shape, parts.storage());
  }
  Tensor out = b.make_output(call);
  if (out.size() == 0) return out;
  // Bindings: 0 input, 1 totals or carries (read), 2 output, 3 totals or carries (written);
  // unused write bindings alias a written one (the validation layer counts every binding
  // the shader may write as written).
  const CumulativeParams& params = call.get<CumulativeParams>();
  const auto axis = static_cast<std::size_t>(params.axis);
  std::uint64_t outer = 1, inner = 1;
  const auto len = static_cast<std::uint64_t>(in.shape()[axis]);
  for (std::size_t i = 0; i < axis; ++i) outer *= static_cast<std::uint64_t>(in.shape()[i]);
  for (std::size_t i = axis + 1; i < in.shape().size(); ++i) {
    inner *= static_cast<std::uint64_t>(in.shape()[i]);
  }
  const bool rows = inner == 1 && len >= kRowsFrom;
  const std::uint64_t columns = outer * inner;
  std::uint64_t splits = rows ? std::min((kTargetGroups + outer - 1) / outer,
                                         (len + kMinRowsChunk - 1) / kMinRowsChunk)
                              : std::min((kTargetThreads + columns - 1) / columns,
                                         (len + kMinColsChunk - 1) / kMinColsChunk);
  splits = std::max<std::uint64_t>(splits, 1);
  const std::uint64_t chunk = (len + splits - 1) / splits;
  splits = (len + chunk - 1) / chunk;  // no empty chunk
  const Mode mode = rows ? kRows : kCols;
  const DType acc = scan_acc_dtype(call.op, in.dtype());
  const std::string shader =
      b.variant("cumulative_" + std::string(dtype_name(acc)), {in.dtype(), acc});
  auto pipeline = [&](Phase phase, bool has_carry) {
    return b.pipelines().get(
        shader, 4,
        {static_cast<std::uint32_t>(in.dtype()), static_cast<std::uint32_t>(out.dtype()),
         combine_code(op_combine(call.op)), mode, phase, params.reverse ? 1u : 0u,
         has_carry ? 1u : 0u});
  };
  // Rows mode: invocations per chunk (a power of two dividing the workgroup): 256 for
  // split rows, else the row length rounded up to a power of two, at least 32.
  std::uint32_t lanes = Pipelines::kWorkgroupSize;
  if (rows && splits == 1) {
    lanes = 32;
    while (lanes < Pipelines::kWorkgroupSize && lanes < len) lanes *= 2;
  }
  const std::uint64_t per_group = Pipelines::kWorkgroupSize / lanes;
  const ScanPush push{static_cast<std::uint32_t>(outer),  static_cast<std::uint32_t>(len),
                      static_cast<std::uint32_t>(inner),  static_cast<std::uint32_t>(chunk),
                      static_cast<std::uint32_t>(splits), lanes};
  const std::uint64_t threads =
      rows ? (outer + per_group - 1) / per_group * splits * Pipelines::kWorkgroupSize
           : outer * splits * inner;
  if (splits == 1) {
    b.dispatch(pipeline(kScan, false), {{&in, false}, {&in, false}, {&out, true}, {&out, true}},
               &push, sizeof(push), threads);
    return out;
  }
  OpCall temp_call = call;
  temp_call.out_dtype = acc;
  temp_call.out_shape = {static_cast<std::int64_t>(outer * splits * inner)};
  const Tensor totals = b.make_output(temp_call);
  const Tensor carries = b.make_output(temp_call);
  b.dispatch(pipeline(kTotals, false),
             {{&in, false}, {&in, false}, {&totals, true}, {&totals, true}}, &push, sizeof(push),
             threads);
  b.dispatch(pipeline(kCarries, false),
             {{&in, false}, {&totals, false}, {&carries, true}, {&carries, true}}, &push,
             sizeof(push), columns);
  b.dispatch(pipeline(kScan, true), {{&in, false}, {&carries, false}, {&out, true}, {&out, true}},
             &push, sizeof(push), threads);
  return out;
}

}  // namespace vkt::vk
