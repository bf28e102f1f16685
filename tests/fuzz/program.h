// A fuzz program: a list of nodes, each a leaf (random data or a creation op) or one op
// applied to earlier nodes with concrete arguments, so it replays the same on any backend.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "vkt/vkt.h"

namespace vkt::fuzz {

// A literal argument, kept with its text for listings.
struct Literal {
  Scalar value = 0;
  std::string text;
};

struct Node {
  // "values" / "indices" (random leaves), "const" (captured bytes, made by shrinking),
  // "full" "iota" "eye", or an op name ("add", "slice", "top_k.indices", ...).
  std::string op;
  std::vector<int> args;  // earlier nodes
  DType dtype = DType::f32;
  Shape shape;
  // Named integer arguments (axes, start, lengths, ...); names are listed as they are.
  std::map<std::string, std::vector<std::int64_t>> ints;
  std::vector<Literal> literals;
  std::uint64_t data_seed = 0;   // leaves
  std::vector<std::byte> bytes;  // "const"
};

// A node with no arguments yet: op, dtype and shape.
inline Node make_node(std::string op, DType dtype, Shape shape) {
  Node n;
  n.op = std::move(op);
  n.dtype = dtype;
  n.shape = std::move(shape);
  return n;
}

struct Program {
  std::uint64_t seed = 0;
  std::vector<Node> nodes;
};

// The node run on `where` (leaves are made there; ops run where their inputs decide).
// Throws what the op throws.
Tensor run_node(const Node& n, const std::vector<Tensor>& inputs, Backend& where);

// run_node over the earlier nodes' values (indexed by node): an empty tensor where an input
// is empty or the op throws vkt::Error (the generator's invalid arguments).
Tensor run_node_or_empty(const Node& n, const std::vector<Tensor>& values, Backend& where);

// How many programs a fuzz test runs: the count in environment variable `name` when set,
// else `fallback`. A value that is not a positive count throws vkt::Error naming it.
std::int64_t program_count_from_env(const char* name, std::int64_t fallback);

// p without node i and every node that depends on it, the rest renumbered (shrinking).
Program without(const Program& p, std::size_t i);

// Which arguments carry data an accumulating op sums or multiplies (not indices).
bool is_data_arg(const Node& n, std::size_t arg);

// One line per node: "%3 = add(%1, %2) -> f32[2,0,3]"; `results` (may be empty) gives the
// shapes and dtypes seen on the cpu.
std::string listing(const Program& p, const std::vector<Tensor>& results);

}  // namespace vkt::fuzz
