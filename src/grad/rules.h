// The derivative rules of the ops, one per op-table row whose grad column is `diff`: each
// maps the cotangent of an op's output to cotangents of its inputs, in vktensor's own ops.
#pragma once

#include <vector>

#include "compile/graph.h"
#include "vkt/tensor.h"

namespace vkt::detail {

struct RuleArgs {
  const GraphNode& node;          // the op, its parameters, out dtype and shape
  const std::vector<Tensor>& in;  // its inputs' values, as it saw them
  const Tensor& out;              // its output's value
  const Tensor& g;                // the output's cotangent (out's dtype and shape)
  // Per input: whether its cotangent is used (it leads to a differentiated primal). A rule
  // may leave the others undefined instead of computing them (conv's two transposed convs,
  // dot's two products); the walk drops whatever it returns for them.
  const std::vector<bool>& wanted;
  bool wants(std::size_t j) const { return j < wanted.size() && wanted[j]; }
};
// Input cotangents, one per input (an undefined Tensor: none flows there).
using Rule = std::vector<Tensor> (*)(const RuleArgs&);

// The rule of `op` from the lookups below; nullptr where the op has none.
Rule rule_of(Op op);
// The rule of `op`; nullptr where none is written yet. One lookup per rule file.
Rule elementwise_rule(Op op);  // rules_elementwise.cpp: unary and binary arithmetic
Rule structural_rule(Op op);   // rules_structural.cpp: reductions, movement, dot
Rule indexing_rule(Op op);     // rules_indexing.cpp: gather, take, scatters, sort, top_k
Rule window_rule(Op op);       // rules_window.cpp: conv, window ops, window_scatter
Rule linalg_rule(Op op);       // rules_linalg.cpp: factorizations and solves
Rule spectral_rule(Op op);     // rules_spectral.cpp: the fft family, complex parts

// A rank-0 tensor holding v in `like`'s dtype, on its backend: select and clip take
// tensors, not literals.
Tensor scalar_like(const Tensor& like, Scalar v);

// g summed down to `shape` (a broadcast's inverse: leading axes and size-1 axes).
Tensor unbroadcast(const Tensor& g, const Shape& shape);

}  // namespace vkt::detail
