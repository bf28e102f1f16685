// A fused elementwise group as the compiler hands it to a backend: an expression DAG over
// leaf tensors, evaluated once per element of the group's shape. A backend that can run it
// as one kernel registers a FusedCompiler; the plan runs a group unfused (ordinary
// dispatches, the usual fallback rule) where there is none or it returns nullptr.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "vkt/backend/op_call.h"

namespace vkt::detail {

struct FusedValue {
  enum class Kind : std::uint8_t { leaf, scalar, op };
  Kind kind = Kind::op;
  DType dtype = DType::f32;
  Shape shape;  // broadcasts to the group's shape
  // leaf: index into the kernel's leaf tensors. scalar: the element's bytes (inline
  // constant). op: an elementwise unary/binary op, as_type, select (pred, on_true, on_false)
  // or clip (x, lo, hi) over earlier values (implicit broadcasts are not values: the plan
  // passes their argument on).
  int leaf = -1;
  std::vector<std::byte> scalar;
  Op op = Op::add;
  std::vector<int> args;
  // Row groups (FusedGroup::rows): one value per row of the group's shape (a reduction over
  // the last axis, or an op over such values) rather than one per element. A row group's op
  // may also be a reduction (reduction_op) of args[0] over the last axis.
  bool per_row = false;
};

// A reduction the group ends in: its prologue's root (outputs[0], of the group's shape) is
// reduced over `axes`; outputs[1...] are written at the group's shape as the kernel goes
// (values later steps read too). run() returns the reduced tensor, then those.
struct FusedReduce {
  Op op = Op::sum;  // sum, product, reduce_max, reduce_min, all, any
  Axes axes;
  bool keep_axes = false;
  DType dtype = DType::f32;  // the result's dtype and shape
  Shape shape;
};

struct FusedGroup {
  Shape shape;                     // every output has this shape (a reduction's input)
  std::vector<FusedValue> values;  // in evaluation order; args refer to earlier values
  std::vector<DType> leaf_dtypes;  // leaf tensors: dtype and shape (broadcast to `shape`)
  std::vector<Shape> leaf_shapes;
  std::vector<int> outputs;  // values written, in the order run() returns them
  std::optional<FusedReduce> reduce;
  // A row-local group: reductions over the last axis of `shape` feeding elementwise values
  // that broadcast them back along it (softmax, layer norm), one kernel reading each row
  // once. Outputs are per element (of `shape`) or per row (of their value's shape).
  bool rows = false;
  std::vector<Shape> output_shapes;  // row groups: each output's shape (`shape` or a row's)
  // A dot group (dot_groups.cpp): value `dot` is the dot (dot_params) of the two leaf values
  // it names as args, which do not broadcast to `shape`; the other op values are its
  // elementwise epilogue, evaluated per element of C (of `shape`).
  int dot = -1;
  DotParams dot_params;
  // One line per value, for VKT_COMPILE_DUMP and errors.
  std::string describe() const;
};

// A group compiled for one backend. run() takes leaves on that backend (in leaf order) and
// returns the outputs (in FusedGroup::outputs order) on it.
class FusedKernel {
 public:
  virtual ~FusedKernel() = default;
  // False where run() would now wait for the device before it returns (a first tier whose
  // results the host must check): the plan runs the group's ops unfused this time.
  virtual bool runs_without_waiting() { return true; }
  virtual std::vector<Tensor> run(const std::vector<Tensor>& leaves) = 0;
};

// Compiles `group` for backend `b`, or returns nullptr when it cannot (an op or dtype it
// does not run natively, a size past its limits).
using FusedCompiler = std::unique_ptr<FusedKernel> (*)(Backend& b, const FusedGroup& group);
// Backends register themselves when made (the cpu's too: this layer knows no backend).
struct FusionCaps {
  bool reductions = false;  // takes groups that end in a reduction (FusedGroup::reduce)
  // Recomputes an elementwise value in each group that reads it rather than writing it
  // once: right where memory, not arithmetic, bounds the kernels (a GPU), not on the cpu.
  bool recompute = false;
  // Row groups (FusedGroup::rows) over rows of at most this many elements; 0: none.
  std::int64_t max_row = 0;
  bool dot_epilogues = false;  // takes dot groups (FusedGroup::dot)
};
void register_fused_compiler(Backend& b, FusedCompiler compiler, FusionCaps caps);
std::unique_ptr<FusedKernel> compile_fused(Backend& b, const FusedGroup& group);
// What plans for backend b may fuse.
FusionCaps fusion_caps(Backend& b);

// A dot group's epilogue alone: the dot's value made one more leaf (C, of the group's shape),
// the dot's own leaves left unread. What a backend runs after an ordinary dot where it
// cannot apply the epilogue inside the dot's kernel.
FusedGroup epilogue_only(const FusedGroup& dot_group);

// True when `op` may be inlined into a fused group (elementwise unary/binary, as_type,
// select, clip; the plan also inlines right-aligned broadcasts).
bool fusible_op(Op op);
// True when `op` may end a fused group as its reduction (sum, product, max, min, all, any).
bool reduction_op(Op op);

}  // namespace vkt::detail
