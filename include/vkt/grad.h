// Reverse-mode derivatives (vjp, grad) over the graph vkt::compile's tracer records.
//
//   auto loss = [](const std::vector<vkt::Tensor>& a) {  // a: w, x, y
//     const vkt::Tensor err = vkt::subtract(vkt::dot(a[1], a[0]), a[2]);
//     return std::vector<vkt::Tensor>{vkt::sum(vkt::multiply(err, err))};
//   };
//   std::vector<vkt::Tensor> dw = vkt::grad(loss, {w, x, y}, {0});  // d loss / d w
//
// The function runs once over symbolic tensors (as in vkt::compile: C++ control flow sees
// shapes, not values); the recorded ops then run forward on the primals and the pullback
// applies one rule per op, written in vktensor's own ops, so it runs where the values live
// (a Vulkan primal gets a Vulkan gradient). Integer and boolean values carry no gradient;
// broadcasting is undone by summing; a mixed-dtype op's cotangent goes back to each input's
// dtype. An op whose derivative is not written raises vkt::Error naming it, never a zero.
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "vkt/tensor.h"

namespace vkt {

using TensorFunction = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

struct Vjp {
  std::vector<Tensor> outputs;  // f(primals)
  // Cotangents of the outputs (one each, of its output's shape) to cotangents of the
  // primals (one each, of the primal's shape and dtype; zeros for an integer primal).
  std::function<std::vector<Tensor>(const std::vector<Tensor>& cotangents)> pullback;
};

Vjp vjp(const TensorFunction& f, const std::vector<Tensor>& primals);

// f returns one float scalar (rank 0): its gradient with respect to the primals named by
// argnums (every primal when empty), in argnums' order.
std::vector<Tensor> grad(const TensorFunction& f, const std::vector<Tensor>& primals,
                         const std::vector<int>& argnums = {});
// f's value and that gradient, from one forward pass.
std::pair<Tensor, std::vector<Tensor>> value_and_grad(const TensorFunction& f,
                                                      const std::vector<Tensor>& primals,
                                                      const std::vector<int>& argnums = {});

// The same as functions of the primals (JAX's jax.grad(f)), to call later or to compile:
// vkt::compile(vkt::grad(loss))(std::vector<vkt::Tensor>{w, x, y}) traces the forward and
// backward passes into one plan. value_and_grad's function returns {value, gradients...}.
TensorFunction grad(TensorFunction f, std::vector<int> argnums = {});
TensorFunction value_and_grad(TensorFunction f, std::vector<int> argnums = {});

// t, through which no gradient flows (JAX's lax.stop_gradient): inside a function being
// differentiated, f(stop_gradient(x)) is treated as a constant of x. Elsewhere it is t.
Tensor stop_gradient(const Tensor& t);

}  // namespace vkt
