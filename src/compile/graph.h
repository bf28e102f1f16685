// The op graph a trace records: inputs, constants and validated op calls, in call order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vkt/backend/op_call.h"

namespace vkt::detail {

// A use of a node's value as the user's code saw it: reshape and bitcast alias storage
// without an op, so a use may see another shape or dtype of the same bytes.
struct ValueRef {
  int node = -1;
  DType dtype = DType::f32;
  Shape shape;
  bool stops_gradient = false;  // a use through vkt::stop_gradient: no cotangent flows back
};

struct GraphNode {
  enum class Kind : std::uint8_t { input, constant, captured, op };
  Kind kind = Kind::op;
  DType dtype = DType::f32;
  Shape shape;
  int input = -1;                // input: position among the traced tensor arguments
  std::vector<std::byte> bytes;  // constant: its bytes (a literal or a cpu tensor used)
  Tensor captured;               // captured: a real tensor returned as an output
  Op op = Op::add;               // op: the call as the core validated it
  OpParams params;
  std::vector<ValueRef> args;
  bool target_is_trace = false;  // a creation op asked for the traced backend
};

struct Graph {
  std::vector<GraphNode> nodes;
  std::vector<ValueRef> outputs;
  std::vector<DType> input_dtypes;
  std::vector<Shape> input_shapes;
  std::string describe() const;
};

}  // namespace vkt::detail
